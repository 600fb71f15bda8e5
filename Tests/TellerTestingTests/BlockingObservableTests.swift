import Dispatch
import Foundation
@_spi(TellerInternals) import TellerRx
import TellerTestSupport
import TellerTesting
import Testing

private struct BlockingError: Error, Equatable {}

/// Counts subscriptions and disposals of a source that sends `elements` from a background
/// queue and then, if `completes`, completes.
private final class BackgroundSource: Sendable {
    let elements: [Int]
    let completes: Bool
    let disposals = TestCounter()

    init(_ elements: [Int], completes: Bool = true) {
        self.elements = elements
        self.completes = completes
    }

    var observable: Observable<Int> {
        Observable.create { [self] observer in
            DispatchQueue.global().async {
                for element in self.elements { observer.onNext(element) }
                if self.completes { observer.onCompleted() }
            }
            return Disposables.create { self.disposals.increment() }
        }
    }
}

private final class TestCounter: Sendable {
    private let count = LockedState(0)

    var value: Int {
        count.value
    }

    func increment() {
        count.withLock { $0 += 1 }
    }
}

@Suite struct BlockingObservableTests {
    @Test func firstReturnsTheFirstElementAndDisposes() throws {
        let source = BackgroundSource([1, 2, 3], completes: false)
        #expect(try source.observable.toBlocking(timeout: 5).first() == 1)
        #expect(source.disposals.value == 1)
    }

    @Test func firstOfAnEmptySequenceIsNil() throws {
        #expect(try Observable<Int>.empty().toBlocking().first() == nil)
    }

    @Test func firstThrowsAnErrorThatComesFirst() {
        #expect(throws: BlockingError()) { try Observable<Int>.error(BlockingError()).toBlocking().first() }
    }

    @Test func lastWaitsForTheEnd() throws {
        #expect(try BackgroundSource([1, 2, 3]).observable.toBlocking(timeout: 5).last() == 3)
        #expect(try Observable<Int>.empty().toBlocking().last() == nil)
    }

    @Test func toArrayCollectsEverythingInOrder() throws {
        let elements = Array(0..<1000)
        #expect(try BackgroundSource(elements).observable.toBlocking(timeout: 5).toArray() == elements)
    }

    @Test func toArrayThrowsTheError() {
        let failing = Observable.of(1, 2).concatError(BlockingError())
        #expect(throws: BlockingError()) { try failing.toBlocking().toArray() }
    }

    @Test func singleReturnsTheOnlyElement() throws {
        #expect(try Observable.just(4).toBlocking().single() == 4)
        #expect(try Single.just(5).toBlocking().single() == 5)
    }

    @Test func singleOfAnEmptySequenceThrowsNoElements() {
        #expect(throws: RxError.noElements) { try Observable<Int>.empty().toBlocking().single() }
    }

    @Test func singleStopsAtTheSecondElement() {
        let source = BackgroundSource([1, 2], completes: false)
        #expect(throws: RxError.moreThanOneElement) { try source.observable.toBlocking(timeout: 5).single() }
        #expect(source.disposals.value == 1)
    }

    @Test func singleWithPredicateCountsOnlyMatches() throws {
        #expect(try Observable.of(1, 2, 3).toBlocking().single { $0 == 2 } == 2)
        #expect(throws: RxError.moreThanOneElement) { try Observable.of(1, 2, 3).toBlocking().single { $0 > 1 } }
        #expect(throws: RxError.noElements) { try Observable.of(1, 2, 3).toBlocking().single { $0 > 5 } }
        #expect(throws: BlockingError()) {
            try Observable.of(1, 2, 3).toBlocking().single { _ in throw BlockingError() }
        }
    }

    @Test func singleStopsCallingThePredicateOnceTheOutcomeIsDecided() {
        // A synchronous source keeps sending while `subscribe` runs; RxBlocking checks the
        // predicate only until the answer is known.
        let asked = Locked<[Int]>([])
        #expect(throws: RxError.moreThanOneElement) {
            try Observable.of(1, 2, 3, 4).toBlocking().single { element in
                asked.withLock { $0.append(element) }
                return element > 1
            }
        }
        #expect(asked.value == [1, 2, 3])

        let askedBeforeError = Locked<[Int]>([])
        #expect(throws: BlockingError()) {
            try Observable.of(1, 2, 3).toBlocking().single { element in
                askedBeforeError.withLock { $0.append(element) }
                throw BlockingError()
            }
        }
        #expect(askedBeforeError.value == [1])
    }
    @Test func materializeReportsCompletionWithTheElements() {
        guard case .completed(let elements) = Observable.of(1, 2).toBlocking().materialize() else {
            Issue.record("expected completion")
            return
        }
        #expect(elements == [1, 2])
    }

    @Test func materializeReportsFailureWithTheElementsBeforeIt() {
        let result = Observable.of(1, 2).concatError(BlockingError()).toBlocking().materialize()
        guard case .failed(let elements, let error) = result else {
            Issue.record("expected failure, got \(result)")
            return
        }
        #expect(elements == [1, 2])
        #expect(error as? BlockingError == BlockingError())
    }

    @Test func timeoutThrowsRxErrorTimeoutAndDisposes() {
        let source = BackgroundSource([], completes: false)
        #expect(throws: RxError.timeout) { try source.observable.toBlocking(timeout: 0.05).first() }
        #expect(source.disposals.value == 1)
    }

    @Test func timeoutInMaterializeKeepsTheElementsSoFar() {
        // The element arrives during subscribe, so however slow the machine, it is in before
        // the timeout; only the missing completion times out.
        let sendsOneAndHangs = Observable<Int>.create { observer in
            observer.onNext(7)
            return Disposables.create()
        }
        let result = sendsOneAndHangs.toBlocking(timeout: 0.2).materialize()
        guard case .failed(let elements, let error) = result else {
            Issue.record("expected failure, got \(result)")
            return
        }
        #expect(elements == [7])
        #expect(error as? RxError == .timeout)
    }

    @Test func blockingWorksForTraits() throws {
        #expect(try Maybe<Int>.empty().toBlocking().first() == nil)
        #expect(try Completable.empty().toBlocking().toArray().isEmpty)
    }

    @Test func manyConcurrentBlockingWaitsAllFinish() {
        let results = TestCounter()
        DispatchQueue.concurrentPerform(iterations: 8) { index in
            let value = try? BackgroundSource([index]).observable.toBlocking(timeout: 10).single()
            if value == index { results.increment() }
        }
        #expect(results.value == 8)
    }
}

extension ObservableType {
    /// The elements of this finite observable followed by `error`.
    fileprivate func concatError(_ error: any Error) -> Observable<Element> {
        let source = asObservable()
        return Observable.create { observer in
            source.subscribe(
                onNext: { observer.onNext($0) },
                onError: { observer.onError($0) },
                onCompleted: { observer.onError(error) }
            )
        }
    }
}
