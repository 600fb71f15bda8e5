#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

// TellerBenchmarks: RxSwift's benchmark workloads on TellerRx, each next to its floor (the same
// work with plain closures and no locks, measured in the same run).
//
//     swift run -c release TellerBenchmarks [--filter NAME | NAME]… [--runs N] [--json] [--list] [--memory]
//     swift run -c release TellerBenchmarks --kill-loop 2000
//     swift run -c release TellerBenchmarks --outbox-kill-loop 1000
//     swift run -c release TellerBenchmarks --outbox-send-kill-loop 1000
//
// Allocations per operation are not counted in process (that needs a malloc hook); count them
// with valgrind, which prints the heap allocations of a whole run: run one workload with
// `--runs 1` (a warm-up and one timed run) and with `--filter floor/NAME --runs 1`, subtract,
// and divide by twice the workload's operation count.

var suite = BenchmarkSuite()
addFloorBenchmarks(to: &suite)
addSubjectBenchmarks(to: &suite)
addMapFilterBenchmarks(to: &suite)
addOperatorBenchmarks(to: &suite)
addSingleBenchmarks(to: &suite)
addTellerBenchmarks(to: &suite)
addPrimitiveBenchmarks(to: &suite)
addOutboxBenchmarks(to: &suite)
addOutboxSendBenchmarks(to: &suite)

if CommandLine.arguments.count == 3, CommandLine.arguments[1] == MetadataKillLoop.writerFlag {
    MetadataKillLoop.runWriter(file: CommandLine.arguments[2])
}
if CommandLine.arguments.count == 3, CommandLine.arguments[1] == OutboxKillLoop.writerFlag {
    OutboxKillLoop.runWriter(file: CommandLine.arguments[2])
}
if CommandLine.arguments.count == 5, CommandLine.arguments[1] == OutboxSendKillLoopSender.flag {
    let arguments = CommandLine.arguments
    OutboxSendKillLoopSender.run(journal: arguments[2], server: arguments[3], mode: arguments[4])
}

let options = Options.parse(Array(CommandLine.arguments.dropFirst()))

#if DEBUG
let build = "debug"
printError(
    """
    ************************************************************
    * WARNING: this is a DEBUG build; the numbers mean nothing. *
    * Run: swift run -c release TellerBenchmarks               *
    ************************************************************
    """
)
#else
let build = "release"
#endif

if options.memory {
    // First, before any benchmark allocates and frees memory the subscriptions could reuse.
    print(MemoryReport.run())
    exit(0)
}

if let rounds = options.killLoop {
    MetadataKillLoop.run(rounds: rounds)
}

if let rounds = options.outboxKillLoop {
    OutboxKillLoop.run(rounds: rounds)
}

if let rounds = options.outboxSendKillLoop {
    OutboxSendKillLoop.run(rounds: rounds)
}

if options.list {
    for benchmark in suite.benchmarks {
        print(benchmark.name)
    }
    exit(0)
}

let groups = suite.groups(selectedBy: options.filters)
if groups.isEmpty {
    printError("No benchmark matches \(options.filters); use --list to see the names.")
    exit(1)
}

let runner = Runner(runs: options.runs)
var measurements: [Measurement] = []
for group in groups {
    if !options.json {
        printError("running \(group.map(\.name).joined(separator: ", "))…")
    }
    measurements += runner.measure(group)
}

let report = Report(measurements: measurements, runs: options.runs)
if options.json {
    print(report.json(build: build))
} else {
    print("\(build) build, median and min of \(options.runs) runs after one warm-up (checksum \(blackHoleValue))")
    print(report.table())
    let summaries = measurements.compactMap { measurement in
        measurement.benchmark.summary(
            medianRunNanoseconds: measurement.medianNanosecondsPerOperation * Double(measurement.benchmark.operations)
        )
    }
    if !summaries.isEmpty {
        print("")
        summaries.forEach { print($0) }
    }
}
