import Foundation
import Synchronization
@_spi(TellerInternals) import TellerRx

/// An observer that checks the Rx contract as events arrive: `next* (error | completed)?`,
/// nothing after a terminal event, and no two events overlapping in time. Violations are
/// recorded, not crashed on, so a test can assert `violations.isEmpty`.
final class ContractChecker<Element: Sendable>: ObserverType, @unchecked Sendable {
    // @unchecked: mutable state is locked or atomic.
    private let inside = Atomic<Bool>(false)
    private let recorded = Locked<(events: [Event<Element>], violations: [String])>(([], []))

    func on(_ event: Event<Element>) {
        if inside.exchange(true, ordering: .acquiringAndReleasing) {
            recorded.withLock { $0.violations.append("overlapping delivery of \(event)") }
        }
        recorded.withLock { state in
            if let last = state.events.last, last.isStopEvent {
                state.violations.append("\(event) after terminal \(last)")
            }
            state.events.append(event)
        }
        inside.store(false, ordering: .releasing)
    }

    var events: [Event<Element>] {
        recorded.value.events
    }

    var elements: [Element] {
        events.compactMap(\.element)
    }

    var violations: [String] {
        recorded.value.violations
    }

    var isTerminated: Bool {
        events.last?.isStopEvent ?? false
    }
}
