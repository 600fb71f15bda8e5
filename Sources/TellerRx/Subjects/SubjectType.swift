/// An object that is both an observable sequence and an observer: events sent to it are
/// broadcast to its subscribers.
public protocol SubjectType<Element>: ObservableType {
    /// The observer type that sends into this subject.
    associatedtype Observer: ObserverType

    /// The observer that sends events into this subject.
    ///
    /// - Returns: An observer feeding this subject.
    func asObserver() -> Observer
}
