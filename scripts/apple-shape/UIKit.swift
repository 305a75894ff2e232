// Declaration-only `UIKit`: the few UIKit declarations the Apple-shape check needs (WKWebView is a UIView on
// iOS). Follows UIView.h / UIResponder.h (developer.apple.com/documentation/uikit/uiview); never run.

@_exported import Foundation

/// UIResponder.h: `UIKIT_EXTERN API_AVAILABLE(ios(2.0)) NS_SWIFT_UI_ACTOR @interface UIResponder : NSObject`.
@MainActor
open class UIResponder: NSObject {}

/// UIView.h: `NS_SWIFT_UI_ACTOR @interface UIView : UIResponder`.
@MainActor
open class UIView: UIResponder {
    public init(frame: CGRect) { fatalError() }
    open var frame: CGRect {
        get { fatalError() }
        set { fatalError() }
    }
    open var isHidden: Bool {
        get { fatalError() }
        set { fatalError() }
    }
}
