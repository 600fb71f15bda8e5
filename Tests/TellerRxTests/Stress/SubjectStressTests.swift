import Dispatch
import Synchronization
@_spi(TellerInternals) import TellerRx
import Testing

/// Many threads emitting, subscribing and disposing at once on every kind of subject, checking
/// invariants only (never timings):
/// - no observer ever sees two events at once (the recorder's "inside on" flag);
/// - every observer's sequence is a contiguous run of the one order the subject accepted
///   events in (read from a witness subscribed for the whole test), so no observer sees an
///   event twice, out of order, or with a gap — replayed and current values included;
/// - nothing follows a terminal event, and at most one terminal event arrives;
/// - nothing reaches an observer on the thread that disposed it after `dispose()` returned.
@Suite struct SubjectStressTests {
    private static let threads = 4

    @Test(arguments: StressedSubject.allCases)
    func concurrentEmittersAreSerializedIntoOneOrderSeenByAll(kind: StressedSubject) {
        let subject = kind.make()
        let perThread = 1500
        let recorders = (0..<3).map { _ in EventRecorder<Int>() }
        for recorder in recorders { _ = subject.subscribe(recorder) }
        DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
            for index in 0..<perThread { subject.emit(thread * perThread + index) }
        }
        subject.end?(.completed)

        let reference = recorders[0].events
        for recorder in recorders {
            #expect(recorder.overlaps == 0)
            #expect(recorder.events == reference)
        }
        if kind.isAsync {
            #expect(reference.count == 2)
            #expect(reference.last == .completed)
            return
        }
        let emitted = reference.compactMap(\.element).filter { $0 >= 0 }
        #expect(emitted.count == Self.threads * perThread)
        for thread in 0..<Self.threads {
            let own = emitted.filter { $0 / perThread == thread }
            #expect(own == Array(thread * perThread..<(thread + 1) * perThread))
        }
    }

    @Test(arguments: StressedSubject.allCases)
    func subscribersComingAndGoingWhileOneThreadEmitsSeeIncreasingRuns(kind: StressedSubject) {
        let subject = kind.make()
        let witness = EventRecorder<Int>()
        _ = subject.subscribe(witness)
        let all = Locked<[EventRecorder<Int>]>([])
        DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
            if thread == 0 {
                for value in 0..<4000 { subject.emit(value) }
                subject.end?(.completed)
                return
            }
            for round in 0..<100 {
                let recorder = EventRecorder<Int>()
                let subscription = subject.subscribe(recorder)
                if round % 3 != 0 { _ = recorder.events.count }  // let a few events through
                recorder.dispose(subscription)
                all.withLock { $0.append(recorder) }
            }
        }
        checkAgainstWitness(kind: kind, witness: witness, recorders: all.value)
    }

    @Test(arguments: StressedSubject.allCases)
    func everyThreadEmitsSubscribesAndDisposesAndAllSequencesAgree(kind: StressedSubject) {
        let subject = kind.make()
        let witness = EventRecorder<Int>()
        _ = subject.subscribe(witness)
        let counter = Atomic<Int>(0)
        let all = Locked<[EventRecorder<Int>]>([])
        DispatchQueue.concurrentPerform(iterations: Self.threads) { _ in
            for _ in 0..<150 {
                let recorder = EventRecorder<Int>()
                let subscription = subject.subscribe(recorder)
                for _ in 0..<3 { subject.emit(counter.wrappingAdd(1, ordering: .relaxed).oldValue) }
                recorder.dispose(subscription)
                // This thread may now deliver everyone's events: never to `recorder` again.
                for _ in 0..<3 { subject.emit(counter.wrappingAdd(1, ordering: .relaxed).oldValue) }
                all.withLock { $0.append(recorder) }
            }
        }
        subject.end?(.completed)
        checkAgainstWitness(kind: kind, witness: witness, recorders: all.value)
    }

    @Test(arguments: StressedSubject.allCases.filter(\.canEnd))
    func terminalEventRacingWithEmissionsEndsEveryoneCleanly(kind: StressedSubject) {
        let subject = kind.make()
        let witness = EventRecorder<Int>()
        _ = subject.subscribe(witness)
        let counter = Atomic<Int>(0)
        let all = Locked<[EventRecorder<Int>]>([])
        DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
            for round in 0..<200 {
                if thread == 1 && round == 100 { subject.end?(.error(TestError(thread))) }
                let recorder = EventRecorder<Int>()
                _ = subject.subscribe(recorder)
                subject.emit(counter.wrappingAdd(1, ordering: .relaxed).oldValue)
                if thread == 2 && round == 120 { subject.end?(.completed) }
                all.withLock { $0.append(recorder) }
            }
        }
        let recorders = all.value
        checkAgainstWitness(kind: kind, witness: witness, recorders: recorders)
        // Everyone who subscribed got exactly the one terminal event the witness got.
        let terminal = witness.events.last
        #expect(terminal?.isStopEvent == true)
        for recorder in recorders {
            #expect(recorder.events.last == terminal)
        }
    }

    @Test(arguments: StressedSubject.allCases.filter(\.canDispose))
    func disposingTheSubjectWhileOthersEmitAndSubscribeIsSafe(kind: StressedSubject) {
        let subject = kind.make()
        let witness = EventRecorder<Int>()
        _ = subject.subscribe(witness)
        let counter = Atomic<Int>(0)
        let all = Locked<[EventRecorder<Int>]>([])
        DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
            for round in 0..<200 {
                if thread == 1 && round == 80 { subject.dispose?() }
                let recorder = EventRecorder<Int>()
                let subscription = subject.subscribe(recorder)
                subject.emit(counter.wrappingAdd(1, ordering: .relaxed).oldValue)
                if round % 2 == 0 { recorder.dispose(subscription) }
                all.withLock { $0.append(recorder) }
            }
        }
        let recorders = all.value
        checkAgainstWitness(kind: kind, witness: witness, recorders: recorders)
        let late = EventRecorder<Int>()
        _ = subject.subscribe(late)
        #expect(late.events.count == 1)
        #expect(late.events.first?.error != nil)
    }

    /// Checks every recorder against the witness, which saw everything the subject accepted.
    private func checkAgainstWitness(
        kind: StressedSubject,
        witness: EventRecorder<Int>,
        recorders: [EventRecorder<Int>]
    ) {
        let witnessEvents = witness.events
        #expect(witness.overlaps == 0)
        #expect(isWellFormed(witnessEvents))
        if kind.isAsync {
            // One outcome (last element and completed, or the error), the same for everyone
            // who got anything.
            #expect(witnessEvents.last?.isStopEvent == true)
            #expect(witnessEvents.count <= 2)
            for recorder in recorders {
                #expect(recorder.overlaps == 0)
                #expect(recorder.events.isEmpty || recorder.events == witnessEvents)
                #expect(recorder.deliveredAfterDispose == 0)
            }
            return
        }
        var position: [Int: Int] = [:]
        for (index, element) in witnessEvents.compactMap(\.element).enumerated() {
            #expect(position.updateValue(index, forKey: element) == nil, "element \(element) seen twice")
        }
        for recorder in recorders {
            let events = recorder.events
            #expect(recorder.overlaps == 0)
            #expect(recorder.deliveredAfterDispose == 0)
            #expect(isWellFormed(events))
            var previous: Int?
            for element in events.compactMap(\.element) {
                guard let index = position[element] else {
                    Issue.record("\(kind): element \(element) never accepted")
                    break
                }
                if let previous, index != previous + 1 {
                    Issue.record("\(kind): a recorder skipped or reordered around \(element)")
                    break
                }
                previous = index
            }
        }
    }

    /// `next* (error | completed)?`
    private func isWellFormed(_ events: [Event<Int>]) -> Bool {
        guard let stop = events.firstIndex(where: \.isStopEvent) else { return true }
        return stop == events.count - 1
    }
}

