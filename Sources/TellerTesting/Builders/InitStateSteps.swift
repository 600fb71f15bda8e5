import Foundation
import Teller
@_spi(TellerInternals) import TellerRx

/// The steps `initState` and `initStateAsync` take for a `TellerRepository` and a
/// `TellerPagingRepository` alike; only writing the state differs (`write`).
enum InitStateSteps {
    /// Describes the state with `more`, at once on the calling thread.
    static func describe<FetchResult>(
        _ more: (inout RepositoryStateDsl<FetchResult>) -> Void
    ) -> RepositoryStateDsl<FetchResult> {
        var dsl = RepositoryStateDsl<FetchResult>()
        more(&dsl)
        return dsl
    }

    /// Writes the state on the calling thread; a save error is printed as a warning and
    /// returned in the result.
    ///
    /// - Parameters:
    ///   - cacheName: What the data source failed to save, for the warning ("cache", "first page").
    ///   - tag: The requirements' tag, for the warning.
    ///   - write: Writes the state.
    static func run(cacheName: String, tag: String, write: () -> InitStateResult) -> InitStateResult {
        let result = write()
        if let error = result.saveError {
            printWarning(
                "TellerTesting: initState could not save the \(cacheName) for \"\(tag)\": \(error). "
                    + "The repository was left with no cache."
            )
        }
        return result
    }

    /// A `Single` that writes the state on `scheduler` once subscribed, and fails with the save
    /// error, if any.
    ///
    /// - Parameters:
    ///   - scheduler: The repository's background scheduler.
    ///   - write: Writes the state. Unchecked: it holds the described cache (`Sendable`) and the
    ///     requirements, documented as immutable once set, as the repository itself assumes.
    static func runAsync(
        on scheduler: any ImmediateSchedulerType,
        write: UncheckedSendable<() -> InitStateResult>
    ) -> Single<InitStateResult> {
        Single<InitStateResult>.create { single in
            let result = write.value()
            if let error = result.saveError {
                single(.failure(error))
            } else {
                single(.success(result))
            }
            return Disposables.create()
        }
        .asObservable()
        .subscribe(on: scheduler)
        .asSingle()
    }
}
