import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// What the kill loops share: a scratch folder, and this executable started as their writer.
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

    /// Starts this executable with the arguments `flag` and `file`, its standard output piped
    /// back; exits when it cannot start.
    static func startWriter(flag: String, file: URL, round: Int) -> (process: Process, output: FileHandle) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        process.arguments = [flag, file.path]
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
}
