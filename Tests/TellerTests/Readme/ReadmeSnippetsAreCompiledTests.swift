import Foundation
import TellerTestSupport
import Testing

/// Every Swift snippet in README.md is compiled by a Readme test, so a snippet that stops
/// compiling fails the build:
/// - a plain snippet appears word for word in one of this folder's files (whitespace, trailing
///   commas and `private`, which the tests add so their copies cannot clash, are ignored);
/// - a snippet right after `<!-- snippet adapted in FILE -->` (top-level code a test must wrap
///   in functions) has each of its lines in FILE, a file of this folder.
@Suite struct ReadmeSnippetsAreCompiledTests {
    private struct Snippet {
        let code: String
        let adaptedIn: String?
    }

    @Test func everySwiftSnippetInTheReadmeIsCompiledByATest() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        let root = folder.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }
        var sources: [String: String] = [:]
        for file in files {
            sources[file] = Self.normalized(
                try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            )
        }
        let everything = sources.keys.sorted().compactMap { sources[$0] }.joined()

        let snippets = Self.swiftSnippets(in: readme)
        #expect(snippets.count >= 10, "found only \(snippets.count) Swift snippets in README.md")
        for snippet in snippets where !snippet.code.hasPrefix("// Package.swift") {
            let firstLine = snippet.code.split(separator: "\n").first.map(String.init) ?? ""
            guard let file = snippet.adaptedIn else {
                let isCompiled = everything.contains(Self.normalized(snippet.code))
                #expect(isCompiled, "README snippet not compiled word for word by a Readme test: \(firstLine)")
                continue
            }
            let source = try #require(sources[file], "README names \(file), which is not in \(folder.path)")
            let missing = snippet.code.split(separator: "\n").map { Self.normalized(String($0)) }
                .filter { !$0.isEmpty && !$0.hasPrefix("//") && !source.contains($0) }
            #expect(missing.isEmpty, "README snippet \(firstLine) has lines that \(file) lacks: \(missing)")
        }
    }

    /// The README's ```swift blocks, with the file named by a marker line right before one.
    private static func swiftSnippets(in markdown: String) -> [Snippet] {
        var snippets: [Snippet] = []
        var current: [Substring]?
        var adaptedIn: String?
        var previous = ""
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if current == nil, trimmed == "```swift" {
                current = []
                adaptedIn = adaptedFile(in: previous)
            } else if current != nil, trimmed == "```" {
                snippets.append(Snippet(code: current?.joined(separator: "\n") ?? "", adaptedIn: adaptedIn))
                current = nil
            } else {
                current?.append(line)
            }
            previous = trimmed
        }
        return snippets
    }

    /// `FILE` from `<!-- snippet adapted in FILE -->`.
    private static func adaptedFile(in line: String) -> String? {
        let prefix = "<!-- snippet adapted in "
        let suffix = " -->"
        guard line.hasPrefix(prefix), line.hasSuffix(suffix) else { return nil }
        return String(line.dropFirst(prefix.count).dropLast(suffix.count))
    }

    private static func normalized(_ code: String) -> String {
        code.replacingOccurrences(of: "private ", with: "")
            .filter { !$0.isWhitespace }
            .replacingOccurrences(of: ",)", with: ")")
            .replacingOccurrences(of: ",]", with: "]")
    }
}
