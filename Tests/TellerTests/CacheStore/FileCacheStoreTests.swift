import Dispatch
import Foundation
import Teller
@_spi(TellerInternals) import TellerRx
import TellerTestSupport
import Testing

/// Saving, loading, updating and removing values, and where their files go.
@Suite struct FileCacheStoreTests {
    let env = VirtualTeller()
    let folder = TemporaryFolder()

    @Test func savedValuesLoadBackPerTagAndSurviveANewStore() throws {
        defer { folder.remove() }
        let store = try FileCacheStore<[String]>(directory: folder.url, teller: env.teller)
        try store.save(["a"], tag: "one")
        try store.save(["b", "c"], tag: "two")
        try store.save(["d"], tag: "one")

        #expect(store.load(tag: "one") == ["d"])
        #expect(store.load(tag: "two") == ["b", "c"])
        #expect(store.load(tag: "three") == nil)
        // A relaunch: a new store on the same folder reads what the first one wrote.
        let relaunched = try FileCacheStore<[String]>(directory: folder.url, teller: env.teller)
        #expect(relaunched.load(tag: "two") == ["b", "c"])
        #expect(folder.cacheFiles().count == 2)
        #expect(env.log.value.isEmpty)
    }

    @Test func anyStringIsATagAndItsFileStaysInTheFolder() throws {
        defer { folder.remove() }
        let store = try FileCacheStore<String>(directory: folder.child("cache"), teller: env.teller)
        let tags = [
            "/", "..", ".", "", "../../escaped", "a/b/c", ".hidden", "Repos for octocat", "A", "a", "😀 ünïcödé",
            "line\nbreak", "quote \" and \\ backslash", String(repeating: "long tag ", count: 100),
        ]
        for tag in tags { try store.save("value of \(tag)", tag: tag) }

        for tag in tags { #expect(store.load(tag: tag) == "value of \(tag)", "\(tag)") }
        let files = folder.cacheFiles(in: folder.child("cache"))
        #expect(files.count == tags.count)
        for file in files {
            #expect(file.deletingLastPathComponent().lastPathComponent == "cache")
            #expect(file.lastPathComponent.count <= 80)
            #expect(!file.lastPathComponent.contains("/"))
        }
        // Nothing escaped next to the cache folder.
        #expect(folder.names() == ["cache"])
    }

    @Test func fileNamesAreReadableAndTheFileIsJSONWithTheTag() throws {
        defer { folder.remove() }
        let store = try FileCacheStore<[String]>(directory: folder.url, teller: env.teller)
        try store.save(["teller"], tag: "Repos for octocat")

        let file = try #require(folder.cacheFiles().first)
        #expect(file.lastPathComponent.hasPrefix("Repos_for_octocat_"))
        #expect(file.pathExtension == "json")
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any]
        #expect(object?["tag"] as? String == "Repos for octocat")
        #expect(object?["value"] as? [String] == ["teller"])
    }

    @Test func updateChangesTheCurrentValueInOneStep() throws {
        defer { folder.remove() }
        let store = try FileCacheStore<[[Int]]>(directory: folder.url, teller: env.teller)
        try store.update(tag: "pages") { pages in pages = (pages ?? []) + [[1, 2]] }
        try store.update(tag: "pages") { pages in pages = (pages ?? []) + [[3]] }
        #expect(store.load(tag: "pages") == [[1, 2], [3]])

        try store.update(tag: "pages") { pages in pages = pages.map { Array($0.prefix(1)) } }
        #expect(store.load(tag: "pages") == [[1, 2]])

        try store.update(tag: "pages") { pages in pages = nil }
        #expect(store.load(tag: "pages") == nil)
        #expect(folder.cacheFiles().isEmpty)
    }

