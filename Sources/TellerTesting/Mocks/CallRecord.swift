import Teller
@_spi(TellerInternals) import TellerRx

/// Whether any member of one mock was used: every ``CallRecord`` of the mock marks it.
final class MockUse: Sendable {
    private let used = LockedState(false)

    init() {}

    var happened: Bool {
        used.withLock { $0 }
    }

    func mark() {
        used.withLock { $0 = true }
    }
}

/// One mocked member, as every mock in TellerTesting records it: the arguments of each call,
/// oldest first, and the closure that answers it. The mocks' public `…Called`, `…CallsCount`,
/// `…Invocations` and `…Closure` members read and write it.
///
/// Threads: any. The record has its own lock; ``call(_:)`` hands the closure out, and the caller
/// runs it outside the lock.
final class CallRecord<Arguments, Closure>: @unchecked Sendable {
    // @unchecked: `state` is only reached under its lock. Arguments are values the mocked member
    // received; Teller documents requirements as immutable once set.
    private struct State {
        var invocations: [Arguments] = []
        var closure: Closure?
    }

    private let state = LockedState(State())
    private let use: MockUse

    /// - Parameter use: The flag of the mock this member belongs to.
    init(_ use: MockUse) {
        self.use = use
    }

    /// Records a call with `arguments` and returns the closure to answer it, if set.
    func call(_ arguments: Arguments) -> Closure? {
        use.mark()
        return state.withLock { state in
            state.invocations.append(arguments)
            return state.closure
        }
    }

    /// Returns the closure without recording a call: a read the mock does not count.
    func peek() -> Closure? {
        use.mark()
        return state.withLock { $0.closure }
    }

    var invocations: [Arguments] {
        state.withLock { $0.invocations }
    }

    var callsCount: Int {
        state.withLock { $0.invocations.count }
    }

    var called: Bool {
        callsCount > 0
    }

    var closure: Closure? {
        get { state.withLock { $0.closure } }
        set { state.withLock { $0.closure = newValue } }
    }
}

/// A property a test scripts on a mock: each value set is recorded as a call, a read returns
/// the closure's answer or else the value last set (at first `initial`).
final class ScriptedValue<Value>: @unchecked Sendable {
    // @unchecked: as for ``CallRecord``, whose lock guards every value here.
    let record: CallRecord<Value, @Sendable () -> Value>
    private let initial: Value

    init(_ initial: Value, _ use: MockUse) {
        self.initial = initial
        record = CallRecord(use)
    }

    var value: Value {
        get {
            // Not a call: reads are answered, only sets are recorded.
            if let closure = record.peek() { return closure() }
            return record.invocations.last ?? initial
        }
        set {
            _ = record.call(newValue)
        }
    }
}
