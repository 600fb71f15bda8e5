import Foundation
import Teller
import Testing

/// Two programs of one user on Teller's default metadata file and default cache folder (two
/// differently named executables, as two command-line tools or two non-sandboxed Mac apps are):
/// each keeps its own fetch times and files.
@Suite struct PerProgramDefaultsTests {
    @Test func twoProgramsNeverSeeEachOthersFetchTimesOrCacheFilesAndOnesClearLeavesTheOtherAlone() async throws {
        let programs = try #require(try TwoPrograms(), "TellerProgramChild was not built")
        defer { programs.remove() }

        let fetchedByA = try await programs.run("program-a", "fetch", "alpha").get()
        #expect(fetchedByA.first?.hasPrefix("cache [\"alpha\"] fetched ") == true, "\(fetchedByA)")
        // Program B never fetched: no fetch time and no data of A's.
        #expect(try await programs.run("program-b", "show").get() == ["noCache"])

        let fetchedByB = try await programs.run("program-b", "fetch", "beta").get()
        #expect(fetchedByB.first?.hasPrefix("cache [\"beta\"] fetched ") == true, "\(fetchedByB)")
        // A still shows its own data and its own fetch time.
        #expect(try await programs.run("program-a", "show").get() == fetchedByA)

        #expect(try await programs.run("program-b", "clear").get() == ["cleared"])
        #expect(try await programs.run("program-b", "show").get() == ["noCache"])
        #expect(try await programs.run("program-a", "show").get() == fetchedByA)
    }

    @Test func eachProgramsDefaultFilesAreInItsOwnFolderUnderTheGivenHome() async throws {
        let programs = try #require(try TwoPrograms(), "TellerProgramChild was not built")
        defer { programs.remove() }

        let a = try await programs.run("program-a", "where").get()
        let b = try await programs.run("program-b", "where").get()
        let root = programs.root.path
        #expect(a == ["\(root)/data/program-a/Teller/fetch-metadata.json", "\(root)/cache/program-a/Teller/repos"])
        #expect(b == ["\(root)/data/program-b/Teller/fetch-metadata.json", "\(root)/cache/program-b/Teller/repos"])
    }

    @Test func anExplicitProgramIdentifierNamesOneSharedFolder() {
        let app = FileFetchMetadataStore.defaultURL(programIdentifier: "com.example.app")
        #expect(app.pathComponents.suffix(3) == ["com.example.app", "Teller", "fetch-metadata.json"])
        let cache = FileCacheStore<[String]>.defaultDirectory(named: "repos", programIdentifier: "com.example.app")
        #expect(cache.pathComponents.suffix(3) == ["com.example.app", "Teller", "repos"])
    }

    @Test func anIdentifierThatIsNotOneFolderNameStaysInsideTheBaseFolder() {
        let base = FileFetchMetadataStore.defaultURL(programIdentifier: "x").deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        for identifier in ["../../etc", "..", "", "a/b"] {
            let url = FileFetchMetadataStore.defaultURL(programIdentifier: identifier)
            #expect(url.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent() == base)
            #expect(!url.pathComponents.contains(".."))
        }
    }
}
