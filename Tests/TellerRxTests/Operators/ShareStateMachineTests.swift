import Testing

@testable import TellerRx

/// The share state machine and its connection link, driven step by step without threads.
@Suite struct ShareStateMachineTests {
    private typealias Machine = ShareStateMachine<Int>

    private func subscriber() -> ShareSubscriber<Int> {
        ObserverShareSubscriber(observer: AnyObserver<Int> { _ in }) { _ in }
    }

    private func isConnect(_ action: ConnectionLink.Action?, session: UInt64) -> Bool {
        if case .connect(let wanted) = action { return wanted == session }
        return false
    }

    private func isDisconnect(_ action: ConnectionLink.Action?) -> Bool {
        if case .disconnect = action { return true }
        return false
    }

    @Test func firstSubscriberAsksForAConnectionAndLaterOnesDoNot() {
        var machine = Machine(replay: 0, forever: false)
        #expect(isConnect(machine.subscribe(subscriber()).link, session: 0))
        #expect(machine.subscribe(subscriber()).link == nil)
        #expect(machine.subscriberCount == 2)
    }

    @Test func lastSubscriberLeavingDisconnectsOnlyAfterTheConnectionIsRecorded() {
        var machine = Machine(replay: 0, forever: false)
        let only = subscriber()
        _ = machine.subscribe(only)
        // Still connecting: the connecting thread disconnects when it reports back.
        #expect(machine.unsubscribe(only) == nil)
        #expect(isDisconnect(machine.didConnect(session: 0, subscription: Disposables.create())))
        #expect(machine.didDisconnect() == nil)
        #expect(machine.isConnected == false)
    }

    @Test func subscriberArrivingDuringADisconnectIsConnectedByTheDisconnectingThread() {
        var machine = Machine(replay: 0, forever: false)
        let first = subscriber()
        _ = machine.subscribe(first)
        _ = machine.didConnect(session: 0, subscription: Disposables.create())
        #expect(isDisconnect(machine.unsubscribe(first)))
        // Disconnecting is in flight: the new subscriber must not connect a second time.
        #expect(machine.subscribe(subscriber()).link == nil)
        #expect(isConnect(machine.didDisconnect(), session: 1))
    }

    @Test func eventsFromAnEndedSessionAreDropped() {
        var machine = Machine(replay: 1, forever: true)
        let first = subscriber()
        _ = machine.subscribe(first)
        _ = machine.didConnect(session: 0, subscription: Disposables.create())
        #expect(machine.receive(.next(1), from: 0).delivery != nil)
        _ = machine.nextDelivery()
        _ = machine.unsubscribe(first)
        _ = machine.didDisconnect()
        // A late element from the old connection neither reaches the buffer nor anyone.
        #expect(machine.receive(.next(2), from: 0).delivery == nil)
        guard case .replay(let elements, nil, _) = machine.subscribe(subscriber()).delivery else {
            Issue.record("expected a replay")
            return
        }
        #expect(elements == [1])
    }

    @Test func deliveriesAcceptedWhileDeliveringAreQueuedInOrder() {
        var machine = Machine(replay: 2, forever: false)
        let first = subscriber()
        _ = machine.subscribe(first)
        _ = machine.didConnect(session: 0, subscription: Disposables.create())
        guard case .broadcast(.next(1), let receivers)? = machine.receive(.next(1), from: 0).delivery else {
            Issue.record("expected to deliver 1 now")
            return
        }
        #expect(receivers.count == 1)
        // While 1 is being delivered: a new subscriber and another element queue up behind it.
        let late = subscriber()
        #expect(machine.subscribe(late).delivery == nil)
        #expect(machine.receive(.next(2), from: 0).delivery == nil)
        guard case .replay([1], nil, let replayedTo)? = machine.nextDelivery() else {
            Issue.record("expected the replay next")
            return
        }
        #expect(replayedTo === late)
        guard case .broadcast(.next(2), let receiversOf2)? = machine.nextDelivery() else {
            Issue.record("expected 2 next")
            return
        }
        #expect(receiversOf2.count == 2)
        #expect(machine.nextDelivery() == nil)
    }

    @Test func foreverKeepsTheTerminalEventAndNeverConnectsAgain() {
        var machine = Machine(replay: 1, forever: true)
        _ = machine.subscribe(subscriber())
        _ = machine.didConnect(session: 0, subscription: Disposables.create())
        _ = machine.receive(.next(7), from: 0)
        _ = machine.nextDelivery()
        let ended = machine.receive(.completed, from: 0)
        #expect(isDisconnect(ended.link))
        _ = machine.nextDelivery()
        _ = machine.didDisconnect()
        let late = machine.subscribe(subscriber())
        #expect(late.link == nil)
        guard case .replay([7], .completed?, _)? = late.delivery else {
            Issue.record("expected the buffer and completion")
            return
        }
        #expect(machine.subscriberCount == 0)
    }

    @Test func whileConnectedForgetsTheBufferWhenTheSessionEnds() {
        var machine = Machine(replay: 3, forever: false)
        let first = subscriber()
        _ = machine.subscribe(first)
        _ = machine.didConnect(session: 0, subscription: Disposables.create())
        _ = machine.receive(.next(1), from: 0)
        _ = machine.nextDelivery()
        _ = machine.receive(.error(TestError(1)), from: 0)
        _ = machine.nextDelivery()
        let again = machine.subscribe(subscriber())
        #expect(again.delivery == nil)
        #expect(machine.session == 1)
    }
}
