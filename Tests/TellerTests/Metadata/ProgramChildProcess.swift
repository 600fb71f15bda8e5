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
        return await runChild(url, arguments, environment: environment)
    }

    func remove() {
        try? FileManager.default.removeItem(at: root)
    }
}

/// Runs the executable at `url` with `arguments` until it exits, and returns its output lines,
/// or why it failed (it could not start, or exited with a status other than 0).
func runChild(
    _ url: URL,
    _ arguments: [String],
    environment: [String: String] = ProcessInfo.processInfo.environment
) async -> Result<[String], ChildFailure> {
    switch ChildProcess.start(url, arguments, environment: environment) {
    case .success(let child): await child.finish()
    case .failure(let failure): .failure(failure)
    }
}

/// A child process started, its output and errors piped back.
struct ChildProcess: @unchecked Sendable {
    // Unchecked: `Process` is not marked `Sendable`; `finish()` is the one use after the start.
    private let process: Process
    private let output = Pipe()
    private let errors = Pipe()

    /// Starts the executable at `url` with `arguments`; `input`, when given, is its standard
    /// input (a pipe the test closes to let children go on at once).
    static func start(
        _ url: URL,
        _ arguments: [String],
        environment: [String: String] = ProcessInfo.processInfo.environment,
        input: Pipe? = nil
    ) -> Result<ChildProcess, ChildFailure> {
        let child = ChildProcess(process: Process())
        child.process.executableURL = url
        child.process.arguments = arguments
        child.process.environment = environment
        child.process.standardOutput = child.output
        child.process.standardError = child.errors
        if let input { child.process.standardInput = input }
        do {
            try child.process.run()
        } catch {
            return .failure(ChildFailure(message: "could not start \(url.lastPathComponent): \(error)"))
        }
        return .success(child)
    }

    private init(process: Process) {
        self.process = process
    }

    /// Waits until the child exits and returns its output lines, or why it failed (it exited
    /// with a status other than 0).
    func finish() async -> Result<[String], ChildFailure> {
        // Reading and waiting block: on a Dispatch thread, not a cooperative one.
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(returning: waitForExit())
            }
        }
    }

    private func waitForExit() -> Result<[String], ChildFailure> {
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        let complaint = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let name = process.executableURL?.lastPathComponent ?? "the child"
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            let message = String(decoding: complaint, as: UTF8.self)
            return .failure(ChildFailure(message: "\(name) exited with \(process.terminationStatus): \(message)"))
        }
        return .success(String(decoding: printed, as: UTF8.self).split(separator: "\n").map(String.init))
    }
}

/// Why a child program failed, for the test's message.
struct ChildFailure: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
