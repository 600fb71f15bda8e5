import Foundation
import Teller
import Testing

/// A process killed between writing the metadata file's temporary copy and renaming it leaves
/// that copy behind. The next store to write the file removes such leftovers, and nothing else.
@Suite struct MetadataTemporaryFileSweepTests {
    @Test func theFirstWriteRemovesTemporaryFilesOfCrashedWritesAndLeavesOtherFilesAlone() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("teller-sweep-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("metadata.json")
        let leftovers = [".metadata.json.4242.\(UUID().uuidString).tmp", ".metadata.json.7.\(UUID().uuidString).tmp"]
        // Alike but not a write's temporary file of this metadata file: another file's, a name
        // without a process number or UUID, the app's own file.
        let others = [
            ".metadata.json.backup.tmp", ".metadata.json.x.\(UUID().uuidString).tmp",
            ".other.json.4242.\(UUID().uuidString).tmp", "notes.txt",
        ]
        for name in leftovers + others {
            try Data("x".utf8).write(to: directory.appendingPathComponent(name))
        }

        let store = FileFetchMetadataStore(url: file)
        try store.setMetadata(FetchMetadata(lastFetched: Date()), forTag: "repos")

        let remaining = Set(try FileManager.default.contentsOfDirectory(atPath: directory.path))
        #expect(remaining.isDisjoint(with: leftovers))
        #expect(remaining.isSuperset(of: others))
        #expect(remaining.contains("metadata.json"))
        #expect(FileFetchMetadataStore(url: file).metadata(forTag: "repos") != nil)
    }
}
