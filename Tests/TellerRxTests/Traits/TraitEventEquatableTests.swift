@_spi(TellerInternals) import TellerRx
import Testing

private struct Plain: Error, CustomStringConvertible {
    let description: String
}

@Suite struct TraitEventEquatableTests {
    @Test func maybeEventsCompareByKindElementAndError() {
        #expect(MaybeEvent.success(1) == .success(1))
        #expect(MaybeEvent.success(1) != .success(2))
        #expect(MaybeEvent<Int>.completed == .completed)
        #expect(MaybeEvent<Int>.completed != .success(1))
        #expect(MaybeEvent<Int>.error(TestError(1)) == .error(TestError(1)))
        #expect(MaybeEvent<Int>.error(TestError(1)) != .error(TestError(2)))
        #expect(MaybeEvent<Int>.error(TestError(1)) != .completed)
    }

    @Test func completableEventsCompareByKindAndError() {
        #expect(CompletableEvent.completed == .completed)
        #expect(CompletableEvent.error(TestError(1)) == .error(TestError(1)))
        #expect(CompletableEvent.error(TestError(1)) != .error(TestError(2)))
        #expect(CompletableEvent.error(TestError(1)) != .completed)
    }

    @Test func nonEquatableErrorsCompareByTypeAndDescription() {
        #expect(CompletableEvent.error(Plain(description: "a")) == .error(Plain(description: "a")))
        #expect(CompletableEvent.error(Plain(description: "a")) != .error(Plain(description: "b")))
        #expect(MaybeEvent<Int>.error(Plain(description: "a")) != .error(TestError(0)))
    }

    @Test func recordedTraitOutcomesCompareWithEquals() {
        let events = Locked<[MaybeEvent<Int>]>([])
        _ = Maybe.just(3).subscribe { event in events.withLock { $0.append(event) } }
        #expect(events.value == [.success(3)])
        let completions = Locked<[CompletableEvent]>([])
        _ = Completable.error(TestError(4)).subscribe { event in completions.withLock { $0.append(event) } }
        #expect(completions.value == [.error(TestError(4))])
    }
}
