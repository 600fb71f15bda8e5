import Dispatch

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The wall times, in nanoseconds, of one workload's timed runs on each side, in round order.
struct Measurement {
    let workload: Workload
    let tellerRx: [UInt64]
    /// Empty when the workload has no OpenCombine side.
    let openCombine: [UInt64]

    /// The median of `samples`, per operation.
    func nanosecondsPerOperation(_ samples: [UInt64]) -> Double? {
        median(samples.map { Double($0) }).map { $0 / Double(workload.operations) }
    }

    /// How many times slower TellerRx is than OpenCombine: the median over the rounds of the
    /// round's TellerRx time divided by its OpenCombine time, which is robust to load drifting
    /// during the measurement. `nil` without an OpenCombine side.
    var ratio: Double? {
        guard openCombine.count == tellerRx.count else { return nil }
        return median(zip(tellerRx, openCombine).map { Double($0) / Double(max($1, 1)) })
    }
}

/// Runs each workload once per side to warm up, then `runs` rounds of one timed TellerRx run
/// and one timed OpenCombine run, so both sides see the same machine: on a shared machine the
/// load drifts, and measuring one side after the other would put the drift into the ratio.
struct Runner {
    let runs: Int

    func measure(_ workload: Workload) -> Measurement {
        _ = time(workload.tellerRx, of: workload, side: "TellerRx")
        if let openCombine = workload.openCombine {
            _ = time(openCombine, of: workload, side: "OpenCombine")
        }
        var tellerRx: [UInt64] = []
        var openCombine: [UInt64] = []
        for _ in 0..<runs {
            tellerRx.append(time(workload.tellerRx, of: workload, side: "TellerRx"))
            if let run = workload.openCombine {
                openCombine.append(time(run, of: workload, side: "OpenCombine"))
            }
        }
        return Measurement(workload: workload, tellerRx: tellerRx, openCombine: openCombine)
    }

    /// Times one run with the monotonic `DispatchTime`, and exits if it returned the wrong sum.
    private func time(_ run: () -> Int, of workload: Workload, side: String) -> UInt64 {
        let start = DispatchTime.now().uptimeNanoseconds
        let result = run()
        let end = DispatchTime.now().uptimeNanoseconds
        blackHole(result)
        guard result == workload.expectedResult else {
            printError("\(workload.name) on \(side): returned \(result), expected \(workload.expectedResult)")
            exit(2)
        }
        return end - start
    }
}

/// The middle value of `values` (the mean of the two middle ones for an even count).
func median(_ values: [Double]) -> Double? {
    guard !values.isEmpty else { return nil }
    let sorted = values.sorted()
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

/// Where consumed results go: a global the optimizer must assume is read later.
nonisolated(unsafe) private var blackHoleSink = 0

/// Consumes `value` so that the work producing it cannot be optimized away.
@inline(never)
func blackHole(_ value: Int) {
    blackHoleSink &+= value
}

/// The final value of the sink, printed so that it is observably used.
var blackHoleValue: Int {
    blackHoleSink
}

/// Writes `message` and a newline to standard error.
func printError(_ message: String) {
    let line = message + "\n"
    _ = line.withCString { write(2, $0, strlen($0)) }
}
