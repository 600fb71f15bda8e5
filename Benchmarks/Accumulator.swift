/// The running sum a workload's subscriber adds to, shared by the TellerRx workloads and their
/// floors so both pay for the same store.
final class Accumulator: @unchecked Sendable {
    // @unchecked: each workload touches it from the one thread that runs the benchmark.
    var value = 0
}
