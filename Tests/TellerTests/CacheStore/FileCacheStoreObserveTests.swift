import Dispatch
import Foundation
import Teller
@_spi(TellerInternals) import TellerRx
import TellerTestSupport
import Testing

/// `observe(tag:)`: the current value when subscribed, then every change made in the process by
/// any store on the same folder.
@Suite struct FileCacheStoreObserveTests {
    let env = VirtualTeller()
    let folder = TemporaryFolder()

    @Test func emitsTheCurrentValueOnSubscribeThenEveryChangeFromAnotherStore() throws {
        defer { folder.remove() }
        let store = try FileCacheStore<[Int]>(directory: folder.url, teller: env.teller)
        let other = try FileCacheStore<[Int]>(directory: folder.url, teller: env.teller)
        try store.save([1], tag: "a")
        let values = Locked<[[Int]?]>([])

        let subscription = store.observe(tag: "a").subscribe(onNext: { value in values.withLock { $0.append(value) } })
        // Emitted before subscribe returned.
        #expect(values.value == [[1]])

        try other.save([2], tag: "a")
        try other.save([9], tag: "not a")
        try other.update(tag: "a") { $0 = ($0 ?? []) + [3] }
        try other.remove(tag: "a")
        try other.save([4], tag: "a")
        try other.removeAll()
        #expect(values.value == [[1], [2], [2, 3], nil, [4], nil])

        subscription.dispose()
        try other.save([5], tag: "a")
        #expect(values.value.count == 6)
    }

    @Test func aTagWithoutAValueEmitsNil() throws {
        defer { folder.remove() }
        let store = try FileCacheStore<String>(directory: folder.url, teller: env.teller)
        let values = Locked<[String?]>([])
        let subscription = store.observe(tag: "never saved").subscribe(onNext: { value in
            values.withLock { $0.append(value) }
        })
        defer { subscription.dispose() }
        #expect(values.value == [nil])
    }

    @Test func storesReachingTheFolderThroughASymbolicLinkShareObservations() throws {
        defer { folder.remove() }
        let real = folder.child("real")
        let link = folder.child("link")
        try FileManager.default.createDirectory(at: real, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: real)
        let store = try FileCacheStore<Int>(directory: real, teller: env.teller)
        let linked = try FileCacheStore<Int>(directory: link, teller: env.teller)
        let values = Locked<[Int?]>([])

        let subscription = store.observe(tag: "n").subscribe(onNext: { value in values.withLock { $0.append(value) } })
        defer { subscription.dispose() }
        try linked.save(1, tag: "n")
        #expect(values.value == [nil, 1])
    }

    @Test func concurrentSavesNeverOverlapEmissionsAndTheLastEmissionIsTheLastValue() throws {
        defer { folder.remove() }
        let teller = makeRealTeller()
        let store = try FileCacheStore<Int>(directory: folder.url, teller: teller)
        let writers = try (0..<4).map { _ in try FileCacheStore<Int>(directory: folder.url, teller: teller) }
        let emitting = Locked((now: 0, overlaps: 0))
        let values = Locked<[Int?]>([])
        let subscription = store.observe(tag: "n").subscribe(onNext: { value in
            emitting.withLock { emitting in
                emitting.now += 1
                if emitting.now > 1 { emitting.overlaps += 1 }
            }
            values.withLock { $0.append(value) }
            emitting.withLock { $0.now -= 1 }
        })
        defer { subscription.dispose() }

        DispatchQueue.concurrentPerform(iterations: 4) { writer in
            for round in 0..<25 { try? writers[writer].save(writer * 100 + round, tag: "n") }
        }
        let last = store.load(tag: "n")
        #expect(emitting.value.overlaps == 0)
        #expect(values.value.first == .some(nil))
        #expect(values.value.last == last)
        #expect(values.value.count >= 2)
    }
}
