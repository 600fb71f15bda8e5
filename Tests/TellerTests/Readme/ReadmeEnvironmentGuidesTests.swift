import Dispatch
import Foundation
import Teller
@_spi(TellerInternals) import TellerRx
import TellerTestSupport
import TellerTesting
import Testing

// The README's guides "Schedulers and threads", "Where fetch times are kept" and "Logging". Each
// snippet is copied verbatim into a function; the lines marked "around the snippet" are not in
// the README.

private typealias ReposRequirements = GuideReposRequirements
private typealias ReposDataSource = GuideReposDataSource

/// "Schedulers and threads" (around the snippet: the function and its return).
private func serverTellerSnippet() -> (Teller, TellerRepository<ReposDataSource>) {
    let teller = Teller(
        uiScheduler: SerialDispatchQueueScheduler(internalSerialQueueName: "teller.ui"),  // must be serial
        backgroundScheduler: ConcurrentDispatchQueueScheduler(qos: .userInitiated),
        fetchTimeout: .seconds(30)  // nil: no limit
    )
    let repository = TellerRepository(dataSource: ReposDataSource(), teller: teller)
    return (teller, repository)
}

/// "Where fetch times are kept", the store in a folder of your choice (around the snippet: the
/// function, its parameters and its return).
private func fileStoreSnippet(folder: URL, print: @escaping @Sendable (Any) -> Void) -> Teller {
    let store = FileFetchMetadataStore(url: folder.appendingPathComponent("fetch-metadata.json")) { problem in
        print("Teller: \(problem)")  // a corrupt or unwritable file, which Teller recovered from
    }
    let teller = Teller(metadataStore: store)
    return teller
}

/// "Where fetch times are kept", on sign-out. Compiled, never run: it would clear the metadata
/// file of the user running the tests.
private func signOutSnippet() {
    Teller.shared.clear()
}

/// "Logging" (around the snippet: the function and its parameters).
private func loggerSnippet(_ teller: Teller, print: @escaping @Sendable (Any) -> Void) {
    teller.logger = { event in
        switch event {
        case .refreshFailed(let tag, let error, let duration):
            print("Fetching \(tag) failed after \(duration): \(error)")
        case .saveFailed, .observeFailed, .metadataProblem:
            print("Teller: \(event)")
        default:
            break
        }
    }
}

@Suite struct ReadmeEnvironmentGuidesTests {
    @Test func serverTellerUsesTheGivenSchedulersAndTimeout() {
        let (teller, repository) = serverTellerSnippet()
        #expect(teller.fetchTimeout == .seconds(30))
        #expect(teller.uiScheduler is SerialDispatchQueueScheduler)
        #expect(teller.backgroundScheduler is ConcurrentDispatchQueueScheduler)
        #expect(repository.teller === teller)
    }

    @Test func fileStoreReportsACorruptFileTreatsItAsEmptyAndReplacesItOwnerOnly() throws {
        _ = signOutSnippet  // compiled, not run
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("readme-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("fetch-metadata.json")
        try Data("not json".utf8).write(to: file)
        let printed = PrintedLines()

        let teller = fileStoreSnippet(folder: folder, print: printed.record)

        #expect(teller.metadataStore.metadata(forTag: "Repos for octocat") == nil)
        #expect(printed.value.count == 1)
        #expect(
            printed.value.first?.hasPrefix("Teller: Teller's fetch metadata at \(file.path) could not be read") == true
        )
        let fetched = FetchMetadata(lastFetched: Date(timeIntervalSince1970: 1_000))
        try teller.metadataStore.setMetadata(fetched, forTag: "Repos for octocat")
        let reread = FileFetchMetadataStore(url: file)
        #expect(reread.metadata(forTag: "Repos for octocat") == fetched)
        let permissions = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int
        #expect(permissions == 0o600)
        teller.clear()
        #expect(FileFetchMetadataStore(url: file).metadata(forTag: "Repos for octocat") == nil)
    }

    @Test func loggerPrintsFailedRefreshesAndIgnoresTheRest() {
        let env = VirtualTeller()
        let printed = PrintedLines()
        loggerSnippet(env.teller, print: printed.record)
        let dataSource = ReposDataSource(fetch: { [env] in env.failingFetch(TestError(7), after: 10) })
        let repository = TellerRepository(dataSource: dataSource, teller: env.teller)
        env.scheduler.scheduleAt(100) { repository.requirements = ReposRequirements(username: "octocat") }
        withExtendedLifetime(repository) { env.scheduler.start() }

        #expect(printed.value.count == 1)
        #expect(printed.value.first?.hasPrefix("Fetching Repos for octocat failed after ") == true)
        #expect(printed.value.first?.hasSuffix(": TestError(7)") == true)
        #expect(env.log.value.isEmpty)  // the snippet replaced the environment's own logger
    }
}
