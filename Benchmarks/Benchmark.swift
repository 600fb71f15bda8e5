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
    /// A line printed under the table about what the last run did (e.g. how many fetches a
    /// burst of refreshes caused), given the median time of one whole run; `nil` for none.
    func summary(medianRunNanoseconds: Double) -> String?
}

extension Benchmark {
    var floor: String? { nil }
    func setUp() {}
    func tearDown() {}
    func summary(medianRunNanoseconds: Double) -> String? { nil }
}

/// The registered benchmarks, in registration order. Each file family adds its own through an
/// `addXBenchmarks(to:)` function, as swift-collections' benchmark executable does.
struct BenchmarkSuite {
    private(set) var benchmarks: [any Benchmark] = []

    mutating func add(_ benchmark: any Benchmark) {
        precondition(!benchmarks.contains { $0.name == benchmark.name }, "duplicate benchmark \(benchmark.name)")
        benchmarks.append(benchmark)
    }

    /// Whether `name` is selected by `filter`: equal to it when some benchmark has exactly that
    /// name (so `publish-subject-pumping` does not also select `…-2-subscribers`), else
    /// containing it. Case-insensitive.
    private func matches(_ name: String, filter: String) -> Bool {
        let filter = filter.lowercased()
        if benchmarks.contains(where: { $0.name.lowercased() == filter }) {
            return name.lowercased() == filter
        }
        return name.lowercased().contains(filter)
    }

    /// The benchmarks selected by `filters` (see `matches(_:filter:)`) (all when `filters` is empty), each
    /// grouped with its floor and the other selected benchmarks sharing that floor, so a group
    /// can be measured interleaved. Floors come first in their group; groups keep registration
    /// order.
    func groups(selectedBy filters: [String]) -> [[any Benchmark]] {
        let wanted = benchmarks.filter { benchmark in
            filters.isEmpty || filters.contains { matches(benchmark.name, filter: $0) }
        }
        let wantedNames = Set(wanted.map(\.name))
        var groups: [[any Benchmark]] = []
        for floor in benchmarks where floor.floor == nil {
            let users = wanted.filter { $0.floor == floor.name }
            if !users.isEmpty || wantedNames.contains(floor.name) {
                groups.append([floor] + users)
            }
        }
        // A workload whose floor is not registered runs alone.
        let floorNames = Set(benchmarks.filter { $0.floor == nil }.map(\.name))
        for benchmark in wanted where benchmark.floor.map({ !floorNames.contains($0) }) ?? false {
            groups.append([benchmark])
        }
        return groups
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
