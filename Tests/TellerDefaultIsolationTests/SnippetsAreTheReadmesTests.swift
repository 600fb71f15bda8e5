import Foundation
import Testing

/// This target compiles the README's snippets as a main-actor app target would, so the copies
/// must stay the README's: every line of each snippet named here (whitespace and `private`
/// aside) is in one of this folder's files.
@Suite struct SnippetsAreTheReadmesTests {
    /// The first lines of the README snippets this target copies.
    private static let copied = [
        "import Dispatch",
        "let maxAge = Period(unit: 1, component: .day)",
        "try repository.refresh(force: true)",
        "try repository.refreshIfNoCache()",
        "extension ReposDataSource {",
        "struct ReposPage: PagingRepositoryRequirements {",
        "struct RepoRow: Sendable {",
        "final class ReposDataSource: CodableRepositoryDataSource {",
        "teller.logger = { event in",
        "func showRepos(_ repository: TellerRepository<ReposDataSource>) async throws {",
        "final class AsyncReposDataSource: AsyncRepositoryDataSource {",
        "func watchRepos(_ repository: TellerRepository<ReposDataSource>) async throws {",
        "@Test func statesPlayOutOnVirtualTime() async throws {",
        "@Test func showsTheCachedReposWhileRefreshing() throws {",
    ]

    @Test func everyCopiedSnippetLineIsInThisTarget() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        let root = folder.deletingLastPathComponent().deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let sources = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasSuffix(".swift") }
            .map { Self.normalized(try String(contentsOf: folder.appendingPathComponent($0), encoding: .utf8)) }
            .joined()

        let snippets = Self.swiftSnippets(in: readme).filter { snippet in
            Self.copied.contains { snippet.hasPrefix($0) || snippet.hasPrefix("nonisolated " + $0) }
        }
        #expect(snippets.count >= Self.copied.count)
        for snippet in snippets {
            let missing = snippet.split(separator: "\n").map { Self.normalized(String($0)) }
                .filter { !$0.isEmpty && !sources.contains($0) }
            #expect(missing.isEmpty, "README snippet \(snippet.prefix(60)) has lines this target lacks: \(missing)")
        }
    }

    private static func swiftSnippets(in markdown: String) -> [String] {
        markdown.components(separatedBy: "```swift\n").dropFirst()
            .compactMap { $0.components(separatedBy: "```").first }
    }

    private static func normalized(_ code: String) -> String {
        code.replacingOccurrences(of: "private ", with: "").filter { !$0.isWhitespace }
    }
}
