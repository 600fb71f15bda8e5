import Dispatch
import Foundation
import Teller
@_spi(TellerInternals) import TellerRx

/// The first cached state on launch: a new repository over a `FileCacheStore` holding a 100 KB
/// JSON list (fetched an hour ago, so nothing is fetched), timed from setting its requirements
/// and calling `observe()` to the first state carrying the list. The Teller, the store and the
/// repository are made before the clock starts, as an app makes them at launch. One operation
/// is one launch; each run launches `launches` repositories one after the other.
final class FirstCachedStateBenchmark: Benchmark {
    static let workload = "teller-first-cached-state"
    let name = FirstCachedStateBenchmark.workload
    let floor: String? = floorName(FirstCachedStateBenchmark.workload)
    let operations = LaunchFile.launches
    var expectedResult: Int { operations * LaunchFile.repositories }

    private let file = LaunchFile()
    private var launches: [TellerRepository<LaunchDataSource>] = []

    func setUp() {
        file.create()
        launches = (0..<operations).map { _ in
            let teller = benchmarkTeller()
            try? teller.metadataStore.setMetadata(
                FetchMetadata(lastFetched: Date().addingTimeInterval(-3_600)),
                forTag: LaunchFile.tag
            )
            guard let store = try? FileCacheStore<[LaunchRepo]>(directory: file.folder, teller: teller) else {
                LaunchFile.fail("the benchmark's cache folder \(file.folder.path) cannot be used")
            }
            return TellerRepository(dataSource: LaunchDataSource(cacheStore: store), teller: teller)
        }
    }

    func run() -> Int {
        var shown = 0
        for repository in launches {
            let first = DispatchSemaphore(value: 0)
            let count = LockedState(0)
            repository.requirements = BenchmarkRequirements(tag: LaunchFile.tag)
            let subscription = repository.observe().subscribe(onNext: { state in
                guard let list = state.cache else { return }
                let isFirst = count.withLock { count in
                    defer { count = list.count }
                    return count == 0
                }
                if isFirst { first.signal() }
            })
            first.wait()
            subscription.dispose()
            shown += count.value
        }
        return shown
    }

    func tearDown() {
        launches = []
        file.remove()
    }

    func summary(medianRunNanoseconds: Double) -> String? {
        let microseconds = (medianRunNanoseconds / Double(operations) / 1e3).formatted(
            .number.precision(.fractionLength(1))
        )
        return "\(name): \(LaunchFile.repositories) repositories in a \(file.size.formatted())-byte file, "
            + "\(microseconds) µs from observe() to the first state carrying them"
    }
}

/// The floor of ``FirstCachedStateBenchmark``: the same file read and decoded by hand (the
/// store's envelope, with `JSONDecoder`), with no repository, store or scheduler hop.
final class FirstCachedStateFloor: Benchmark {
    let name = floorName(FirstCachedStateBenchmark.workload)
    let operations = LaunchFile.launches
    var expectedResult: Int { operations * LaunchFile.repositories }

    private let file = LaunchFile()

    private struct Envelope: Decodable {
        let tag: String
        let version: Int
        let value: [LaunchRepo]
    }

    func setUp() {
        file.create()
    }

    func run() -> Int {
        var shown = 0
        for _ in 0..<operations {
            guard let data = try? Data(contentsOf: file.cacheFile),
                let envelope = try? JSONDecoder().decode(Envelope.self, from: data),
                envelope.tag == LaunchFile.tag
            else { return -1 }
            shown += envelope.value.count
        }
        return shown
    }

    func tearDown() {
        file.remove()
    }
}

/// One repository of the cached list: the fields a list screen shows.
struct LaunchRepo: Codable, Sendable {
    let id: Int
    let name: String
    let fullName: String
    let description: String
    let stars: Int
    let isFork: Bool
}

/// The cache folder of a launch benchmark: one tag holding about 100 KB of JSON, written by a
/// `FileCacheStore` before the clock starts and removed after the run.
final class LaunchFile {
    static let tag = "repos of octocat"
    static let launches = 20
    static let repositories = 565

    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
        "teller-benchmark-launch-\(UUID().uuidString)",
        isDirectory: true
    )
    private(set) var cacheFile = URL(fileURLWithPath: "/")
    private(set) var size = 0

    func create() {
        let list = (0..<Self.repositories).map { index in
            LaunchRepo(
                id: 1_000_000 + index,
                name: "repository-\(index)",
                fullName: "octocat/repository-\(index)",
                description: "Repository number \(index), with a description as long as most.",
                stars: index * 7 % 5_000,
                isFork: index % 3 == 0
            )
        }
        let teller = benchmarkTeller()
        guard let store = try? FileCacheStore<[LaunchRepo]>(directory: folder, teller: teller),
            (try? store.save(list, tag: Self.tag)) != nil,
            let name = try? FileManager.default.contentsOfDirectory(atPath: folder.path).first(where: {
                !$0.hasPrefix(".")
            })
        else { Self.fail("the benchmark's cache folder \(folder.path) cannot be written") }
        cacheFile = folder.appendingPathComponent(name)
        size = (try? Data(contentsOf: cacheFile).count) ?? 0
    }

    func remove() {
        try? FileManager.default.removeItem(at: folder)
    }

    /// Stops the benchmark run: the temporary directory cannot hold the cache file.
    static func fail(_ problem: String) -> Never {
        printError(problem)
        exit(2)
    }
}

/// The app's data source over the launch file; it never needs to fetch.
final class LaunchDataSource: CodableRepositoryDataSource {
    typealias Requirements = BenchmarkRequirements

    let maxAgeOfCache = Period(unit: 1, component: .day)
    let cacheStore: FileCacheStore<[LaunchRepo]>

    init(cacheStore: FileCacheStore<[LaunchRepo]>) {
        self.cacheStore = cacheStore
    }

    func fetchFreshCache(requirements: BenchmarkRequirements) -> Single<FetchResponse<[LaunchRepo], any Error>> {
        .never()
    }
}
