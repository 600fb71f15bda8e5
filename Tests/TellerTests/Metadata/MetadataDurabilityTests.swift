import Dispatch
import Foundation
import Teller
@_spi(TellerInternals) import TellerRx
import TellerTestSupport
import Testing

/// The metadata file survives SIGKILL at any moment: every restart reads a whole file holding
/// at least every write the killed process had acknowledged.
@Suite struct MetadataDurabilityTests {
    @Test func fileIsWholeAfterHundredsOfKillsAtRandomMoments() async throws {
        let writer = try #require(
            MetadataChildProcess.executable(),
            "TellerMetadataCrashWriter was not built next to the tests"
        )
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("teller-durability-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("metadata.json")
        // Seconds of process spawning and waiting: run them on a Dispatch thread, not on one of
        // the two cooperative threads that every other test shares.
        let failures = await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(returning: Self.killRepeatedly(writer: writer, file: file, rounds: 300))
            }
        }
        #expect(failures.isEmpty, "\(failures)")
        let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
    }

    /// Starts the writer, waits for a few acknowledged writes, kills it at a random moment and
    /// reopens the file, `rounds` times. Returns what went wrong (empty when nothing did).
    private static func killRepeatedly(writer: URL, file: URL, rounds: Int) -> [String] {
        var generator = SystemRandomNumberGenerator()
        for round in 0..<rounds {
            let process = Process()
            process.executableURL = writer
            process.arguments = [file.path]
            let output = Pipe()
            process.standardOutput = output
            do {
                try process.run()
            } catch {
                return ["round \(round): could not start the writer: \(error)"]
            }

            // Wait for a random number of acknowledged writes, then kill at a random moment.
            let wanted = Int.random(in: 1...4, using: &generator)
            let acknowledged = readAcknowledgements(from: output.fileHandleForReading, count: wanted)
            usleep(UInt32.random(in: 0...400, using: &generator))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()

            let problems = ProblemLog()
            let store = FileFetchMetadataStore(url: file) { problems.add($0.description) }
            let counter = store.metadata(forTag: "counter").map { Int($0.lastFetched.timeIntervalSince1970) } ?? 0
            if !problems.entries.isEmpty {
                return ["round \(round): \(problems.entries)"]
            }
            if counter < acknowledged {
                return ["round \(round): acknowledged \(acknowledged) but read \(counter)"]
            }
        }
        return []
    }

    /// Reads "wrote N" lines until `count` arrived; returns the last N (0 if the child died).
    private static func readAcknowledgements(from handle: FileHandle, count: Int) -> Int {
        var buffer = Data()
        var seen = 0
        var last = 0
        while seen < count {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            buffer.append(chunk)
            while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                buffer.removeSubrange(buffer.startIndex...newline)
                if line.hasPrefix("wrote "), let value = Int(line.dropFirst(6)) {
                    last = value
                    seen += 1
                }
            }
        }
        return last
    }
}

private final class ProblemLog: Sendable {
    private let stored = LockedState<[String]>([])

    func add(_ entry: String) {
        stored.withLock { $0.append(entry) }
    }

    var entries: [String] {
        stored.value
    }
}
