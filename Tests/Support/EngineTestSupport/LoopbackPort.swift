import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Connections to a loopback port, as a client: how a test speaks to a server over a real socket, and sees that a
/// server it did not start has stopped. Foundation and POSIX only, so it builds on every platform.
public enum LoopbackPort {
    /// A socket connected to 127.0.0.1:`port`, the caller's to close.
    ///
    /// - Throws: the connect error as a `POSIXError` (`ECONNREFUSED` when nothing listens).
    public static func connect(_ port: Int) throws -> Int32 {
        let fd = try streamSocket()
        var address = loopback(port)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                #if canImport(Glibc)
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                #else
                Darwin.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                #endif
            }
        }
        guard connected == 0 else {
            let code = POSIXErrorCode(rawValue: errno) ?? .EIO
            close(fd)
            throw POSIXError(code)
        }
        return fd
    }

    /// A socket listening on 127.0.0.1 at a port the system picks (the caller's to close), and that port.
    public static func listen(backlog: Int32 = 16) throws -> (fd: Int32, port: Int) {
        let fd = try streamSocket()
        var yes: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = loopback(0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let listening = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                guard bind(fd, $0, length) == 0 else { return false }
                #if canImport(Glibc)
                guard Glibc.listen(fd, backlog) == 0 else { return false }
                #else
                guard Darwin.listen(fd, backlog) == 0 else { return false }
                #endif
                return getsockname(fd, $0, &length) == 0
            }
        }
        guard listening else {
            let code = POSIXErrorCode(rawValue: errno) ?? .EIO
            close(fd)
            throw POSIXError(code)
        }
        return (fd, Int(UInt16(bigEndian: address.sin_port)))
    }

    private static func streamSocket() throws -> Int32 {
        #if canImport(Glibc)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        return fd
    }

    private static func loopback(_ port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }

    /// The errno of connecting to 127.0.0.1:`port` (`ECONNREFUSED` once nothing listens); 0 when one accepts.
    public static func connectError(_ port: Int) -> Int32 {
        do {
            close(try connect(port))
            return 0
        } catch {
            return (error as? POSIXError)?.code.rawValue ?? EIO
        }
    }
}
