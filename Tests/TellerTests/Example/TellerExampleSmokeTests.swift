import Dispatch
import Foundation
import TellerTestSupport
import Testing

/// `swift run TellerExample` does what its README shows: runs the built executable without a
/// keyboard against a temporary cache directory and a fast simulated server.
@Suite struct TellerExampleSmokeTests {
    @Test func secondRunStartsFromTheCacheTheFirstRunSaved() async throws {
        let cache = try CacheDirectory()
        defer { cache.remove() }
        let runs = try await Self.runExample([cache.options + ["--once"], cache.options + ["--once"]])

        #expect(runs[0].status == 0)
        #expect(runs[0].lines.contains("no cache, first fetch…"), "\(runs[0].output)")
        #expect(runs[0].lines.contains { $0.contains("first fetch done —") }, "\(runs[0].output)")
        #expect(runs[1].status == 0)
        #expect(!runs[1].output.contains("no cache"), "\(runs[1].output)")
        // The cache and its age came from disk: shown while the launch refresh runs.
        #expect(
            runs[1].lines.contains {
                $0.contains("cache: 10 repos") && $0.contains("fetched") && $0.hasSuffix("refreshing…")
            },
            "\(runs[1].output)"
        )
        #expect(runs[1].lines.contains { $0.contains("refresh done —") }, "\(runs[1].output)")
    }

    @Test func failingServerKeepsShowingTheCachedRepos() async throws {
        let cache = try CacheDirectory()
        defer { cache.remove() }
        let runs = try await Self.runExample([cache.options + ["--once"], cache.options + ["--once", "--fail"]])

        #expect(runs[1].status == 0)
        #expect(runs[1].output.contains("1. teller-ios"), "\(runs[1].output)")
        #expect(
            runs[1].lines.contains { $0.contains("cache: 10 repos") && $0.contains("refresh failed: HTTP 503") },
            "\(runs[1].output)"
        )
    }

    @Test func resetStartsOverAndPagingLoadsEveryPage() async throws {
        let cache = try CacheDirectory()
        defer { cache.remove() }
        let runs = try await Self.runExample([
            cache.options + ["--once"],
            cache.options + ["--reset", "--next-pages", "3", "--refresh"],
        ])

        let output = runs[1].output
        #expect(runs[1].status == 0)
        #expect(runs[1].lines.contains("no cache, first fetch…"), "\(output)")
        #expect(runs[1].lines.contains { $0.contains("cache: 25 repos (no more pages)") }, "\(output)")
        #expect(runs[1].lines.contains { $0.contains("n: no more pages") }, "\(output)")
        // The forced refresh fetched the first page again: the list starts over at 10 repos.
        #expect(runs[1].lines.last { $0.contains("cache:") }?.contains("cache: 10 repos") == true, "\(output)")
    }

    @Test func retriesCarryAFirstFetchThroughAServerThatFailsTwice() async throws {
        let cache = try CacheDirectory()
        defer { cache.remove() }
        let runs = try await Self.runExample([cache.options + ["--once", "--retry", "--fail-requests", "2"]])

        let lines = runs[0].lines
        #expect(runs[0].status == 0)
        #expect(lines.contains { $0.contains("attempt 1 failed (HTTP 503") && $0.contains("retrying in") }, "\(lines)")
        #expect(lines.contains { $0.contains("attempt 2 failed (HTTP 503") }, "\(lines)")
        #expect(!lines.contains { $0.contains("first fetch failed") }, "\(lines)")
        #expect(lines.contains { $0.contains("first fetch done —") }, "\(lines)")
    }

    @Test func invalidatingRefreshesTheShownListAtOnce() async throws {
        let cache = try CacheDirectory()
        defer { cache.remove() }
        let runs = try await Self.runExample([cache.options + ["--once"], cache.options + ["--invalidate"]])

        let lines = runs[1].lines
        #expect(runs[1].status == 0)
        let invalidated = try #require(lines.firstIndex { $0.hasPrefix("i: invalidated") }, "\(lines)")
        // The cache is seconds old, yet the invalidation fetches it again.
        #expect(lines[invalidated...].contains { $0.contains("refresh done —") }, "\(lines)")
    }

    /// What one run printed and how it ended.
    struct Run {
        let output: String
        let status: Int32

        /// The lines without their time stamps.
        var lines: [String] {
            output.split(separator: "\n").map { line in
                guard line.hasPrefix("["), let end = line.firstIndex(of: "]") else { return String(line) }
                return line[line.index(after: end)...].trimmingCharacters(in: .whitespaces)
            }
        }
    }

    /// A fresh cache directory for one test.
    struct CacheDirectory {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("teller-example-\(UUID())")

        init() throws {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        }

        /// A fast simulated server, this directory, and a time limit in case a run hangs.
        var options: [String] {
            ["--cache-dir", url.path, "--latency-ms", "20", "--exit-after", "60"]
        }

        func remove() {
            try? FileManager.default.removeItem(at: url)
        }
    }

    /// Runs the example once per argument list, one run after the other; the last run reads
    /// `input` as its keys (from a pipe: each once the one before settled).
    static func runExample(_ argumentLists: [[String]], input: String? = nil) async throws -> [Run] {
        let example = try #require(executable(), "TellerExample was not built next to the tests")
        // Process launches and waits: run them on a Dispatch thread, not on one of the
        // cooperative threads that every other test shares.
        return await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                let runs = argumentLists.enumerated().map { index, arguments in
                    run(example, arguments, input: index == argumentLists.count - 1 ? input : nil)
                }
                continuation.resume(returning: runs)
            }
        }
    }

    private static func run(_ executable: URL, _ arguments: [String], input: String?) -> Run {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let keys = Pipe()
        process.standardInput = input == nil ? FileHandle.nullDevice : keys
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        do {
            try process.run()
        } catch {
            return Run(output: "could not start \(executable.path): \(error)", status: -1)
        }
        if let input {
            // A few bytes fit in the pipe's buffer; closing it is the end of input, which quits.
            keys.fileHandleForWriting.write(Data(input.utf8))
            try? keys.fileHandleForWriting.close()
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(output: String(decoding: data, as: UTF8.self), status: process.terminationStatus)
    }

    /// The executable SwiftPM built next to the test bundle (it is a dependency of the tests).
    private static func executable() -> URL? {
        builtExecutable(named: "TellerExample")
    }
}
