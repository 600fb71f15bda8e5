@_spi(TellerInternals) import TellerRx
import TellerTesting
import Testing

/// `bind(to:)` on an infallible: to observers (of the element or of optionals), to each kind of
/// relay, and `bind(onNext:)`.
@Suite struct InfallibleBindTests {
    private static let source = Infallible.from([1, 2, 3])

    @Test func bindingToObserversSendsEveryElementAndTheCompletionToEachInOrder() {
        let scheduler = TestScheduler(initialClock: 0)
        let first = scheduler.createObserver(Int.self)
        let second = scheduler.createObserver(Int?.self)
        _ = Self.source.bind(to: first, first)
        _ = Self.source.bind(to: second)
        #expect(
            first.events == [
                .next(0, 1), .next(0, 1), .next(0, 2), .next(0, 2), .next(0, 3), .next(0, 3), .completed(0),
                .completed(0),
            ]
        )
        #expect(second.events == [.next(0, 1), .next(0, 2), .next(0, 3), .completed(0)])
    }

    @Test func bindingToRelaysAcceptsEveryElement() {
        let publish = PublishRelay<Int>()
        let optionalPublish = PublishRelay<Int?>()
        let received = Locked<[String]>([])
        _ = publish.subscribe(onNext: { value in received.withLock { $0.append("publish \(value)") } })
        _ = optionalPublish.subscribe(onNext: { value in
            received.withLock { $0.append("optional \(String(describing: value))") }
        })
        _ = Self.source.bind(to: publish)
        _ = Self.source.take(1).bind(to: optionalPublish)
        let behavior = BehaviorRelay(value: 0)
        let optionalBehavior = BehaviorRelay<Int?>(value: nil)
        _ = Self.source.bind(to: behavior)
        _ = Self.source.bind(to: optionalBehavior)
        let replay = ReplayRelay<Int>.create(bufferSize: 3)
        let optionalReplay = ReplayRelay<Int?>.create(bufferSize: 1)
        _ = Self.source.bind(to: replay)
        _ = Self.source.bind(to: optionalReplay)
        let replayed = Locked<[Int]>([])
        _ = replay.subscribe(onNext: { replayed.append($0) })
        let replayedOptional = Locked<[Int?]>([])
        _ = optionalReplay.subscribe(onNext: { value in replayedOptional.withLock { $0.append(value) } })
        #expect(received.value == ["publish 1", "publish 2", "publish 3", "optional Optional(1)"])
        #expect(behavior.value == 3)
        #expect(optionalBehavior.value == 3)
        #expect(replayed.value == [1, 2, 3])
        #expect(replayedOptional.value == [3])
    }

    @Test func bindingOnNextCallsItForEveryElement() {
        let received = Locked<[Int]>([])
        _ = Self.source.bind(onNext: { received.append($0) })
        #expect(received.value == [1, 2, 3])
    }
}
