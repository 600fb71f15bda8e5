import Foundation
import Teller

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The metadata file's crash safety at scale: `--kill-loop N` starts this same executable as a
/// writer N times, SIGKILLs it at a random moment while it writes, and reopens the file each
/// time. Every reopening must find a whole file holding every write the writer acknowledged.
/// The test suite runs a few hundred rounds; this runs as many as asked.
enum MetadataKillLoop {
    /// The hidden mode the loop starts: write metadata to `file` until killed, printing
    /// "wrote N" after each write returns.
    static let writerFlag = "--metadata-writer"

    static func runWriter(file: String) -> Never {
        let store = FileFetchMetadataStore(url: URL(fileURLWithPath: file))
        // Many tags make each write large enough for a kill to land mid-write now and then.
        let padding = String(repeating: "x", count: 200)
        var counter = Int(store.metadata(forTag: "counter")?.lastFetched.timeIntervalSince1970 ?? 0)
        while true {
            counter += 1
            let metadata = FetchMetadata(lastFetched: Date(timeIntervalSince1970: Double(counter)))
            do {
                try store.setMetadata(metadata, forTag: "counter")
                try store.setMetadata(metadata, forTag: "tag-\(counter % 50)-\(padding)")
            } catch {
                printError("write failed: \(error)")
                exit(1)
            }
            FileHandle.standardOutput.write(Data("wrote \(counter)\n".utf8))
        }
    }

    /// Runs `rounds` kills and prints a summary; exits with 1 at the first broken file.
    static func run(rounds: Int) -> Never {
        let directory = KillLoopSupport.makeFolder(prefix: "teller-kill-loop")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("metadata.json")
        let started = ContinuousClock.now
        var generator = SystemRandomNumberGenerator()
        var acknowledgedWrites = 0
        for round in 1...rounds {
            let (process, output) = KillLoopSupport.startWriter(flag: writerFlag, file: file, round: round)
            let acknowledged = readAcknowledgements(from: output, count: .random(in: 1...4))
            usleep(.random(in: 0...400, using: &generator))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()

            // Counts what the store reports: a corrupt or unreadable file is reported, not thrown.
            let problems = Accumulator()
            let store = FileFetchMetadataStore(url: file) { problem in
                printError("round \(round): \(problem)")
                problems.value += 1
            }
            let counter = store.metadata(forTag: "counter").map { Int($0.lastFetched.timeIntervalSince1970) } ?? 0
            guard problems.value == 0, counter >= acknowledged else {
                printError("round \(round): read \(counter) after \(acknowledged) acknowledged writes")
                exit(1)
            }
            acknowledgedWrites = acknowledged
            if round % 100 == 0 { printError("\(round) kills…") }
        }
        let elapsed = ContinuousClock.now - started
        print("\(rounds) SIGKILLs during metadata writes in \(elapsed.formatted(.units(allowed: [.seconds]))):")
        print("every restart read a whole file holding every acknowledged write (\(acknowledgedWrites) in all).")
        exit(0)
    }

    /// Reads "wrote N" lines until `count` arrived; returns the last N (0 if the writer died).
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
