#if os(Linux)
import CWebKitGTK
import Foundation
import Synchronization
internal import WebKitGTKHost

/// Where a web context keeps its cookies, storage and caches when the web process extension is loaded.
///
/// WebKit tells a web process extension of console messages only in a session that is not ephemeral (its console
/// client skips an ephemeral page), and the extension needs them (``WebProcessExtension``). So, with the extension,
/// each context keeps its data in a folder of its own, private to this process (mode 0700, under the temporary
/// folder), never the user's: the default store's one, and one for each non-persistent store, so stores still share
/// nothing. The folders go when the process exits, after its engine processes; a folder a killed process left is
/// removed by the next one (its name holds the pid, which is then not running). Without the extension, contexts
/// stay ephemeral and write nothing.
enum EngineDataFolder {
    static let prefix = "webbridge-engine-"

    /// A new web context: keeping its data in a new private folder when the extension is loaded, else ephemeral.
    @MainActor
    static func makeContext() -> UnsafeMutablePointer<WebKitWebContext> {
        guard case .success = WebProcessExtension.folder, let folder = makeFolder() else {
            return webkit_web_context_new_ephemeral()!
        }
        let context = cwk_web_context_new_in(folder)!
        WebProcessExtension.install(on: context)
        return context
    }

    @MainActor
    private static func makeFolder() -> String? {
        if folders.withLock({ $0.isEmpty }) {
            removeLeftovers()
            registerRemoval()
        }
        let base = FileManager.default.temporaryDirectory.path
        let folder = "\(base)/\(prefix)\(getpid())-\(UUID().uuidString.prefix(8))"
        guard mkdir(folder, 0o700) == 0 else { return nil }
        folders.withLock { $0.append(folder) }
        return folder
    }

    /// This process's folders, removed at exit by the exit handler (which runs on whatever thread exits).
    private static let folders = Mutex<[String]>([])

    private nonisolated static func registerRemoval() {
        atexit {
            // The engine's processes first: they write there until they end.
            EngineProcesses.killAll()
            for folder in EngineDataFolder.folders.withLock({ $0 }) {
                try? FileManager.default.removeItem(atPath: folder)
            }
        }
    }

    /// Removes the folders of processes that no longer run (killed before their exit handler): only folders named
    /// by this prefix, owned by this user, whose pid is not running.
    private static func removeLeftovers() {
        let base = FileManager.default.temporaryDirectory.path
        for name in (try? FileManager.default.contentsOfDirectory(atPath: base)) ?? [] where name.hasPrefix(prefix) {
            let pidText = name.dropFirst(prefix.count).prefix { $0.isNumber }
            guard let pid = pid_t(pidText), pid != getpid(), kill(pid, 0) != 0, errno == ESRCH else { continue }
            var status = stat()
            guard lstat("\(base)/\(name)", &status) == 0, status.st_uid == getuid(),
                (status.st_mode & S_IFMT) == S_IFDIR
            else { continue }
            try? FileManager.default.removeItem(atPath: "\(base)/\(name)")
        }
    }
}
#endif
