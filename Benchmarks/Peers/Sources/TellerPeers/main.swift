#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

// TellerPeers: TellerBenchmarks' emission workloads on TellerRx and on OpenCombine, measured in
// one process with their runs interleaved.
//
//     swift run -c release TellerPeers [--filter NAME | NAME]… [--runs N] [--json] [--list]

let options = Options.parse(Array(CommandLine.arguments.dropFirst()))
let workloads = allWorkloads()

#if DEBUG
let build = "debug"
printError("WARNING: this is a DEBUG build; the numbers mean nothing. Run: swift run -c release TellerPeers")
#else
let build = "release"
#endif

if options.list {
    for workload in workloads {
        print(workload.name)
    }
    exit(0)
}

let selected = options.select(workloads)
if selected.isEmpty {
    printError("No workload matches \(options.filters); use --list to see the names.")
    exit(1)
}

let runner = Runner(runs: options.runs)
var measurements: [Measurement] = []
for workload in selected {
    if !options.json {
        printError("running \(workload.name)…")
    }
    measurements.append(runner.measure(workload))
}

let report = Report(measurements: measurements, runs: options.runs)
if options.json {
    print(report.json(build: build))
} else {
    print(
        "\(build) build, medians of \(options.runs) interleaved rounds after one warm-up (checksum \(blackHoleValue))"
    )
    print(report.table())
}
