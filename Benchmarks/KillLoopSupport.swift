import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// What the kill loops share: a scratch folder, and this executable started as their writer and
/// killed.
enum KillLoopSupport {
    /// A new folder under the temporary directory, named `prefix` and a UUID; exits when it
    /// cannot be created.
    static func makeFolder(prefix: String) -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID())")
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            printError("cannot create \(directory.path): \(error)")
            exit(1)
        }
        return directory
    }

    /// Starts this executable with the arguments `flag`, `file` and `extra`, its standard output
    /// piped back; exits when it cannot start.
    static func startWriter(
        flag: String,
        file: URL,
        extra: [String] = [],
        round: Int
    ) -> (process: Process, output: FileHandle) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        process.arguments = [flag, file.path] + extra
        let output = Pipe()
        process.standardOutput = output
        do {
            try process.run()
        } catch {
            printError("round \(round): cannot start the writer: \(error)")
            exit(1)
        }
        return (process, output.fileHandleForReading)
    }

    /// Starts a writer, waits for a few (1 to `maxLines`) lines of its output, kills it at a
    /// random moment up to 3 ms later, and returns everything it printed: what it printed after
    /// the lines waited for was acknowledged too.
    static func killWriter(
        flag: String,
        file: URL,
        extra: [String] = [],
        round: Int,
        maxLines: Int,
        generator: inout SystemRandomNumberGenerator
    ) -> Data {
        let (process, handle) = startWriter(flag: flag, file: file, extra: extra, round: round)
        var received = Data()
        let wanted = Int.random(in: 1...maxLines, using: &generator)
        while received.count(where: { $0 == UInt8(ascii: "\n") }) < wanted {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            received.append(chunk)
        }
        usleep(.random(in: 0...3_000, using: &generator))
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        received.append(handle.readDataToEndOfFile())
        return received
    }
}
