import Dispatch
@_spi(TellerInternals) import TellerRx

/// Finds out whether a `Teller`'s UI scheduler runs at all, so a program whose UI scheduler never
/// runs (a command-line tool or server on the main queue, which nothing drains) hears about it
/// instead of waiting silently for states that never come.
///
/// The first time a repository hands the UI scheduler work (``Teller/uiSchedulerNeeded()``: it
/// starts reading its cache, or has its first state for observers), one probe goes through the
/// UI scheduler's queue (never inline: the main scheduler runs work at once when asked on the
/// main thread, while the states a finished fetch sends later go through its queue), and a timer
/// of ``patience`` starts on the background scheduler. A probe that runs first cancels the timer
/// and the watch ends for good; a timer that fires first reports the stall once. Virtual-time
/// schedulers play both out as the test advances.
///
/// A repository nobody observes never starts it: it reads no cache and shows no state, so it
/// gives the UI scheduler nothing. A `Teller` whose UI scheduler is on a queue of its own has no
/// watch (see `SelfDrainingScheduler`): libdispatch drains such a queue whatever the process does.
final class UISchedulerWatch: Sendable {
    /// How long the UI scheduler may take to run the probe before the stall is reported.
    static let patience = 5

    private enum Phase {
        case idle
        case watching
        case running
        case reported
    }

    private let phase = LockedState(Phase.idle)
    private let timer = SingleAssignmentDisposable()
    private let probe = SingleAssignmentDisposable()

    /// Starts the watch if it never ran; after that, one lock and nothing else.
    ///
    /// - Parameter report: Told, on the background scheduler, that the probe did not run within
    ///   ``patience`` seconds.
    func start(ui: any SchedulerType, background: any SchedulerType, report: @escaping @Sendable (Duration) -> Void) {
        let starts = phase.withLock { phase -> Bool in
            guard phase == .idle else { return false }
            phase = .watching
            return true
        }
        guard starts else { return }
        timer.setDisposable(
            background.scheduleRelative((), dueTime: .seconds(Self.patience)) { [self] _ in
                let stalled = phase.withLock { phase -> Bool in
                    guard phase == .watching else { return false }
                    phase = .reported
                    return true
                }
                if stalled { report(.seconds(Self.patience)) }
                return Disposables.create()
            }
        )
        probe.setDisposable(
            ui.scheduleRelative((), dueTime: .seconds(0)) { [self] _ in
                phase.withLock { $0 = .running }
                // Cancelled, so a test that waits for its schedulers to go idle doesn't wait for it.
                timer.dispose()
                return Disposables.create()
            }
        )
    }
}
