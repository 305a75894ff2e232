#if !canImport(Darwin)
import Foundation

/// Platform facts about message bodies, gated whole (swift-nio style): this file is the Linux half.
enum Platform {
    /// The class swift-corelibs-foundation uses for `NSNumber(value: Bool)` (`__NSCFBoolean`), which the
    /// WebKitGTK engine module uses for JS booleans; every other number is a plain `NSNumber`.
    private static let booleanClass = ObjectIdentifier(type(of: NSNumber(value: true)))

    /// Whether the number is a JS boolean rather than a JS number.
    static func isBoolean(_ number: NSNumber) -> Bool {
        ObjectIdentifier(type(of: number)) == booleanClass
    }
}
#endif
