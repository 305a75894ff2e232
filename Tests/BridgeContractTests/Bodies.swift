import Foundation

/// Message bodies built the way the engines hand them over: numbers as double `NSNumber`s, booleans as
/// boolean `NSNumber`s (CFBoolean on Apple, `NSNumber(value: Bool)` from the Linux engine).
enum JS {
    static func number(_ value: Double) -> NSNumber { NSNumber(value: value) }
    static func boolean(_ value: Bool) -> NSNumber { NSNumber(value: value) }
    static let null = NSNull()
}

/// A body for a table-driven test: built on demand, because `Any` is not `Sendable`.
struct BodyCase: Sendable, CustomStringConvertible {
    let name: String
    let make: @Sendable () -> Any?
    var description: String { name }
    init(_ name: String, _ make: @escaping @Sendable () -> Any?) {
        self.name = name
        self.make = make
    }
}
