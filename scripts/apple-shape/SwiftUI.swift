// Declaration-only `SwiftUI`: the part of SwiftUI the example app (Examples/Client/Client) uses, as the Xcode 16 SDK
// declares it (developer.apple.com/documentation/swiftui, pages named beside each declaration). Simplified where
// the app cannot tell (modifiers return `some View`); never run.

@_exported import Foundation
@_exported import UIKit

/// documentation/swiftui/view: `@MainActor @preconcurrency protocol View`.
@MainActor @preconcurrency
public protocol View {
    associatedtype Body: View
    @ViewBuilder var body: Body { get }
}

extension Never: View {
    public typealias Body = Never
    public var body: Never { fatalError() }
}

/// documentation/swiftui/viewbuilder
@resultBuilder
public struct ViewBuilder {
    public static func buildBlock() -> EmptyView { fatalError() }
    public static func buildBlock<Content: View>(_ content: Content) -> Content { fatalError() }
    public static func buildBlock<C0: View, C1: View>(_ c0: C0, _ c1: C1) -> TupleView<(C0, C1)> { fatalError() }
    public static func buildBlock<C0: View, C1: View, C2: View>(_ c0: C0, _ c1: C1, _ c2: C2) -> TupleView<(C0, C1, C2)>
    { fatalError() }
}

/// documentation/swiftui/emptyview
public struct EmptyView: View {
    public var body: Never { fatalError() }
}

/// documentation/swiftui/tupleview
public struct TupleView<T>: View {
    public var body: Never { fatalError() }
}

/// documentation/swiftui/text
public struct Text: View {
    public init<S: StringProtocol>(_ content: S) { fatalError() }
    public var body: Never { fatalError() }
}

/// documentation/swiftui/font
public struct Font: Hashable, Sendable {
    public static let footnote = Font()
    public static let body = Font()
    public static let caption = Font()
}

/// documentation/swiftui/vstack
public struct VStack<Content: View>: View {
    public init(spacing: CGFloat? = nil, @ViewBuilder content: () -> Content) { fatalError() }
    public var body: Never { fatalError() }
}

extension View {
    /// documentation/swiftui/view/font(_:)
    public func font(_ font: Font?) -> some View { self }
    /// documentation/swiftui/view/accessibilityidentifier(_:)
    public func accessibilityIdentifier(_ identifier: String) -> some View { self }
    /// documentation/swiftui/view/padding(_:)
    public func padding(_ length: CGFloat? = nil) -> some View { self }
}

/// documentation/swiftui/binding
@propertyWrapper @dynamicMemberLookup
public struct Binding<Value> {
    public init(get: @escaping () -> Value, set: @escaping (Value) -> Void) { fatalError() }
    public init(projectedValue: Binding<Value>) { fatalError() }
    public var wrappedValue: Value {
        get { fatalError() }
        nonmutating set { fatalError() }
    }
    public var projectedValue: Binding<Value> { self }
    public subscript<Subject>(dynamicMember keyPath: WritableKeyPath<Value, Subject>) -> Binding<Subject> {
        fatalError()
    }
}

/// documentation/swiftui/state
@propertyWrapper
public struct State<Value> {
    public init(wrappedValue value: Value) { fatalError() }
    public var wrappedValue: Value {
        get { fatalError() }
        nonmutating set { fatalError() }
    }
    public var projectedValue: Binding<Value> { fatalError() }
}

/// documentation/swiftui/scene: `@MainActor @preconcurrency protocol Scene`.
@MainActor @preconcurrency
public protocol Scene {
    associatedtype Body: Scene
    @SceneBuilder var body: Body { get }
}

extension Never: Scene {}

/// documentation/swiftui/scenebuilder
@resultBuilder
public struct SceneBuilder {
    public static func buildBlock<Content: Scene>(_ content: Content) -> Content { fatalError() }
}

/// documentation/swiftui/windowgroup
public struct WindowGroup<Content: View>: Scene {
    public init(@ViewBuilder content: () -> Content) { fatalError() }
    public var body: Never { fatalError() }
}

/// documentation/swiftui/app: `@MainActor @preconcurrency protocol App`; `@main` calls its `main()`.
@MainActor @preconcurrency
public protocol App {
    associatedtype Body: Scene
    @SceneBuilder var body: Body { get }
    init()
}

extension App {
    public static func main() { fatalError() }
}

/// documentation/swiftui/uiviewrepresentable: `@MainActor @preconcurrency protocol UIViewRepresentable : View
/// where Self.Body == Never`.
@MainActor @preconcurrency
public protocol UIViewRepresentable: View where Body == Never {
    associatedtype UIViewType: UIView
    associatedtype Coordinator = Void
    typealias Context = UIViewRepresentableContext<Self>
    func makeUIView(context: Context) -> UIViewType
    func updateUIView(_ uiView: UIViewType, context: Context)
    static func dismantleUIView(_ uiView: UIViewType, coordinator: Coordinator)
    func makeCoordinator() -> Coordinator
}

extension UIViewRepresentable {
    public var body: Never { fatalError() }
    public static func dismantleUIView(_ uiView: UIViewType, coordinator: Coordinator) {}
}

extension UIViewRepresentable where Coordinator == Void {
    public func makeCoordinator() -> Coordinator { () }
}

/// documentation/swiftui/uiviewrepresentablecontext
@MainActor @preconcurrency
public struct UIViewRepresentableContext<Representable: UIViewRepresentable> {
    public let coordinator: Representable.Coordinator
}
