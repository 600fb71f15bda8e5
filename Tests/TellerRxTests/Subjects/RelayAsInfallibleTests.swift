@_spi(TellerInternals) import TellerRx
import Testing

/// `asInfallible()` without arguments on each relay: the relay's elements, as an infallible.
@Suite struct RelayAsInfallibleTests {
    @Test func aBehaviorRelayAsInfallibleSendsTheCurrentValueThenEachAcceptedOne() {
        let relay = BehaviorRelay(value: 1)
        let received = Locked<[Int]>([])
        let subscription = relay.asInfallible().subscribe(onNext: { received.append($0) })
        relay.accept(2)
        subscription.dispose()
        relay.accept(3)
        #expect(received.value == [1, 2])
    }

    @Test func aPublishRelayAsInfallibleSendsEachAcceptedValue() {
        let relay = PublishRelay<Int>()
        let received = Locked<[Int]>([])
        relay.accept(0)
        let subscription = relay.asInfallible().subscribe(onNext: { received.append($0) })
        relay.accept(1)
        relay.accept(2)
        subscription.dispose()
        #expect(received.value == [1, 2])
    }

    @Test func aReplayRelayAsInfallibleReplaysItsBufferThenSendsEachAcceptedValue() {
        let relay = ReplayRelay<Int>.create(bufferSize: 2)
        let received = Locked<[Int]>([])
        relay.accept(1)
        relay.accept(2)
        relay.accept(3)
        let subscription = relay.asInfallible().subscribe(onNext: { received.append($0) })
        relay.accept(4)
        subscription.dispose()
        #expect(received.value == [2, 3, 4])
    }
}
