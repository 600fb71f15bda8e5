import Foundation
import Teller
import Testing

/// `FetchMetadataStore.removeMetadata(tagsUnder:)`: the stores forget a branch of tags and keep
/// every other tag, on disk and in memory.
@Suite struct MetadataBranchRemovalTests {
    private let tags = ["users/42", "users/42/posts", "users/42/posts/7", "users/420", "notes"]
    private let remaining = ["users/420", "notes"]

    private func temporaryFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("teller-branch-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test func aFileStoreForgetsTheBranchDurablyAndKeepsEveryOtherTag() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("metadata.json")
        let store = FileFetchMetadataStore(url: file)
        for tag in tags { try store.setMetadata(FetchMetadata(lastFetched: Date()), forTag: tag) }
        try store.removeMetadata(tagsUnder: "users/42")
        let reopened = FileFetchMetadataStore(url: file)
        #expect(tags.filter { reopened.metadata(forTag: $0) != nil } == remaining)
        #expect(tags.filter { store.metadata(forTag: $0) != nil } == remaining)
    }

    @Test func anUnwritableFileStoreForgetsTheBranchInMemoryAndKeepsTagsSetAfterIt() throws {
        // A regular file where the folder should be: nothing can be written there.
        let blocker = try temporaryFolder().appendingPathComponent("blocker")
        defer { try? FileManager.default.removeItem(at: blocker.deletingLastPathComponent()) }
        try Data("file".utf8).write(to: blocker)
        let store = FileFetchMetadataStore(url: blocker.appendingPathComponent("metadata.json"))
        for tag in tags { try? store.setMetadata(FetchMetadata(lastFetched: Date()), forTag: tag) }
        #expect(throws: (any Error).self) { try store.removeMetadata(tagsUnder: "users/42") }
        try? store.setMetadata(FetchMetadata(lastFetched: Date()), forTag: "users/42/likes")
        #expect(tags.filter { store.metadata(forTag: $0) != nil } == remaining)
        #expect(store.metadata(forTag: "users/42/likes") != nil)
    }

    @Test func anInMemoryStoreForgetsTheBranchOnly() {
        let store = InMemoryFetchMetadataStore(
            Dictionary(uniqueKeysWithValues: tags.map { ($0, FetchMetadata(lastFetched: Date())) })
        )
        store.removeMetadata(tagsUnder: "users/42")
        #expect(tags.filter { store.metadata(forTag: $0) != nil } == remaining)
    }
}
