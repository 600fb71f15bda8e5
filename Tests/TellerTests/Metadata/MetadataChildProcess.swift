import Foundation
import TellerTestSupport

/// The `TellerMetadataCrashWriter` child executable, which the metadata tests run as a second
/// process writing to the same file.
enum MetadataChildProcess {
    /// The built child executable, looked for next to the test bundle.
    static func executable() -> URL? {
        builtExecutable(named: "TellerMetadataCrashWriter")
    }
}

/// A child process in `--tags` mode: it opens a store on the file, reads it, says "loaded" and
/// waits for ``go()`` before writing `PREFIX-0 … PREFIX-(count-1)` (tag i last fetched at i
/// seconds after 1970), one write each.
final class MetadataTagWriter {
    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private let errors = Pipe()

    /// Starts the child and returns once it has read the file (printed "loaded").
    init(executable: URL, file: URL, prefix: String, count: Int) throws {
        process.executableURL = executable
        process.arguments = [file.path, "--tags", prefix, String(count)]
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        var received = Data()
        while !received.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }  // the child exited early; `finish()` says why
            received.append(chunk)
        }
    }

    /// Lets the child start writing.
    func go() {
        input.fileHandleForWriting.write(Data("go\n".utf8))
        try? input.fileHandleForWriting.close()
    }

    /// Waits for the child to exit; `nil` when it wrote everything, otherwise what went wrong.
    func finish() -> String? {
        process.waitUntilExit()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            return "child exited with \(process.terminationStatus): \(message)"
        }
        return nil
    }
}
