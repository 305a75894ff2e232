/// The parts of a file name as the user typed it, without Foundation's `NSString` path methods:
/// `deletingLastPathComponent` crashes on Linux for a name of one character (`j`, `é`, `j/`).
enum PathName {
    /// The folder part of `path`: "" for a bare name, "/" for a name at the root, trailing slashes dropped
    /// (`a/b/` → `a`, `/j` → `/`, `j` → ``).
    static func folder(of path: String) -> String {
        var name = Substring(path)
        while name.count > 1, name.hasSuffix("/") { name = name.dropLast() }
        guard let slash = name.lastIndex(of: "/") else { return "" }
        var folder = name[..<slash]
        while folder.count > 1, folder.hasSuffix("/") { folder = folder.dropLast() }
        return folder.isEmpty ? "/" : String(folder)
    }

    /// `name` inside `folder` (the folder's trailing slash kept single); `name` alone when `folder` is empty.
    static func joined(_ folder: String, _ name: String) -> String {
        folder.isEmpty ? name : (folder.hasSuffix("/") ? folder + name : folder + "/" + name)
    }
}
