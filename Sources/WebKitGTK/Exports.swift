#if os(Linux)
// Apple's `import WebKit` brings Foundation with URLRequest and HTTPURLResponse; on Linux those live in
// FoundationNetworking. Re-exporting both keeps test code identical on the two platforms.
@_exported import Foundation
@_exported import FoundationNetworking
#endif
