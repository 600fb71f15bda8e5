import Foundation
import Teller
@_spi(TellerInternals) import TellerRx
import TellerTestSupport
import Testing

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// Corrupt and unreadable files, unwritable folders, failed writes and invalid limits: reported
/// or thrown with a clear message, never a crash, and never a lost value.
@Suite struct FileCacheStoreBadInputTests {
    let env = VirtualTeller()
    let folder = TemporaryFolder()

    @Test func aCorruptFileIsReportedAndTreatedAsNoCacheUntilTheNextSave() throws {
        defer { folder.remove() }
        let store = try FileCacheStore<[String]>(directory: folder.url, teller: env.teller)
        try store.save(["a"], tag: "repos")
        let file = try #require(folder.cacheFiles().first)
        try Data("{\"tag\":\"repos\",\"version\":1,\n\"value\":[\"a\", tru".utf8).write(to: file)

        #expect(store.load(tag: "repos") == nil)
        let log = env.log.value
        #expect(log.count == 1)
        #expect(log.first?.contains("could not be decoded") == true, "\(log)")
        #expect(log.first?.contains(file.lastPathComponent) == true, "\(log)")

        try store.save(["b"], tag: "repos")
        #expect(store.load(tag: "repos") == ["b"])
    }

    @Test func aFileOfAnotherValueTypeIsReportedAndTreatedAsNoCache() throws {
        defer { folder.remove() }
        try FileCacheStore<[String]>(directory: folder.url, teller: env.teller).save(["a"], tag: "repos")
        // The app's model changed between launches.
        let changed = try FileCacheStore<[Int]>(directory: folder.url, teller: env.teller)

        #expect(changed.load(tag: "repos") == nil)
        #expect(env.log.value.contains { $0.contains("could not be decoded as Array<Int>") }, "\(env.log.value)")
    }

    @Test func anUnreadableFileIsReportedAndTreatedAsNoCache() throws {
        defer { folder.remove() }
        let store = try FileCacheStore<[String]>(directory: folder.url, teller: env.teller)
        try store.save(["a"], tag: "repos")
        // A folder where the file should be: opening works, reading fails (as root too).
        let file = try #require(folder.cacheFiles().first)
        try FileManager.default.removeItem(at: file)
        try FileManager.default.createDirectory(at: file, withIntermediateDirectories: false)

        #expect(store.load(tag: "repos") == nil)
        #expect(env.log.value.contains { $0.contains("could not be read") }, "\(env.log.value)")
    }

    @Test func aFileThatIsNotJSONAtAllIsTreatedAsNoCache() throws {
        defer { folder.remove() }
        let store = try FileCacheStore<String>(directory: folder.url, teller: env.teller)
        try store.save("a", tag: "repos")
        let file = try #require(folder.cacheFiles().first)
        try Data([0xFF, 0x00, 0x0A, 0x7B]).write(to: file)

        #expect(store.load(tag: "repos") == nil)
        #expect(env.log.value.count == 1)
    }

