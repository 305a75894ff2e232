import BridgeTesting
import CommandLineOptions
import Foundation

extension CheckOptions {
    /// `--serve DIR`: a folder, served for the pages `--page` (or `--pages`) names, each of which lies in it, also
    /// once symbolic links are followed. The server never serves a file through a link out of its folder, so a
    /// page in a linked folder would load (the check reads it itself) while each of its modules answered 404.
    static func servedFolder(_ parsed: ParsedOptions) throws(CommandError) -> URL? {
        guard let folder = parsed.value("--serve") else { return nil }
        let shown = TerminalText.escape(folder)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw CommandError(
                "--serve \(shown): not a folder; give the folder that holds the pages and what they load")
        }
        let pages = parsed.values("--page")
        guard !pages.isEmpty || parsed.isGiven("--pages") else {
            throw CommandError(
                "--serve \(shown): no page to serve it for; --serve serves the folder that --page pages load their modules and fetches from. Remedy: add --page with a page under \(shown), or drop --serve"
            )
        }
        let serve = URL(fileURLWithPath: folder).standardizedFileURL
        let realRoot = serve.resolvingSymlinksInPath().path
        for page in pages {
            let path = URL(fileURLWithPath: page).standardizedFileURL.path
            guard path == serve.path || path.hasPrefix(serve.path + "/") else {
                throw CommandError(
                    "--page \(TerminalText.escape(page)) is outside --serve \(shown): the server serves only that folder; give pages under it, or serve a folder that holds them"
                )
            }
            let real = URL(fileURLWithPath: page).resolvingSymlinksInPath().path
            guard real == realRoot || real.hasPrefix(realRoot + "/") else {
                throw CommandError(
                    "--page \(TerminalText.escape(page)) is reached through a symbolic link out of --serve \(shown) (to \(TerminalText.escape(real))): the server never serves a file through a link out of its folder, so the page's modules and fetches would answer 404. Remedy: serve the folder the link points to, or give the page by its own path under the served folder"
                )
            }
        }
        return serve
    }
}
