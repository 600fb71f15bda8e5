import Foundation
@_spi(TellerInternals) import TellerRx

/// A seeded scenario that went wrong, and what it found.
package struct FailedScenario: Sendable {
    package let seed: UInt64
    package let problems: [String]

    /// The report of the failure: the seed, how to replay it, and its first problems.
    package var report: String {
        """
        seed \(seed): \(problems.count) problems (replay with TELLER_SEED=\(seed))
        \(problems.prefix(10).joined(separator: "\n"))
        """
    }
}

/// Runs `scenario` for each seed, `lanes` at a time, and returns those that found problems,
/// ordered by seed. Each lane is a thread of its own, as the scenarios' own operating threads
/// should be: they block while they wait, and on Dispatch's worker pool (2 threads on a 2-core
/// Linux machine, grown slowly) that would starve the Teller's queues. Stops starting scenarios
/// once 3 failed: a broken engine fails many, each after its timeouts.
package func runScenarios(
    seeds: [UInt64],
    lanes: Int,
    _ scenario: @escaping @Sendable (UInt64) -> [String]
) -> [FailedScenario] {
    let failures = Locked<[FailedScenario]>([])
    let lanes = min(lanes, seeds.count)
    let lanesDone = DispatchGroup()
    for lane in 0..<lanes {
        lanesDone.enter()
        Thread {
            for seed in stride(from: lane, to: seeds.count, by: lanes).map({ seeds[$0] }) {
                guard failures.value.count < 3 else { break }
                let problems = scenario(seed)
                if !problems.isEmpty { failures.withLock { $0.append(FailedScenario(seed: seed, problems: problems)) } }
            }
            lanesDone.leave()
        }
        .start()
    }
    lanesDone.wait()
    return failures.value.sorted { $0.seed < $1.seed }
}
