import Foundation

/// Where a file stands in a project: in the test target's resources, elsewhere in the project, or absent.
public enum ResourceMembership: Sendable, Equatable {
    /// In the Resources phase of the target (directly, or inside a folder or synchronized folder on disk).
    case inTargetResources
    /// Referenced by the project, but not in the target's Resources phase; lists the targets that have it.
    case inProjectOnly(targetsWithIt: [String])
    /// Not referenced by the project at all.
    case notInProject
    /// Not referenced as a file, but the target's resources hold folders that are not on disk here to look into.
    case notVisible(folders: [String])
}

/// A `project.pbxproj`, read with `PropertyListSerialization` (which reads the OpenStep format).
public struct ProjectFile: @unchecked Sendable {
    // The objects table is immutable after init; `@unchecked` because `[String: Any]` isn't Sendable.
    private let objects: [String: [String: Any]]
    /// The folder holding the `.xcodeproj`, against which source-tree-relative paths resolve.
    private let sourceRoot: URL?

    /// Parses the pbxproj text; `sourceRoot` lets folder references be looked into on disk.
    public init(data: Data, source: String, sourceRoot: URL? = nil) throws(XcodeRunnerError) {
        let plist: Any
        do {
            plist = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        } catch {
            throw XcodeRunnerError(
                .configInvalid, field: source, rule: "not a readable project.pbxproj (property list)",
                remedy: "resolve merge conflicts in the project file, or open and save it in Xcode")
        }
        guard let root = plist as? [String: Any], let objects = root["objects"] as? [String: Any] else {
            throw XcodeRunnerError(
                .configInvalid, field: source, rule: "no \"objects\" table in the project file",
                remedy: "point the config's project at an .xcodeproj folder")
        }
        var table: [String: [String: Any]] = [:]
        for (key, value) in objects {
            if let object = value as? [String: Any] { table[key] = object }
        }
        self.objects = table
        self.sourceRoot = sourceRoot
    }

    /// Reads `<project>/project.pbxproj`.
    public init(projectFolder: URL) throws(XcodeRunnerError) {
        let file = projectFolder.appendingPathComponent("project.pbxproj")
        guard let data = FileManager.default.contents(atPath: file.path) else {
            throw XcodeRunnerError(
                .configInvalid, field: "project", rule: "no project.pbxproj inside the project folder",
                remedy: "set project to the path of the .xcodeproj, relative to the config")
        }
        try self.init(data: data, source: file.path, sourceRoot: projectFolder.deletingLastPathComponent())
    }

    private func isa(_ id: String) -> String? { objects[id]?["isa"] as? String }

    /// Names of native targets (and aggregate/legacy targets).
    public var targetNames: [String] {
        objects.values.filter { ($0["isa"] as? String)?.hasSuffix("Target") == true }
            .compactMap { $0["name"] as? String }.sorted()
    }

    private func targetID(named name: String) -> String? {
        objects.first {
            ($0.value["isa"] as? String)?.hasSuffix("Target") == true && $0.value["name"] as? String == name
        }?.key
    }

    /// The file name a file reference or variant group stands for.
    private func fileName(_ id: String) -> String? {
        guard let object = objects[id] else { return nil }
        let text = (object["path"] as? String) ?? (object["name"] as? String)
        return text.map { ($0 as NSString).lastPathComponent }
    }

    /// Every file reference id that names `fileName` (including variant groups of that name).
    private func references(to fileName: String) -> Set<String> {
        var result: Set<String> = []
        for (id, object) in objects {
            guard let kind = object["isa"] as? String, kind == "PBXFileReference" || kind == "PBXVariantGroup" else {
                continue
            }
            if self.fileName(id) == fileName { result.insert(id) }
        }
        return result
    }

    /// File reference ids in the target's Resources phases.
    private func resourceFileRefs(ofTarget targetID: String) -> [String] {
        var refs: [String] = []
        for phase in objects[targetID]?["buildPhases"] as? [String] ?? [] where isa(phase) == "PBXResourcesBuildPhase" {
            for buildFile in objects[phase]?["files"] as? [String] ?? [] {
                if let ref = objects[buildFile]?["fileRef"] as? String { refs.append(ref) }
            }
        }
        return refs
    }

