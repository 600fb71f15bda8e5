import Dispatch
import Foundation
import TellerTestSupport

/// Two programs of one user: the `TellerProgramChild` executable run under two names (links in
/// a temporary folder), with HOME and the XDG data and cache folders in that folder too, so
/// nothing is written into the real user's home.
struct TwoPrograms {
    let root: URL
    private let executable: URL

    /// Makes the temporary home and the two links, or returns `nil` when the child was not built.
    init?() throws {
        guard let executable = builtExecutable(named: "TellerProgramChild") else { return nil }
        root = FileManager.default.temporaryDirectory.appendingPathComponent("teller-programs-\(UUID())")
        let bin = root.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        for name in ["program-a", "program-b"] {
            try FileManager.default.createSymbolicLink(
                at: bin.appendingPathComponent(name),
                withDestinationURL: executable
            )
        }
        self.executable = bin
    }

    /// Runs `program` (`program-a` or `program-b`) with `arguments` and returns its output lines.
    func run(_ program: String, _ arguments: String...) async -> Result<[String], ChildFailure> {
        let url = executable.appendingPathComponent(program)
        let environment = ProcessInfo.processInfo.environment.merging([
            "HOME": root.appendingPathComponent("home").path,
            "XDG_DATA_HOME": root.appendingPathComponent("data").path,
            "XDG_CACHE_HOME": root.appendingPathComponent("cache").path,
        ]) { _, given in given }
        // Process spawning and waiting: on a Dispatch thread, not a cooperative one.
        return await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(returning: Self.launch(url, arguments, environment: environment))
            }
        }
    }

    func remove() {
        try? FileManager.default.removeItem(at: root)
    }

    private static func launch(
        _ url: URL,
        _ arguments: [String],
        environment: [String: String]
    ) -> Result<
        [String], ChildFailure
    > {
        let process = Process()
        let output = Pipe()
        let errors = Pipe()
        process.executableURL = url
        process.arguments = arguments
        process.environment = environment
        process.standardOutput = output
        process.standardError = errors
        do {
            try process.run()
        } catch {
            return .failure(ChildFailure(message: "could not start \(url.lastPathComponent): \(error)"))
        }
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        let complaint = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            let message = String(decoding: complaint, as: UTF8.self)
            return .failure(
                ChildFailure(message: "\(url.lastPathComponent) exited with \(process.terminationStatus): \(message)")
            )
        }
        return .success(String(decoding: printed, as: UTF8.self).split(separator: "\n").map(String.init))
    }
}

/// Why a child program failed, for the test's message.
struct ChildFailure: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
