import Foundation

/// A DocC article of this package, for the tests that show its Swift snippets are compiled:
/// each snippet must appear word for word in a test file that compiles (and runs) it.
package struct DocCArticle {
    /// The article's text.
    package let text: String

    /// Reads `Sources/<module>/<module>.docc/<name>.md`.
    ///
    /// - Throws: When the file cannot be read.
    package init(module: String, name: String) throws {
        // This file is Tests/TellerTestSupport/DocCArticle.swift.
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let url = root.appendingPathComponent("Sources/\(module)/\(module).docc/\(name).md")
        text = try String(contentsOf: url, encoding: .utf8)
    }

    /// The code of each ```swift block, in order.
    package var swiftSnippets: [String] {
        text.components(separatedBy: "```swift\n").dropFirst().compactMap { $0.components(separatedBy: "```").first }
    }

    /// The snippets that do not appear in the Swift file at `path` (whitespace and the
    /// `private`s a test adds so its names cannot clash aside).
    ///
    /// - Throws: When the file cannot be read.
    package func snippetsMissing(fromFile path: String) throws -> [String] {
        let source = Self.squeezed(try String(contentsOf: URL(fileURLWithPath: path), encoding: .utf8))
        return swiftSnippets.filter { !source.contains(Self.squeezed($0)) }
    }

    private static func squeezed(_ code: String) -> String {
        code.replacingOccurrences(of: "private ", with: "").filter { !$0.isWhitespace }
    }
}