/// The subject kinds under stress, behind one interface.
enum StressedSubject: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case publish, behavior, replayOne, replayFive, replayUnbounded, async, publishRelay, behaviorRelay, replayRelay

    var testDescription: String { rawValue }

    var isAsync: Bool { self == .async }

    /// Whether the kind can end (relays can't).
    var canEnd: Bool {
        switch self {
        case .publishRelay, .behaviorRelay, .replayRelay: false
        default: true
        }
    }

    /// Whether the kind can be disposed.
    var canDispose: Bool {
        switch self {
        case .publish, .behavior, .replayOne, .replayFive, .replayUnbounded: true
        default: false
        }
    }

    func make() -> StressHandle {
        switch self {
        case .publish: StressHandle(subject: PublishSubject<Int>(), dispose: { $0.dispose() })
        case .behavior: StressHandle(subject: BehaviorSubject(value: -1), dispose: { $0.dispose() })
        case .replayOne: StressHandle(subject: ReplaySubject<Int>.create(bufferSize: 1), dispose: { $0.dispose() })
        case .replayFive: StressHandle(subject: ReplaySubject<Int>.create(bufferSize: 5), dispose: { $0.dispose() })
        case .replayUnbounded: StressHandle(subject: ReplaySubject<Int>.createUnbounded(), dispose: { $0.dispose() })
        case .async: StressHandle(subject: AsyncSubject<Int>(), dispose: nil)
        case .publishRelay: StressHandle(relay: PublishRelay<Int>(), accept: { $0.accept($1) })
        case .behaviorRelay: StressHandle(relay: BehaviorRelay(value: -1), accept: { $0.accept($1) })
        case .replayRelay: StressHandle(relay: ReplayRelay<Int>.create(bufferSize: 3), accept: { $0.accept($1) })
        }
    }
}

/// One subject (or relay) under stress.
struct StressHandle: Sendable {
    let emit: @Sendable (Int) -> Void
    let subscribe: @Sendable (EventRecorder<Int>) -> any Disposable
    let end: (@Sendable (Event<Int>) -> Void)?
    let dispose: (@Sendable () -> Void)?

    init<Subject: SubjectType & ObserverType & Sendable>(
        subject: Subject,
        dispose: (@Sendable (Subject) -> Void)?
    ) where Subject.Element == Int {
        emit = { subject.onNext($0) }
        subscribe = { subject.subscribe($0) }
        end = { subject.on($0) }
        if let dispose {
            self.dispose = { dispose(subject) }
        } else {
            self.dispose = nil
        }
    }

    init<Relay: ObservableType & Sendable>(relay: Relay, accept: @escaping @Sendable (Relay, Int) -> Void)
    where Relay.Element == Int {
        emit = { accept(relay, $0) }
        subscribe = { relay.subscribe($0) }
        end = nil
        dispose = nil
    }
}
