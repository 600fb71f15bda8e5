import Dispatch
@_spi(TellerInternals) import TellerRx
import Testing

@Suite struct PrimitiveSequenceValueTests {
    @Test func singleValueReturnsTheElement() async throws {
        #expect(try await Single.just(1).value == 1)
    }

    @Test func singleValueThrowsTheError() async {
        await #expect(throws: TestError(1)) { try await Single<Int>.error(TestError(1)).value }
    }

    @Test func singleValueWaitsForAnotherThread() async throws {
        let single = Single<Int>.create { observer in
            DispatchQueue.global().async { observer(.success(9)) }
            return Disposables.create()
        }
        #expect(try await single.value == 9)
    }

    @Test func asSingleOfAnEmptyObservableThrowsNoElements() async {
        await #expect(throws: RxError.noElements) { try await Observable<Int>.empty().asSingle().value }
    }

    @Test func maybeValueIsTheElementOrNil() async throws {
        #expect(try await Maybe.just(2).value == 2)
        #expect(try await Maybe<Int>.empty().value == nil)
        await #expect(throws: TestError(2)) { try await Maybe<Int>.error(TestError(2)).value }
    }

    @Test func completableValueReturnsOnCompletion() async throws {
        try await Completable.empty().value
        await #expect(throws: TestError(3)) { try await Completable.error(TestError(3)).value }
    }

    @Test func cancellingTheAwaitingTaskDisposesTheSubscription() async throws {
        let probe = DisposalProbe<Int>()
        let subscribed = AsyncSignal()
        let source = Observable<Int>.create { observer in
            defer { subscribed.signal() }
            return probe.observable.subscribe(observer)
        }
        let waiter = Task { try await source.asSingle().value }
        await subscribed.wait()
        #expect(probe.disposeCount.value == 0)
        waiter.cancel()
        await #expect(throws: CancellationError.self) { try await waiter.value }
        #expect(probe.disposeCount.value == 1)
    }

    @Test func awaitingInACancelledTaskSubscribesThenDisposesAndThrowsCancellation() async {
        // As in RxSwift: the subscription is made, and disposed at once when no outcome came.
        let probe = DisposalProbe<Int>()
        let waiter = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await probe.observable.asMaybe().value
        }
        await #expect(throws: CancellationError.self) { try await waiter.value }
        #expect(probe.subscribeCount.value == 1)
        #expect(probe.disposeCount.value == 1)
    }

    @Test func awaitingInACancelledTaskReturnsAnOutcomeSentWhileSubscribing() async throws {
        // RxSwift's testMaybeNotThrowingCancellationWhenCompleted and
        // testCompletableNotThrowingCancellation: a source that answers synchronously wins.
        let outcomes = Task { () -> [String] in
            withUnsafeCurrentTask { $0?.cancel() }
            var outcomes: [String] = []
            outcomes.append("maybe empty: \(String(describing: try await Maybe<Int>.empty().value))")
            outcomes.append("maybe just: \(String(describing: try await Maybe.just(3).value))")
            try await Completable.empty().value
            outcomes.append("completable: completed")
            outcomes.append("single: \(try await Single.just(5).value)")
            do {
                _ = try await Maybe<Int>.error(TestError(4)).value
            } catch {
                outcomes.append("maybe error: \(error)")
            }
            return outcomes
        }
        #expect(
            try await outcomes.value == [
                "maybe empty: nil", "maybe just: Optional(3)", "completable: completed", "single: 5",
                "maybe error: \(TestError(4))",
            ]
        )
    }

    @Test func completableCancellationDisposesToo() async {
        let probe = DisposalProbe<Never>()
        let subscribed = AsyncSignal()
        let source = Observable<Never>.create { observer in
            defer { subscribed.signal() }
            return probe.observable.subscribe(observer)
        }
        let waiter = Task { try await source.asCompletable().value }
        await subscribed.wait()
        waiter.cancel()
        await #expect(throws: CancellationError.self) { try await waiter.value }
        #expect(probe.disposeCount.value == 1)
    }

    @Test func valueDisposesTheSourceOnceTheElementArrives() async throws {
        let disposed = Locked(0)
        let maybe = Maybe<Int>.create { observer in
            observer(.success(4))
            return Disposables.create { disposed.increment() }
        }
        #expect(try await maybe.value == 4)
        #expect(disposed.value == 1)
    }
}
