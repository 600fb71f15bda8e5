import Dispatch
import Foundation
import Teller
import TellerTestSupport
import Testing

/// Several processes share one metadata file (an app and its extension in an app group): none
/// loses another's tags, and each sees the others' writes.
@Suite struct MetadataSharingTests {
    @Test func processesWritingDifferentTagsAtOnceKeepEveryTag() async throws {
        let child = try #require(MetadataChildProcess.executable(), "TellerMetadataCrashWriter was not built")
        let file = try Self.temporaryFile()
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let count = 60
        // Process spawning and waiting: on a Dispatch thread, not a cooperative one.
        let failures = await Self.onDispatchThread { () -> [String] in
            let store = FileFetchMetadataStore(url: file)
            _ = store.metadata(forTag: "parent-0")
            let writers: [MetadataTagWriter]
            do {
                // Each child has read the (empty) file before any of the three starts writing.
                writers = try ["a", "b"].map {
                    try MetadataTagWriter(executable: child, file: file, prefix: $0, count: count)
                }
            } catch {
                return ["could not start a child: \(error)"]
            }
            writers.forEach { $0.go() }
            var failures: [String] = []
            for index in 0..<count {
                do {
                    try store.setMetadata(
                        FetchMetadata(lastFetched: Date(timeIntervalSince1970: Double(index))),
                        forTag: "parent-\(index)"
                    )
                } catch {
                    failures.append("parent write failed: \(error)")
                }
            }
            failures += writers.compactMap { $0.finish() }
            return failures
        }
        #expect(failures.isEmpty, "\(failures)")

        let reopened = FileFetchMetadataStore(url: file)
        let expected = ["a", "b", "parent"].flatMap { prefix in (0..<count).map { ("\(prefix)-\($0)", $0) } }
        let missing = expected.filter { tag, index in
            reopened.metadata(forTag: tag) != FetchMetadata(lastFetched: Date(timeIntervalSince1970: Double(index)))
        }.map(\.0)
        #expect(missing.count == 0, "\(missing.count) of \(3 * count) tags lost, among them \(missing.prefix(5))")
    }

    @Test func aStoreSeesTagsAnotherProcessWroteAfterTheStoreReadTheFile() async throws {
        let child = try #require(MetadataChildProcess.executable(), "TellerMetadataCrashWriter was not built")
        let file = try Self.temporaryFile()
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let store = FileFetchMetadataStore(url: file)
        try store.setMetadata(FetchMetadata(lastFetched: Date(timeIntervalSince1970: 100)), forTag: "before")
        #expect(store.metadata(forTag: "child-0") == nil)

        let failure = await Self.onDispatchThread { () -> String? in
            do {
                let writer = try MetadataTagWriter(executable: child, file: file, prefix: "child", count: 3)
                writer.go()
                return writer.finish()
            } catch {
                return "could not start the child: \(error)"
            }
        }
        #expect(failure == nil)

        // The child's writes, read through the store that was open all along.
        #expect(store.metadata(forTag: "child-0") == FetchMetadata(lastFetched: Date(timeIntervalSince1970: 0)))
        #expect(store.metadata(forTag: "child-2") == FetchMetadata(lastFetched: Date(timeIntervalSince1970: 2)))
        #expect(store.metadata(forTag: "before") == FetchMetadata(lastFetched: Date(timeIntervalSince1970: 100)))

        // And this store's next write keeps them.
        try store.setMetadata(FetchMetadata(lastFetched: Date(timeIntervalSince1970: 200)), forTag: "after")
        let reopened = FileFetchMetadataStore(url: file)
        #expect(reopened.metadata(forTag: "child-1") == FetchMetadata(lastFetched: Date(timeIntervalSince1970: 1)))
        #expect(reopened.metadata(forTag: "before") == FetchMetadata(lastFetched: Date(timeIntervalSince1970: 100)))
        #expect(reopened.metadata(forTag: "after") == FetchMetadata(lastFetched: Date(timeIntervalSince1970: 200)))
    }

    private static func temporaryFile() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("teller-sharing-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory.appendingPathComponent("metadata.json")
    }

    private static func onDispatchThread<Result: Sendable>(
        _ work: @escaping @Sendable () -> Result
    ) async -> Result {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: work()) }
        }
    }
}