    @Test func aValueThatCannotBeEncodedThrowsAndLeavesTheOldFile() throws {
        defer { folder.remove() }
        let store = try FileCacheStore<[Double]>(directory: folder.url, teller: env.teller)
        try store.save([1.5], tag: "numbers")
        let before = try Data(contentsOf: try #require(folder.cacheFiles().first))

        // JSON has no NaN: the encoder refuses it before anything is written.
        let error = #expect(throws: FileCacheStoreError.self) { try store.save([.nan], tag: "numbers") }
        guard case .cannotEncode(let tag, _)? = error else {
            Issue.record("expected cannotEncode, got \(String(describing: error))")
            return
        }
        #expect(tag == "numbers")
        #expect(store.load(tag: "numbers") == [1.5])
        #expect(try Data(contentsOf: try #require(folder.cacheFiles().first)) == before)
    }

    // Root writes into a read-only folder regardless; `saveIntoAFolderThatIsGoneThrowsAClearError`
    // fails a write as root too.
    @Test(.enabled(if: geteuid() != 0, "permissions do not stop root"))
    func aWriteThatFailsLeavesTheOldFileAndNoTemporaryFile() throws {
        defer { folder.remove() }
        let store = try FileCacheStore<[String]>(directory: folder.url, teller: env.teller)
        try store.save(["old"], tag: "repos")
        chmod(folder.url.path, 0o500)
        defer { chmod(folder.url.path, 0o700) }

        let error = #expect(throws: FileCacheStoreError.self) { try store.save(["new"], tag: "repos") }
        #expect(error?.description.contains("could not be written to \(folder.url.path)") == true)
        #expect(store.load(tag: "repos") == ["old"])
        #expect(folder.names().filter { $0.hasSuffix(".tmp") }.isEmpty)
    }

    @Test func saveIntoAFolderThatIsGoneThrowsAClearError() throws {
        defer { folder.remove() }
        let store = try FileCacheStore<[String]>(directory: folder.child("cache"), teller: env.teller)
        // The folder was replaced by a file: no write can succeed, whoever runs the test.
        try FileManager.default.removeItem(at: folder.child("cache"))
        try Data().write(to: folder.child("cache"))

        let error = #expect(throws: FileCacheStoreError.self) { try store.save(["a"], tag: "repos") }
        guard case .cannotWrite(let tag, let path, _)? = error else {
            Issue.record("expected cannotWrite, got \(String(describing: error))")
            return
        }
        #expect(tag == "repos")
        #expect(path.hasPrefix(folder.child("cache").path))
        #expect(error?.description.contains("Check that the cache folder is writable") == true)
    }

    @Test func aReadOnlyFolderThrowsFromSave() throws {
        defer { folder.remove() }
        let readOnly: URL
        if geteuid() != 0 {
            try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true)
            chmod(folder.url.path, 0o500)
            readOnly = folder.url
        } else if FileManager.default.fileExists(atPath: "/proc/self") {
            // Root ignores permissions; nobody can create files in procfs.
            readOnly = URL(fileURLWithPath: "/proc", isDirectory: true)
        } else {
            return
        }
        defer { chmod(folder.url.path, 0o700) }
        let store = try FileCacheStore<[String]>(directory: readOnly, teller: env.teller)

        let error = #expect(throws: FileCacheStoreError.self) { try store.save(["a"], tag: "repos") }
        #expect(
            error?.description.contains("could not be written to \(readOnly.path)") == true,
            "\(String(describing: error))"
        )
        #expect(store.load(tag: "repos") == nil)
    }

    @Test func aFolderThatCannotBeCreatedThrowsFromInit() throws {
        defer { folder.remove() }
        try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true)
        let file = folder.url.appendingPathComponent("a-file")
        try Data().write(to: file)

        let error = #expect(throws: FileCacheStoreError.self) {
            _ = try FileCacheStore<Int>(directory: file.appendingPathComponent("cache"), teller: env.teller)
        }
        guard case .cannotCreateFolder(let path, _)? = error else {
            Issue.record("expected cannotCreateFolder, got \(String(describing: error))")
            return
        }
        #expect(path == file.appendingPathComponent("cache").path)
        #expect(error?.description.contains("could not be created") == true)
    }

    @Test func aNewStoreRemovesWhatACrashedWriteLeftAndNothingElse() throws {
        defer { folder.remove() }
        try FileCacheStore<Int>(directory: folder.url, teller: env.teller).save(1, tag: "a")
        let cacheFile = try #require(folder.cacheFiles().first).lastPathComponent
        let leftovers = [".\(cacheFile).4242.\(UUID().uuidString).tmp"]
        let others = [".fetch-metadata.json.4242.\(UUID().uuidString).tmp", ".hidden", "notes.txt"]
        for name in leftovers + others { try Data("x".utf8).write(to: folder.url.appendingPathComponent(name)) }

        let relaunched = try FileCacheStore<Int>(directory: folder.url, teller: env.teller)
        #expect(Set(folder.names()) == Set([cacheFile, ".lock"] + others))
        #expect(relaunched.load(tag: "a") == 1)
    }

    @Test func limitsThatMakeNoSenseAreRejected() {
        defer { folder.remove() }
        #expect(throws: FileCacheStoreError.invalidLimit("maxTotalBytes must be at least 1 byte, not 0")) {
            _ = try FileCacheStore<Int>(directory: folder.url, maxTotalBytes: 0, teller: env.teller)
        }
        #expect(throws: FileCacheStoreError.self) {
            _ = try FileCacheStore<Int>(
                directory: folder.url,
                maxUnusedAge: Period(unit: -1, component: .day),
                teller: env.teller
            )
        }
    }
}
