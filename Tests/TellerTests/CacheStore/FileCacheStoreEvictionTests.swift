import Foundation
import Teller
@_spi(TellerInternals) import TellerRx
import TellerTestSupport
import Testing

/// Size and age limits: unused tags go, least recently used first, and Teller forgets their
/// fetch times. Time is Teller's clock, here the virtual one (one tick is one second).
@Suite struct FileCacheStoreEvictionTests {
    let env = VirtualTeller()
    let folder = TemporaryFolder()

    /// Saves `tag` at virtual time `ticks` and records it as fetched then, as Teller would.
    private func save(_ store: FileCacheStore<[String]>, _ tag: String, at ticks: Int) throws {
        env.scheduler.advanceTo(ticks)
        try store.save(["value of \(tag)"], tag: tag)
        env.store.setMetadata(FetchMetadata(lastFetched: env.date(ticks)), forTag: tag)
    }

    /// The size of one file of `["value of t1"]`-like values, so limits count files.
    private func fileSizeOfOneTag() throws -> Int {
        let probe = folder.child("probe")
        try FileCacheStore<[String]>(directory: probe, teller: env.teller).save(["value of t0"], tag: "t0")
        return fileSize(try #require(folder.cacheFiles(in: probe).first))
    }

    @Test func theSizeLimitEvictsTheLeastRecentlyUsedTagAndForgetsItsFetchTime() throws {
        defer { folder.remove() }
        let size = try fileSizeOfOneTag()
        let store = try FileCacheStore<[String]>(
            directory: folder.child("cache"),
            maxTotalBytes: 3 * size,
            teller: env.teller
        )
        try save(store, "t1", at: 10)
        try save(store, "t2", at: 20)
        try save(store, "t3", at: 30)
        env.scheduler.advanceTo(40)
        _ = store.load(tag: "t1")  // t1 is used again: t2 is now the least recently used
        try save(store, "t4", at: 50)

        #expect(store.load(tag: "t2") == nil)
        #expect(env.store.metadata(forTag: "t2") == nil)
        for tag in ["t1", "t3", "t4"] {
            #expect(store.load(tag: tag) == ["value of \(tag)"])
            #expect(env.store.metadata(forTag: tag) != nil)
        }
        #expect(folder.cacheFiles(in: folder.child("cache")).count == 3)
        #expect(
            env.log.value.contains {
                $0.contains("evicted the cache of \"t2\"") && $0.contains("over its \(3 * size)-byte limit")
            },
            "\(env.log.value)"
        )
    }

    @Test func theAgeLimitEvictsTagsUnusedForLongerThanMaxUnusedAge() throws {
        defer { folder.remove() }
        let store = try FileCacheStore<[String]>(
            directory: folder.url,
            maxUnusedAge: Period(unit: 1, component: .hour),
            teller: env.teller
        )
        try save(store, "old", at: 100)
        try save(store, "loaded", at: 100)
        try save(store, "recent", at: 3_000)
        env.scheduler.advanceTo(3_500)
        _ = store.load(tag: "loaded")

        env.scheduler.advanceTo(3_750)  // "old" was last used 3 650 s ago, the others since 3 000
        #expect(store.evictUnusedTags() == ["old"])
        #expect(store.load(tag: "old") == nil)
        #expect(env.store.metadata(forTag: "old") == nil)
        #expect(store.load(tag: "loaded") != nil)
        #expect(store.load(tag: "recent") != nil)
        #expect(env.log.value.contains { $0.contains("evicted the cache of \"old\" (not used for more than 1 hour)") })
    }

    @Test func aNewStoreEvictsWhatAgedWhileTheAppWasNotRunning() throws {
        defer { folder.remove() }
        let unlimited = try FileCacheStore<[String]>(directory: folder.url, teller: env.teller)
        try save(unlimited, "a", at: 10)
        env.scheduler.advanceTo(100_000)

        let relaunched = try FileCacheStore<[String]>(
            directory: folder.url,
            maxUnusedAge: Period(unit: 1, component: .day),
            teller: env.teller
        )
        #expect(relaunched.load(tag: "a") == nil)
        #expect(env.store.metadata(forTag: "a") == nil)
    }

    @Test func observedTagsAreInUseAndNeverEvicted() throws {
        defer { folder.remove() }
        let size = try fileSizeOfOneTag()
        let store = try FileCacheStore<[String]>(
            directory: folder.child("cache"),
            maxTotalBytes: size,
            maxUnusedAge: Period(unit: 1, component: .minute),
            teller: env.teller
        )
        try save(store, "t1", at: 10)
        let observed = store.observe(tag: "t1").subscribe()
        try save(store, "t2", at: 20)
        try save(store, "t3", at: 1_000)  // t1 is too old and over the limit, but observed

        #expect(store.load(tag: "t1") == ["value of t1"])
        #expect(env.store.metadata(forTag: "t1") != nil)
        #expect(store.load(tag: "t2") == nil)
        #expect(env.store.metadata(forTag: "t2") == nil)

        observed.dispose()
        try save(store, "t4", at: 1_010)
        #expect(store.load(tag: "t1") == nil)
        #expect(store.load(tag: "t3") == nil)
        #expect(store.load(tag: "t4") == ["value of t4"])
    }

    @Test func aValueLargerThanTheLimitIsStillSaved() throws {
        defer { folder.remove() }
        let store = try FileCacheStore<[String]>(directory: folder.url, maxTotalBytes: 10, teller: env.teller)
        try save(store, "big", at: 10)
        #expect(store.load(tag: "big") == ["value of big"])
        try save(store, "bigger", at: 20)
        #expect(store.load(tag: "big") == nil)
        #expect(store.load(tag: "bigger") == ["value of bigger"])
    }
}
