@_spi(TellerInternals) import TellerRx
import Testing

@Suite struct AsyncFactoryTests {
    @Test func singleCreateSucceedsWithTheResult() async throws {
        let single = Single<Int>.create { 42 }
        #expect(try await single.value == 42)
    }

    @Test func singleCreateFailsWithTheThrownError() async {
        let single = Single<Int>.create { () async throws -> Int in throw TestError(1) }
        await #expect(throws: TestError(1)) { try await single.value }
    }

    @Test func singleFromIsTheRxSwiftSpelling() async throws {
        #expect(try await Single<Int>.from { try await Single.just(5).value }.value == 5)
    }

    @Test func workRunsOncePerSubscription() async throws {
        let runs = Locked(0)
        let single = Single<Int>.create(priority: .userInitiated) {
            runs.increment()
            return 1
        }
        _ = try await single.value
        _ = try await single.value
        #expect(runs.value == 2)
    }

    @Test func disposingTheSubscriptionCancelsTheTask() async {
        let started = AsyncSignal()
        let ended = AsyncSignal()
        let sawCancellation = Locked(false)
        let delivered = Locked(0)
        let single = Single<Int>.create {
            started.signal()
            try? await Task.sleep(for: .seconds(3600))
            sawCancellation.withLock { $0 = Task.isCancelled }
            ended.signal()
            return 1
        }
        let subscription = single.subscribe(onSuccess: { _ in delivered.increment() })
        await started.wait()
        subscription.dispose()
        await ended.wait()
        #expect(sawCancellation.value)
        #expect(delivered.value == 0)
    }

    @Test func maybeCreateMapsNilToCompleted() async throws {
        #expect(try await Maybe<Int>.create { 3 }.value == 3)
        #expect(try await Maybe<Int>.create { nil }.value == nil)
        await #expect(throws: TestError(2)) {
            try await Maybe<Int>.create { () async throws -> Int? in throw TestError(2) }.value
        }
    }

    @Test func maybeFromAcceptsANilBlock() async throws {
        #expect(try await Maybe<Int>.from(nil).value == nil)
        #expect(try await Maybe<Int>.from { 8 }.value == 8)
    }

    @Test func completableCreateCompletesOrFails() async throws {
        let ran = Locked(false)
        try await Completable.create { ran.withLock { $0 = true } }.value
        #expect(ran.value)
        await #expect(throws: TestError(3)) { try await Completable.from { throw TestError(3) }.value }
    }

    @Test func disposingACompletableCancelsItsTask() async {
        let started = AsyncSignal()
        let ended = AsyncSignal()
        let sawCancellation = Locked(false)
        let subscription = Completable.create {
            started.signal()
            try? await Task.sleep(for: .seconds(3600))
            sawCancellation.withLock { $0 = Task.isCancelled }
            ended.signal()
        }
        .subscribe()
        await started.wait()
        subscription.dispose()
        await ended.wait()
        #expect(sawCancellation.value)
    }

    @Test func closureCreateIsStillChosenForOneParameterClosures() {
        let log = TraitEventLog()
        _ = Single<Int>.create { single in
            single(.success(1))
            return Disposables.create()
        }
        .subscribe { log.record($0) }
        _ = Completable.create { completable in
            completable(.completed)
            return Disposables.create()
        }
        .subscribe { log.record($0) }
        #expect(log.events == ["success(1)", "completed"])
    }
}