    /// Whether `fileName` is a resource of `target`, elsewhere in the project, or absent.
    public func membership(of fileName: String, inTarget target: String) -> ResourceMembership? {
        guard let targetID = targetID(named: target) else { return nil }
        let refs = references(to: fileName)
        let targetRefs = resourceFileRefs(ofTarget: targetID)
        if targetRefs.contains(where: refs.contains) { return .inTargetResources }
        // A folder reference, or an Xcode 16 synchronized folder, contributes whatever is inside it on disk.
        var hidden: [String] = []
        for ref in targetRefs where (objects[ref]?["lastKnownFileType"] as? String) == "folder" {
            guard let folder = diskPath(of: ref), FileManager.default.fileExists(atPath: folder.path) else {
                hidden.append(self.fileName(ref) ?? ref)
                continue
            }
            if containsFile(named: fileName, under: folder) { return .inTargetResources }
        }
        for group in objects[targetID]?["fileSystemSynchronizedGroups"] as? [String] ?? [] {
            guard let folder = diskPath(of: group), FileManager.default.fileExists(atPath: folder.path) else {
                hidden.append(self.fileName(group) ?? group)
                continue
            }
            if containsFile(named: fileName, under: folder),
                !excludes(group: group, target: targetID, fileName: fileName)
            {
                return .inTargetResources
            }
        }
        var holders: [String] = []
        for (id, object) in objects where (object["isa"] as? String)?.hasSuffix("Target") == true {
            if resourceFileRefs(ofTarget: id).contains(where: refs.contains), let name = object["name"] as? String {
                holders.append(name)
            }
        }
        if refs.isEmpty && holders.isEmpty {
            return hidden.isEmpty ? .notInProject : .notVisible(folders: hidden.sorted())
        }
        return .inProjectOnly(targetsWithIt: holders.sorted())
    }

    /// Where the target's Resources-phase references to `fileName` live on disk; nil where that can't be resolved here.
    public func resourceLocations(of fileName: String, inTarget target: String) -> [URL?] {
        guard let targetID = targetID(named: target) else { return [] }
        let refs = references(to: fileName)
        return resourceFileRefs(ofTarget: targetID).filter(refs.contains).map { ref in
            // A variant group's files live in .lproj folders; only plain file references are located.
            isa(ref) == "PBXFileReference" ? diskPath(of: ref) : nil
        }
    }

    /// The on-disk path of a group or file reference, walking up the group tree for `<group>`-relative paths.
    private func diskPath(of id: String) -> URL? {
        guard let sourceRoot else { return nil }
        var components: [String] = []
        var current = id
        var seen: Set<String> = []
        while !seen.contains(current), let object = objects[current] {
            seen.insert(current)
            if let path = object["path"] as? String { components.insert(path, at: 0) }
            let tree = object["sourceTree"] as? String ?? "<group>"
            if tree == "SOURCE_ROOT" { break }
            if tree != "<group>" { return nil }
            guard
                let parent = objects.first(where: { ($0.value["children"] as? [String])?.contains(current) == true })?
                    .key
            else { break }
            current = parent
        }
        return components.reduce(sourceRoot) { $0.appendingPathComponent($1) }
    }

    /// Whether a synchronized folder's exception sets take `fileName` out of `target`.
    private func excludes(group: String, target: String, fileName: String) -> Bool {
        for set in objects[group]?["exceptions"] as? [String] ?? [] where objects[set]?["target"] as? String == target {
            let names = (objects[set]?["membershipExceptions"] as? [String] ?? []).map {
                ($0 as NSString).lastPathComponent
            }
            if names.contains(fileName) { return true }
        }
        return false
    }

    private func containsFile(named name: String, under folder: URL) -> Bool {
        guard let enumerator = FileManager.default.enumerator(atPath: folder.path) else { return false }
        while let item = enumerator.nextObject() as? String {
            if (item as NSString).lastPathComponent == name { return true }
        }
        return false
    }
}
