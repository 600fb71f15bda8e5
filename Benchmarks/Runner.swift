import Dispatch

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The measurements of one benchmark: the wall time of each timed run, in nanoseconds.
struct Measurement {
    let benchmark: any Benchmark
    let samples: [UInt64]

    var medianNanosecondsPerOperation: Double {
        let sorted = samples.sorted()
        let middle = sorted.count / 2
        let median =
            sorted.count % 2 == 1
            ? Double(sorted[middle])
            : (Double(sorted[middle - 1]) + Double(sorted[middle])) / 2
        return median / Double(benchmark.operations)
    }

    var minimumNanosecondsPerOperation: Double {
        Double(samples.min() ?? 0) / Double(benchmark.operations)
    }

    var operationsPerSecond: Double {
        1e9 / medianNanosecondsPerOperation
    }
}

/// Runs benchmarks: one untimed warm-up run, then `runs` timed runs, each between `setUp()` and
/// `tearDown()`. Times come from `DispatchTime`, which is monotonic.
///
/// A workload and its floor are measured as a group, their runs interleaved (floor, workload,
/// floor, workload, …), so that both see the same machine: on a shared machine the load drifts,
/// and measuring one after the other would put the drift into the ratio.
struct Runner {
    let runs: Int

    func measure(_ group: [any Benchmark]) -> [Measurement] {
        for benchmark in group {
            _ = timedRun(benchmark)
        }
        var samples = group.map { _ in [UInt64]() }
        for _ in 0..<runs {
            for index in group.indices {
                samples[index].append(timedRun(group[index]))
            }
        }
        return group.indices.map { Measurement(benchmark: group[$0], samples: samples[$0]) }
    }

    private func timedRun(_ benchmark: any Benchmark) -> UInt64 {
        benchmark.setUp()
        let start = DispatchTime.now().uptimeNanoseconds
        let result = benchmark.run()
        let end = DispatchTime.now().uptimeNanoseconds
        benchmark.tearDown()
        blackHole(result)
        guard result == benchmark.expectedResult else {
            printError("\(benchmark.name): run() returned \(result), expected \(benchmark.expectedResult)")
            exit(2)
        }
        return end - start
    }
}

/// Writes `message` and a newline to standard error.
func printError(_ message: String) {
    let line = message + "\n"
    _ = line.withCString { write(2, $0, strlen($0)) }
}
