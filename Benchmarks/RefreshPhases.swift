import Dispatch
import Foundation
@_spi(TellerInternals) import TellerRx

/// Where the time of one whole refresh (`teller-refresh-dedup-1`) goes, from stamps taken through
/// the public API only: by the benchmark thread, and by the data source's own members on the
/// threads Teller calls them on. Each phase runs from one stamp to the next in causal order (the
/// refresh needs its requirements, the save needs the fetch…), so no phase can come out
/// negative.
///
/// The figures tell Teller's own work (setup, the steps between the fetch and the save and
/// between the save and the answer) from the thread wake-ups a refresh cannot do without, whose
/// cost depends on the machine (a parked virtual CPU wakes slowly; a busy one makes the woken
/// thread wait).
final class RefreshPhases: Sendable {
    /// The stamps of one run, in causal order.
    enum Point: Int, CaseIterable {
        case start
        /// The `Teller` and the repository exist and the requirements are set.
        case requirementsSet
        /// The data source's `fetchFreshCache` was called (on the background scheduler).
        case fetchCalled
        /// `saveCache` was called.
        case saveStarted
        /// `saveCache` returned.
        case saveEnded
        /// The refresh's `Single` succeeded (on the background thread that finished the work).
        case answered
        /// The benchmark thread, which waited for the answer, runs again.
        case woken
        /// The repository and its `Teller` were released.
        case end

        /// What the phase that ends at this point is called in the summary.
        var phaseName: String {
            switch self {
            case .start: "before the run"
            case .requirementsSet: "setup"
            case .fetchCalled: "to the fetch (decided, started, background thread woken)"
            case .saveStarted: "fetch to save"
            case .saveEnded: "save"
            case .answered: "save to answer"
            case .woken: "waking the caller"
            case .end: "teardown"
            }
        }
    }

    private struct Record {
        var current = [UInt64](repeating: 0, count: Point.allCases.count)
        /// Each finished run's phase durations in nanoseconds, in `Point` order from the second.
        var runs: [[UInt64]] = []
    }

    private let record = LockedState(Record())

    func stamp(_ point: Point) {
        let now = DispatchTime.now().uptimeNanoseconds
        record.withLock { $0.current[point.rawValue] = now }
    }

    /// Keeps the durations of the run whose stamps were just taken.
    func finishRun() {
        record.withLock { record in
            let stamps = record.current
            record.runs.append(stamps.indices.dropFirst().map { stamps[$0] &- stamps[$0 - 1] })
        }
    }

    /// The median of each phase over the timed runs (the first run, the harness's warm-up, left
    /// out), in microseconds.
    func summary() -> String? {
        let runs = record.withLock { $0.runs.dropFirst() }
        guard !runs.isEmpty else { return nil }
        let phases = Point.allCases.dropFirst().enumerated().map { index, point in
            let sorted = runs.map { $0[index] }.sorted()
            let median = Double(sorted[sorted.count / 2]) / 1e3
            return "\(point.phaseName) \(median.formatted(.number.precision(.fractionLength(1))))"
        }
        return "  where a run's time goes (median µs): " + phases.joined(separator: ", ")
    }
}
