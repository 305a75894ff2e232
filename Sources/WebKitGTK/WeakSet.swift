#if os(Linux)
/// A set of weak references, pruned as members go away.
struct WeakSet<Element: AnyObject> {
    private final class Box { weak var value: Element?; init(_ value: Element) { self.value = value } }
    private var boxes: [Box] = []
    mutating func insert(_ value: Element) {
        boxes.removeAll { $0.value == nil }
        if !boxes.contains(where: { $0.value === value }) { boxes.append(Box(value)) }
    }
    mutating func remove(_ value: Element) { boxes.removeAll { $0.value == nil || $0.value === value } }
    var first: Element? { boxes.lazy.compactMap(\.value).first }
}
#endif
