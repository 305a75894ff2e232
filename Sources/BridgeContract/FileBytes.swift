import Foundation

/// Reads a whole file the way every file option needs it read: a regular file, a pipe (`--contract <(…)`), or a
/// device such as `/dev/null`; and says which of missing, a symbolic-link loop or unreadable it is otherwise.
package enum FileBytes {
    /// Why a file could not be read, in words that go after its name.
    package enum Failure: Error, Equatable, CustomStringConvertible {
        case missing
        case danglingLink
        case linkLoop
        case directory
        case unreadable(String)

        package var description: String {
            switch self {
            case .missing: "does not exist"
            case .danglingLink: "is a symbolic link to a file that does not exist"
            case .linkLoop: "is a symbolic link that loops (it leads back to itself)"
            case .directory: "is a directory"
            case .unreadable(let reason): "can't be read (\(reason))"
            }
        }
    }

    package static func read(_ path: String) throws(Failure) -> Data {
        // Non-blocking open: a FIFO without a writer would block here forever.
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { throw failure(path, errno) }
        defer { close(descriptor) }
        var info = stat()
        if fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFDIR { throw .directory }
        // Blocking reads from here: a pipe's writer is waited for as it writes, and a FIFO that no process writes
        // to reads as empty at once.
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        do {
            return try FileHandle(fileDescriptor: descriptor, closeOnDealloc: false).readToEnd() ?? Data()
        } catch {
            throw .unreadable(String(cString: strerror(errno)))
        }
    }

    /// What `errno` from opening `path` means for the user.
    private static func failure(_ path: String, _ code: Int32) -> Failure {
        switch code {
        case ELOOP: return .linkLoop
        case ENOENT:
            var info = stat()
            return lstat(path, &info) == 0 ? .danglingLink : .missing
        default: return .unreadable(String(cString: strerror(code)))
        }
    }
}
