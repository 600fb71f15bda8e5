import Dispatch
import Synchronization
import TellerRx

/// An observer for real-thread tests of multi-source operators. On entry to every event it
/// sets an atomic "inside" flag and counts an overlap if the flag was already set (another
/// event still being delivered). It also appends to a plain, unsynchronized array, so that
/// ThreadSanitizer reports a race if the operator ever lets two events overlap.
final class OverlapCheckingObserver<Element: Sendable>: ObserverType, @unchecked Sendable {
    // @unchecked: `received` and `terminal` are deliberately unsynchronized; the operator
    // under test must serialize calls to `on`.
    private let inside = Atomic<Bool>(false)
    private let overlapCount = Atomic<Int>(0)
    private let done = DispatchSemaphore(value: 0)
    private var received: [Element] = []
    private var terminal: Event<Element>?

    func on(_ event: Event<Element>) {
        if inside.exchange(true, ordering: .acquiringAndReleasing) {
            overlapCount.wrappingAdd(1, ordering: .relaxed)
        }
        // Widen the window in which an overlapping delivery would be caught (no sleeping).
        var spin = 0
        for step in 0..<64 { spin &+= step }
        switch event {
        case .next(let element):
            received.append(element)
        case .error, .completed:
            terminal = event
        }
        inside.store(false, ordering: .releasing)
        if event.isStopEvent || spin < 0 {
            done.signal()
        }
    }

    /// How many times an event arrived while another was being delivered.
    var overlaps: Int {
        overlapCount.load(ordering: .acquiring)
    }

    /// Waits (generously) for the terminal event; returns whether it came.
    func waitForTerminal(seconds: Int = 30) -> Bool {
        done.wait(timeout: .now() + .seconds(seconds)) == .success
    }

    /// The elements received; read only after delivery has finished.
    var elements: [Element] {
        received
    }

    /// The terminal event, if any; read only after delivery has finished.
    var terminalEvent: Event<Element>? {
        terminal
    }
}

/// Runs `body(i)` for `i` in `0..<count` on as many threads as Dispatch provides.
func concurrently(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    DispatchQueue.concurrentPerform(iterations: count, execute: body)
}