    @Test func updateThatThrowsWritesNothing() throws {
        defer { folder.remove() }
        let store = try FileCacheStore<[Int]>(directory: folder.url, teller: env.teller)
        try store.save([1], tag: "numbers")
        #expect(throws: TestError(7)) {
            try store.update(tag: "numbers") { numbers in
                numbers = [2]
                throw TestError(7)
            }
        }
        #expect(store.load(tag: "numbers") == [1])
    }

    @Test func concurrentUpdatesFromManyThreadsLoseNoChange() throws {
        defer { folder.remove() }
        let store = try FileCacheStore<[Int]>(directory: folder.url, teller: makeRealTeller())
        let other = try FileCacheStore<[Int]>(directory: folder.url, teller: makeRealTeller())
        let failures = Locked<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 40) { index in
            do {
                try (index.isMultiple(of: 2) ? store : other).update(tag: "all") { $0 = ($0 ?? []) + [index] }
            } catch {
                failures.withLock { $0.append("\(error)") }
            }
        }
        #expect(failures.value.isEmpty)
        #expect(store.load(tag: "all")?.sorted() == Array(0..<40))
    }

    @Test func readersNeverSeeAHalfWrittenFile() throws {
        defer { folder.remove() }
        let store = try FileCacheStore<[String]>(directory: folder.url, teller: makeRealTeller())
        // Large enough that a write takes many `write` calls' worth of time.
        let values = [Array(repeating: "a", count: 50_000), Array(repeating: "b", count: 60_000)]
        try store.save(values[0], tag: "big")
        let seen = Locked<[Int]>([])
        DispatchQueue.concurrentPerform(iterations: 3) { worker in
            for round in 0..<20 {
                if worker == 0 {
                    try? store.save(values[round % 2], tag: "big")
                } else {
                    let loaded = store.load(tag: "big")
                    seen.withLock { $0.append(loaded.flatMap { values.firstIndex(of: $0) } ?? -1) }
                }
            }
        }
        #expect(seen.value.count == 40)
        #expect(!seen.value.contains(-1), "a load saw no value or a torn one")
    }

    @Test func removeAndRemoveAllDeleteOnlyTheStoresFiles() throws {
        defer { folder.remove() }
        // Another file in the folder, such as Teller's metadata, is never touched.
        try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true)
        try Data("{}".utf8).write(to: folder.url.appendingPathComponent("fetch-metadata.json"))
        let store = try FileCacheStore<Int>(directory: folder.url, teller: env.teller)
        for (index, tag) in ["a", "b", "c"].enumerated() { try store.save(index, tag: tag) }

        try store.remove(tag: "a")
        try store.remove(tag: "never saved")
        #expect(store.load(tag: "a") == nil)
        #expect(store.load(tag: "b") == 1)

        try store.removeAll()
        #expect(store.load(tag: "b") == nil)
        #expect(store.load(tag: "c") == nil)
        #expect(folder.cacheFiles() == [folder.url.appendingPathComponent("fetch-metadata.json")])
    }

    @Test func removingLeavesTellersFetchTimesAlone() throws {
        defer { folder.remove() }
        let store = try FileCacheStore<Int>(directory: folder.url, teller: env.teller)
        try store.save(1, tag: "a")
        env.store.setMetadata(FetchMetadata(lastFetched: env.date(5)), forTag: "a")

        try store.remove(tag: "a")
        try store.removeAll()
        #expect(env.store.metadata(forTag: "a")?.lastFetched == env.date(5))
    }

    @Test func theDefaultDirectoryIsANamedFolderInThisProgramsPartOfTheCachesDirectory() {
        let url = FileCacheStore<Int>.defaultDirectory(named: "repos")
        let program = FileFetchMetadataStore.defaultProgramIdentifier
        #expect(url.pathComponents.suffix(3) == [program, "Teller", "repos"])
        #if os(Linux)
        let cacheHome = ProcessInfo.processInfo.environment["XDG_CACHE_HOME"]
        if cacheHome == nil {
            #expect(url.path.hasSuffix("/.cache/\(program)/Teller/repos"))
        }
        #endif
    }
}
