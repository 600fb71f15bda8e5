/// One measured workload, in the shape of NIOPerformanceTester's benchmarks.
///
/// The harness calls `setUp()`, times `run()` with a monotonic clock, then calls `tearDown()`,
/// once to warm up and then once per sample. `run()` returns a value computed from the work
/// (usually a sum of the elements delivered) so the optimizer cannot delete the work; the
/// harness consumes it with ``blackHole(_:)`` and checks it against `expectedResult`.
protocol Benchmark: AnyObject {
    /// The name shown in the table and matched by `--filter`.
    var name: String { get }
    /// How many operations one `run()` performs; times are reported per operation.
    var operations: Int { get }
    /// What `run()` must return when the work was really done (checked after every run).
    var expectedResult: Int { get }
    /// The name of the benchmark doing the same work with plain closures and no locks, which
    /// this one is compared against; `nil` for floors themselves.
    var floor: String? { get }

    /// Prepares state that should not be timed.
    func setUp()
    /// The timed work.
    func run() -> Int
    /// Releases what `setUp()` created.
    func tearDown()
}

extension Benchmark {
    var floor: String? { nil }
    func setUp() {}
    func tearDown() {}
}

/// The registered benchmarks, in registration order. Each file family adds its own through an
/// `addXBenchmarks(to:)` function, as swift-collections' benchmark executable does.
struct BenchmarkSuite {
    private(set) var benchmarks: [any Benchmark] = []

    mutating func add(_ benchmark: any Benchmark) {
        precondition(!benchmarks.contains { $0.name == benchmark.name }, "duplicate benchmark \(benchmark.name)")
        benchmarks.append(benchmark)
    }

    /// The benchmarks whose names contain one of `filters` (all when `filters` is empty), plus
    /// the floors they are compared against, each floor just before its first user.
    func selected(by filters: [String]) -> [any Benchmark] {
        let byName = Dictionary(uniqueKeysWithValues: benchmarks.map { ($0.name, $0) })
        let wanted = benchmarks.filter { benchmark in
            filters.isEmpty || filters.contains { benchmark.name.lowercased().contains($0.lowercased()) }
        }
        var result: [any Benchmark] = []
        var seen: Set<String> = []
        for benchmark in wanted {
            if let floorName = benchmark.floor, let floor = byName[floorName], !seen.contains(floorName) {
                seen.insert(floorName)
                result.append(floor)
            }
            if !seen.contains(benchmark.name) {
                seen.insert(benchmark.name)
                result.append(benchmark)
            }
        }
        return result
    }
}

/// Where consumed results go: a global the optimizer must assume is read later.
nonisolated(unsafe) private var blackHoleSink = 0

/// Consumes `value` so that the work producing it cannot be optimized away.
@inline(never)
func blackHole(_ value: Int) {
    blackHoleSink &+= value
}

/// The final value of the sink, printed in verbose output so it is observably used.
var blackHoleValue: Int {
    blackHoleSink
}
