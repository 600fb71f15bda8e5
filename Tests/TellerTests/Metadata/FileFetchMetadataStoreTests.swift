import Dispatch
import Foundation
import Teller
@_spi(TellerInternals) import TellerRx
import TellerTestSupport
import Testing

@Suite struct FileFetchMetadataStoreTests {
    private func temporaryFile() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("teller-store-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory.appendingPathComponent("nested/metadata.json")
    }

    @Test func metadataSurvivesANewStoreOnTheSameFile() throws {
        let file = try temporaryFile()
        let date = Date(timeIntervalSince1970: 1_234_567.891)
        let paging = PagingMetadata(areMorePages: true, nextPageRequirements: Data("cursor".utf8))
        try FileFetchMetadataStore(url: file).setMetadata(
            FetchMetadata(lastFetched: date, paging: paging),
            forTag: "repos"
        )
        let reopened = FileFetchMetadataStore(url: file)
        #expect(reopened.metadata(forTag: "repos") == FetchMetadata(lastFetched: date, paging: paging))
        #expect(reopened.metadata(forTag: "other") == nil)
    }

    @Test func theFileIsReadableByItsOwnerOnly() throws {
        let file = try temporaryFile()
        try FileFetchMetadataStore(url: file).setMetadata(FetchMetadata(lastFetched: Date()), forTag: "repos")
        let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
    }

    @Test func aCorruptFileIsReportedTreatedAsNeverFetchedAndRepairedByTheNextWrite() throws {
        let file = try temporaryFile()
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("{ not json".utf8).write(to: file)
        let problems = Locked<[String]>([])
        let store = FileFetchMetadataStore(url: file) { problem in problems.withLock { $0.append("\(problem)") } }
        #expect(store.metadata(forTag: "repos") == nil)
        #expect(problems.value.count == 1)
        #expect(problems.value.first?.contains("could not be read") == true)
        try store.setMetadata(FetchMetadata(lastFetched: Date(timeIntervalSince1970: 5)), forTag: "repos")
        #expect(
            FileFetchMetadataStore(url: file).metadata(forTag: "repos")?.lastFetched == Date(timeIntervalSince1970: 5)
        )
    }

    @Test func anUnwritableLocationThrowsReportsAndKeepsTheValueInMemory() throws {
        // A regular file where the directory should be: no user, root included, can write there.
        let blocker = try temporaryFile().deletingLastPathComponent()
        try FileManager.default.createDirectory(
            at: blocker.deletingLastPathComponent(),
            withIntermediateDirectories: true
        )
        try Data("file".utf8).write(to: blocker)
        let problems = Locked<[String]>([])
        let store = FileFetchMetadataStore(url: blocker.appendingPathComponent("metadata.json")) { problem in
            problems.withLock { $0.append("\(problem)") }
        }
        #expect(throws: (any Error).self) {
            try store.setMetadata(FetchMetadata(lastFetched: Date(timeIntervalSince1970: 9)), forTag: "repos")
        }
        #expect(store.metadata(forTag: "repos")?.lastFetched == Date(timeIntervalSince1970: 9))
        #expect(problems.value.first?.contains("could not be written") == true)
    }

    @Test func twoStoresOnOneFileKeepAndSeeEachOthersTags() throws {
        let file = try temporaryFile()
        let first = FileFetchMetadataStore(url: file)
        let second = FileFetchMetadataStore(url: file)
        #expect(second.metadata(forTag: "first") == nil)
        try first.setMetadata(FetchMetadata(lastFetched: Date(timeIntervalSince1970: 1)), forTag: "first")
        try second.setMetadata(FetchMetadata(lastFetched: Date(timeIntervalSince1970: 2)), forTag: "second")
        #expect(first.metadata(forTag: "second")?.lastFetched == Date(timeIntervalSince1970: 2))
        #expect(second.metadata(forTag: "first")?.lastFetched == Date(timeIntervalSince1970: 1))

        // From several threads at once, too.
        let stores = [first, second]
        DispatchQueue.concurrentPerform(iterations: 40) { index in
            try? stores[index % 2].setMetadata(
                FetchMetadata(lastFetched: Date(timeIntervalSince1970: Double(index))),
                forTag: "tag-\(index)"
            )
            _ = stores[(index + 1) % 2].metadata(forTag: "tag-\(index)")
        }
        let reopened = FileFetchMetadataStore(url: file)
        let lost = (0..<40).filter {
            reopened.metadata(forTag: "tag-\($0)")?.lastFetched != Date(timeIntervalSince1970: Double($0))
        }
        #expect(lost.isEmpty)
        #expect(reopened.metadata(forTag: "first")?.lastFetched == Date(timeIntervalSince1970: 1))
        #expect(reopened.metadata(forTag: "second")?.lastFetched == Date(timeIntervalSince1970: 2))

        try first.removeAll()
        #expect(second.metadata(forTag: "second") == nil)
    }

    @Test func aLockFileThatCannotBeOpenedIsReportedAndTheWriteStillHappens() throws {
        let file = try temporaryFile()
        // A folder where the lock file should be: it cannot be opened for writing.
        try FileManager.default.createDirectory(
            at: file.deletingLastPathComponent().appendingPathComponent("metadata.json.lock"),
            withIntermediateDirectories: true
        )
        let problems = Locked<[String]>([])
        let store = FileFetchMetadataStore(url: file) { problem in problems.withLock { $0.append("\(problem)") } }
        try store.setMetadata(FetchMetadata(lastFetched: Date(timeIntervalSince1970: 3)), forTag: "repos")
        #expect(problems.value.count == 1)
        #expect(problems.value.first?.contains("metadata.json.lock could not be taken") == true)
        #expect(
            FileFetchMetadataStore(url: file).metadata(forTag: "repos")?.lastFetched == Date(timeIntervalSince1970: 3)
        )
    }

    @Test func removeAllForgetsEveryTagDurably() throws {
        let file = try temporaryFile()
        let store = FileFetchMetadataStore(url: file)
        try store.setMetadata(FetchMetadata(lastFetched: Date()), forTag: "a")
        try store.setMetadata(FetchMetadata(lastFetched: Date()), forTag: "b")
        try store.removeAll()
        #expect(store.metadata(forTag: "a") == nil)
        #expect(FileFetchMetadataStore(url: file).metadata(forTag: "b") == nil)
    }

    @Test func tellerClearForgetsEverythingAndAnUnremovableStoreIsLoggedNotThrown() {
        let store = InMemoryFetchMetadataStore(["a": FetchMetadata(lastFetched: Date())])
        let teller = Teller(metadataStore: store)
        teller.clear()
        #expect(store.metadata(forTag: "a") == nil)

        struct FailingStore: FetchMetadataStore {
            func metadata(forTag tag: String) -> FetchMetadata? { nil }
            func setMetadata(_ metadata: FetchMetadata?, forTag tag: String) throws {}
            func removeAll() throws { throw TestError(5) }
        }
        let log = Locked<[String]>([])
        let failing = Teller(metadataStore: FailingStore(), logger: { event in log.withLock { $0.append("\(event)") } })
        failing.clear()
        #expect(log.value == ["clear() could not remove the stored metadata: TestError(5)"])
    }

    @Test func theDefaultLocationIsThisProgramsFolderInTheUsersDataDirectory() {
        let path = FileFetchMetadataStore.defaultURL.path
        #expect(path.hasSuffix("/\(FileFetchMetadataStore.defaultProgramIdentifier)/Teller/fetch-metadata.json"))
    }
}
