import Foundation

/// The namespace for reactive extensions of a type: `base.rx.something`.
///
/// Add your own with `extension Reactive where Base: MyType { … }`; types get the `rx`
/// property by conforming to ``ReactiveCompatible`` (every `NSObject` does). For a class that
/// is `Sendable`, any writable property is also a ``Binder`` through dynamic member lookup:
///
/// ```swift
/// final class Counter: ReactiveCompatible, @unchecked Sendable { var value = 0 }
/// Observable.of(1, 2, 3).bind(to: counter.rx.value)   // sets `value` on the main thread
/// ```
@dynamicMemberLookup
public struct Reactive<Base> {
    /// The extended value.
    public let base: Base

    /// Creates the extension namespace for `base`.
    ///
    /// - Parameter base: The value to extend.
    public init(_ base: Base) {
        self.base = base
    }

    /// A binder that sets the property at `keyPath` of ``base``, on the main scheduler, while
    /// `base` is alive (it is held weakly).
    ///
    /// - Parameter keyPath: The writable property to set.
    /// - Returns: A binder for the property.
    public subscript<Property: Sendable>(
        dynamicMember keyPath: any ReferenceWritableKeyPath<Base, Property> & Sendable
    ) -> Binder<Property> where Base: AnyObject & Sendable {
        Binder(base) { base, value in
            base[keyPath: keyPath] = value
        }
    }
}

extension Reactive: Sendable where Base: Sendable {}

/// A type with reactive extensions: gives it the `rx` property (and `rx` on the type), the entry
/// point to ``Reactive``'s extensions for it.
public protocol ReactiveCompatible {
    /// The type being extended.
    associatedtype ReactiveBase

    /// The reactive extensions of the type.
    static var rx: Reactive<ReactiveBase>.Type { get set }

    /// The reactive extensions of this value.
    var rx: Reactive<ReactiveBase> { get set }
}

extension ReactiveCompatible {
    /// The reactive extensions of the type.
    public static var rx: Reactive<Self>.Type {
        get { Reactive<Self>.self }
        // Settable so `rx` can be used on mutable receivers, as in RxSwift; setting does nothing.
        set {}
    }

    /// The reactive extensions of this value.
    public var rx: Reactive<Self> {
        get { Reactive(self) }
        // Settable so `rx` can be used on mutable receivers, as in RxSwift; setting does nothing.
        set {}
    }
}

extension NSObject: ReactiveCompatible {}
