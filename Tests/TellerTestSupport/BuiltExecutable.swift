import Foundation

/// An executable SwiftPM built for the tests (a dependency of the test target), looked for next
/// to the test bundle and up to three folders above it.
package func builtExecutable(named name: String) -> URL? {
    let candidates = [
        Bundle.main.bundleURL,
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
    ]
    for directory in candidates {
        var current = directory
        for _ in 0..<4 {
            let candidate = current.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            current = current.deletingLastPathComponent()
        }
    }
    return nil
}
