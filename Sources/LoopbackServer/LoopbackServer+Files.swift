import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An open file whose bytes from `offset` (`length` of them) are a response's body; closed when the response is
/// gone, sent or not.
final class FileBody: @unchecked Sendable {
    let descriptor: Int32
    let offset: Int
    let length: Int

    init(descriptor: Int32, offset: Int, length: Int) {
        self.descriptor = descriptor
        self.offset = offset
        self.length = length
    }

    deinit { close(descriptor) }
}

/// A served folder's files: streamed from the file (a 1 GB file costs the check a buffer, not a gigabyte), with a
/// single `Range` honoured as browsers and media elements ask for it.
extension LoopbackServer {
    /// The file `request` names under the folder; 404 for what is not there or lies outside it (`..`, a symbolic
    /// link out of it), 403 for a file that cannot be read.
    func respond(to request: Request, root: URL, rootPath: String) -> Response {
        guard request.method == "GET" || request.method == "HEAD" else { return .plain(405, "only GET and HEAD") }
        let relative = String(request.path.drop { $0 == "/" })
        var file = URL(fileURLWithPath: rootPath + relative).standardizedFileURL
        var isDirectory: ObjCBool = false
        // Nothing outside the folder is served, whatever the path says (`..`, symbolic links).
        let resolved = file.resolvingSymlinksInPath().path
        let rootResolved = root.resolvingSymlinksInPath().path
        guard resolved == rootResolved || resolved.hasPrefix(rootResolved + "/") else {
            return .plain(404, "not found")
        }
        if FileManager.default.fileExists(atPath: file.path, isDirectory: &isDirectory), isDirectory.boolValue {
            file = file.appendingPathComponent("index.html")
        }
        let descriptor = open(file.path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else {
            return errno == EACCES ? .plain(403, "the file cannot be read") : .plain(404, "not found")
        }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            return .plain(404, "not found")
        }
        let type = Self.contentTypes[file.pathExtension.lowercased()] ?? "application/octet-stream"
        let size = Int(info.st_size)
        var status = 200
        var headers = ["Accept-Ranges: bytes"]
        var (offset, length) = (0, size)
        switch request.range.map({ Self.byteRange($0, size: size) }) {
        case .some(.unsatisfiable):
            close(descriptor)
            return Response(
                status: 416, type: "text/plain; charset=utf-8", body: Data(),
                headers: ["Content-Range: bytes */\(size)"])
        case .some(.bytes(let first, let last)):
            status = 206
            (offset, length) = (first, last - first + 1)
            headers.append("Content-Range: bytes \(first)-\(last)/\(size)")
        case .some(.whole), nil: break
        }
        var response = Response(status: status, type: type, body: Data(), length: length, headers: headers)
        if request.method == "GET" {
            response.file = FileBody(descriptor: descriptor, offset: offset, length: length)
        } else {
            close(descriptor)
        }
        return response
    }

    /// What a `Range` header asks of a file of `size` bytes.
    enum ByteRange: Equatable {
        /// No range this server honours (several ranges, another unit, a malformed one): the whole file, 200.
        case whole
        /// Bytes `first` through `last`, both within the file: 206.
        case bytes(Int, Int)
        /// A well-formed range the file does not reach: 416.
        case unsatisfiable
    }

    /// `bytes=FIRST-LAST`, `bytes=FIRST-` or `bytes=-SUFFIX`; every number is digits only and within Int, checked
    /// before it is used.
    static func byteRange(_ header: String, size: Int) -> ByteRange {
        guard header.lowercased().hasPrefix("bytes="), !header.contains(",") else { return .whole }
        let spec = header.dropFirst(6).trimmingCharacters(in: .whitespaces)
        guard let dash = spec.firstIndex(of: "-") else { return .whole }
        func number(_ text: Substring) -> Int? {
            guard !text.isEmpty, text.utf8.allSatisfy({ (48...57).contains($0) }) else { return nil }
            return Int(text)
        }
        let firstText = spec[..<dash]
        let lastText = spec[spec.index(after: dash)...]
        if firstText.isEmpty {
            guard let suffix = number(lastText) else { return .whole }
            guard suffix > 0, size > 0 else { return .unsatisfiable }
            return .bytes(size - min(suffix, size), size - 1)
        }
        guard let first = number(firstText) else { return .whole }
        var last = size - 1
        if !lastText.isEmpty {
            guard let given = number(lastText), given >= first else { return .whole }
            last = min(given, size - 1)
        }
        return first < size ? .bytes(first, last) : .unsatisfiable
    }

    /// Sends the response's head, then its file's bytes, a buffer at a time; stops when the client goes away.
    func send(_ response: Response, to connection: Int32) {
        guard writeAll(connection, response.bytes), let file = response.file else { return }
        var buffer = [UInt8](repeating: 0, count: 256 * 1024)
        var sent = 0
        while sent < file.length {
            let count = buffer.withUnsafeMutableBytes { raw in
                pread(file.descriptor, raw.baseAddress, min(raw.count, file.length - sent), off_t(file.offset + sent))
            }
            if count < 0 && errno == EINTR { continue }
            // The file shrank while it was sent: the client sees a short body, as from any server.
            guard count > 0 else { return }
            guard writeAll(connection, Data(buffer[0..<count])) else { return }
            sent += count
        }
    }
}
