#if canImport(Darwin)
import CoreFoundation
import Foundation

/// Platform facts about message bodies, gated whole (swift-nio style): this file is the Apple half.
enum Platform {
    /// Whether the number is a JS boolean: WebKit hands JS booleans over as `CFBoolean` (`@YES`/`@NO`).
    static func isBoolean(_ number: NSNumber) -> Bool {
        CFGetTypeID(number as CFTypeRef) == CFBooleanGetTypeID()
    }
}
#endif
