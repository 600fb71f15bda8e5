import Foundation

/// What the two-process test's server fake received, read from its file: lines
/// `begin KEY NAME PID` when a send arrived and `end KEY NAME PID` when it was answered.
struct OutboxServerLog {
    /// The idempotency keys each write arrived with.
    private(set) var keysByName: [String: Set<String>] = [:]
    /// How many sends of each write were answered.
    private(set) var answers: [String: Int] = [:]
    /// Sends that began while another process had one under way: `NAME (PID) during PID's`.
    private(set) var overlaps: [String] = []
    /// Sends that began and never ended, and lines that are neither.
    private(set) var unreadable: [String] = []

    init(contentsOf url: URL) throws {
        var underWay: [String: Set<String>] = [:]
        for line in try String(contentsOf: url, encoding: .utf8).split(separator: "\n") {
            let parts = line.split(separator: " ").map(String.init)
            guard parts.count == 4, parts[0] == "begin" || parts[0] == "end" else {
                unreadable.append(String(line))
                continue
            }
            let (key, name, process) = (parts[1], parts[2], parts[3])
            keysByName[name, default: []].insert(key)
            if parts[0] == "begin" {
                for (other, sends) in underWay where other != process && !sends.isEmpty {
                    overlaps.append("\(name) (\(process)) during \(other)'s \(sends.sorted())")
                }
                underWay[process, default: []].insert(name)
            } else {
                underWay[process]?.remove(name)
                answers[name, default: 0] += 1
            }
        }
        unreadable += underWay.values.flatMap { $0 }.map { "\($0) never answered" }
    }
}
