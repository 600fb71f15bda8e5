import Foundation
import Testing

/// The DocC article SwiftConcurrencyAndSwiftUI.md shows only compiled code: each of its Swift
/// snippets appears word for word (whitespace and `private` aside) in
/// Readme/ReadmeSwiftConcurrencyGuideTests.swift, which compiles and runs it.
@Suite struct SwiftConcurrencyArticleTests {
    @Test func everySnippetOfTheArticleIsCompiledByTheGuideTests() throws {
        let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        let root = tests.deletingLastPathComponent().deletingLastPathComponent()
        let article = try String(
            contentsOf: root.appendingPathComponent("Sources/Teller/Teller.docc/SwiftConcurrencyAndSwiftUI.md"),
            encoding: .utf8
        )
        let compiled = try String(
            contentsOf: tests.appendingPathComponent("Readme/ReadmeSwiftConcurrencyGuideTests.swift"),
            encoding: .utf8
        )

        // Each piece after an opening fence starts with a snippet, which ends at the next fence.
        let snippets = article.components(separatedBy: "```swift\n").dropFirst()
            .compactMap { $0.components(separatedBy: "```").first }
        #expect(snippets.count == 3)
        for snippet in snippets {
            let firstLine = snippet.prefix { $0 != "\n" }
            let isCompiled = squeezed(compiled).contains(squeezed(snippet))
            #expect(isCompiled, "article snippet not compiled word for word: \(firstLine)")
        }
    }

    private func squeezed(_ code: String) -> String {
        code.replacingOccurrences(of: "private ", with: "").filter { !$0.isWhitespace }
    }
}
