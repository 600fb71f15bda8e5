/// An observer that applies each element to a target object on a scheduler, and holds the
/// target weakly: the usual end of a `bind(to:)` chain into UI or other state.
///
/// Elements are applied with `binding` on `scheduler` (``MainScheduler/instance`` by default),
/// skipped once the target has been deallocated. A binding is not expected to fail: an error
/// is reported on standard error in debug builds and otherwise ignored; completion is ignored.
///
/// ```swift
/// let title = Binder(label) { label, text in label.text = text }
/// viewModel.title.bind(to: title).disposed(by: disposeBag)
/// ```
public struct Binder<Value: Sendable>: ObserverType, Sendable {
    /// The type of element this binder receives.
    public typealias Element = Value

    private let binding: @Sendable (Event<Value>) -> Void

    /// Creates a binder that applies each element to `target` with `binding`, on `scheduler`.
    ///
    /// - Parameters:
    ///   - target: The object the elements are applied to; held weakly.
    ///   - scheduler: Where `binding` runs; the main scheduler by default.
    ///   - binding: Applies one element to the target.
    public init<Target: AnyObject & Sendable>(
        _ target: Target,
        scheduler: any ImmediateSchedulerType = MainScheduler.instance,
        binding: @escaping @Sendable (Target, Value) -> Void
    ) {
        weak let weakTarget = target
        self.binding = { event in
            switch event {
            case .next(let element):
                _ = scheduler.schedule(element) { element in
                    if let target = weakTarget {
                        binding(target, element)
                    }
                    return Disposables.create()
                }
            case .error(let error):
                reportMisuse("Binding error: \(error)")
            case .completed:
                break
            }
        }
    }

    /// Applies a `next` element to the target on the binder's scheduler; reports an error in
    /// debug builds; ignores completion.
    ///
    /// - Parameter event: The event to handle.
    public func on(_ event: Event<Value>) {
        binding(event)
    }

    /// This binder as a type-erased observer.
    ///
    /// - Returns: An observer that forwards to this binder.
    public func asObserver() -> AnyObserver<Value> {
        AnyObserver(eventHandler: on)
    }
}
