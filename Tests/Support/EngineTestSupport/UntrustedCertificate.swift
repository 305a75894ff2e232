#if os(Linux)
/// A self-signed certificate and its key for 127.0.0.1, valid until 2126: TEST ONLY, not a secret.
///
/// No client trusts it, which is the point: an HTTPS load from this server fails certificate checks.
enum UntrustedCertificate {
    static let pem = """
        -----BEGIN CERTIFICATE-----
        MIIBwTCCAWagAwIBAgIUdoaI+1Cc21zf/c/rkChutvAwXn8wCgYIKoZIzj0EAwIw
        LDEqMCgGA1UEAwwhMTI3LjAuMC4xIHdlYmJyaWRnZSBsb29wYmFjayB0ZXN0MCAX
        DTI2MTEyOTEyMTgwM1oYDzIxMjYxMTA1MTIxODAzWjAsMSowKAYDVQQDDCExMjcu
        MC4wLjEgd2ViYnJpZGdlIGxvb3BiYWNrIHRlc3QwWTATBgcqhkjOPQIBBggqhkjO
        PQMBBwNCAATAkAlxUl/LDvPn1yM2Uf+qhkkb7g2K0kNhweZPzOAdj/bfPXJEFh1E
        GJ9zjWfS/Fenb3EPM2UcLzQKKFH+kQ/xo2QwYjAdBgNVHQ4EFgQUwSzRdDk8nzYc
        Bw7uHyauRNuOnecwHwYDVR0jBBgwFoAUwSzRdDk8nzYcBw7uHyauRNuOnecwDwYD
        VR0TAQH/BAUwAwEB/zAPBgNVHREECDAGhwR/AAABMAoGCCqGSM49BAMCA0kAMEYC
        IQCoUjkDPCYmJDztp427+HFxLqqYy6Lfy7vbf9Yel0tLiwIhANK3YPXKArPybA10
        zMVylVMYXGXziL5echIC3jHMfxR/
        -----END CERTIFICATE-----
        -----BEGIN PRIVATE KEY-----
        MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgEDf0PjvhBNQ4bsUu
        c+BdXm1aN5r43Ms/NQXpJnYndk6hRANCAATAkAlxUl/LDvPn1yM2Uf+qhkkb7g2K
        0kNhweZPzOAdj/bfPXJEFh1EGJ9zjWfS/Fenb3EPM2UcLzQKKFH+kQ/x
        -----END PRIVATE KEY-----
        """
}
#endif
