@_spi(TellerInternals) import TellerRx
import Testing

@Suite struct InfallibleValuesTests {
    @Test func forAwaitGetsEveryElementWithoutTry() async {
        var received: [Int] = []
        for await element in Infallible.of(1, 2, 3).values {
            received.append(element)
        }
        #expect(received == [1, 2, 3])
    }

    @Test func eachLoopSubscribesAgain() async {
        let subscriptions = Locked(0)
        let infallible = Infallible<Int>.deferred {
            subscriptions.increment()
            return .just(subscriptions.value)
        }
        var first: [Int] = []
        for await element in infallible.values { first.append(element) }
        var second: [Int] = []
        for await element in infallible.values { second.append(element) }
        #expect(first == [1])
        #expect(second == [2])
    }

    @Test func leavingTheLoopDisposesTheSubscription() async {
        let disposed = Locked(0)
        // Never completes: only leaving the loop can end the subscription.
        let infallible = Infallible<Int>.never().startWith(2).startWith(1).do(onDispose: { disposed.increment() })
        var found: Int?
        for await element in infallible.values where element == 2 {
            found = element
            break
        }
        #expect(found == 2)
        #expect(disposed.value == 1)
    }
}
