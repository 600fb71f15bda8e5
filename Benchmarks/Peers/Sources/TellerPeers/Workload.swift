/// One workload of TellerBenchmarks, written once on TellerRx and once on OpenCombine.
///
/// Each side returns a value computed from the work (the sum of the elements its subscriber
/// received) so the optimizer cannot delete the work; the runner checks it against
/// `expectedResult` after every run.
struct Workload {
    /// The name used by TellerBenchmarks, shown in the table and matched by `--filter`.
    let name: String
    /// How many operations one run performs; times are reported per operation.
    let operations: Int
    /// What a run must return when the work was really done.
    let expectedResult: Int
    /// The work on TellerRx.
    let tellerRx: () -> Int
    /// The work on OpenCombine, or `nil` where OpenCombine 0.14.0 lacks the operator.
    let openCombine: (() -> Int)?
    /// How the OpenCombine side differs from the TellerRx side, if it does.
    let note: String?
}

/// The running sum a workload's subscriber adds to, the same store on both sides.
final class Accumulator: @unchecked Sendable {
    // @unchecked: each run touches it from the one thread that runs the benchmark.
    var value = 0
}
