// Equality of the trait events, like `Event`'s, in TellerRx itself (RxSwift adds it in RxTest),
// so tests can compare recorded outcomes with `==`. `SingleEvent` is a `Result` whose failure
// is `any Error`, which cannot be `Equatable`; TellerTesting compares arrays of it instead.

extension MaybeEvent: Equatable where Element: Equatable {
    /// Maybe events are equal when they are the same kind with equal elements. Two errors are
    /// equal when they are equal as `Equatable` values of the same type, or else when their
    /// types and descriptions match (so tests can compare errors that are not `Equatable`).
    public static func == (lhs: MaybeEvent, rhs: MaybeEvent) -> Bool {
        switch (lhs, rhs) {
        case (.success(let left), .success(let right)): left == right
        case (.completed, .completed): true
        case (.error(let left), .error(let right)): errorsAreEqual(left, right)
        default: false
        }
    }
}

extension CompletableEvent: Equatable {
    /// Completable events are equal when they are both `completed`, or both errors that are
    /// equal as `Equatable` values of the same type, or else have the same type and description.
    public static func == (lhs: CompletableEvent, rhs: CompletableEvent) -> Bool {
        switch (lhs, rhs) {
        case (.completed, .completed): true
        case (.error(let left), .error(let right)): errorsAreEqual(left, right)
        default: false
        }
    }
}

/// Whether two single outcomes are equal, with `Event`'s rules for errors: both succeeded with
/// equal elements, or both failed with equal errors. `package`: TellerTesting compares with it.
package func singleEventsAreEqual<Element: Equatable>(_ lhs: SingleEvent<Element>, _ rhs: SingleEvent<Element>) -> Bool
{
    switch (lhs, rhs) {
    case (.success(let left), .success(let right)): left == right
    case (.failure(let left), .failure(let right)): errorsAreEqual(left, right)
    default: false
    }
}
