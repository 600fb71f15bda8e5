import Foundation

/// A small, fast, seedable random number generator (SplitMix64), so a randomized test replays
/// one sequence exactly from its seed, on every platform.
package struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    package init(seed: UInt64) {
        state = seed
    }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }

    /// A number in `0..<bound` (`bound` > 0). Not generic, so it stays fast in debug builds; its
    /// modulo bias is far too small to matter for a test's choices.
    package mutating func below(_ bound: Int) -> Int {
        Int(next() % UInt64(bound))
    }

    /// `true` with probability `percent` / 100.
    package mutating func percent(_ percent: Int) -> Bool {
        below(100) < percent
    }

    /// A random element of `elements`, which must not be empty.
    package mutating func pick<Element>(_ elements: [Element]) -> Element {
        elements[below(elements.count)]
    }

    /// A random integer in `range`.
    package mutating func int(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + below(range.count)
    }

    /// One of `weighted`'s choices, each as likely as its weight says; weights of 0 never win.
    package mutating func pick<Choice>(weighted: [(weight: Int, choice: Choice)]) -> Choice {
        pick(weighted.map(\.choice), weights: weighted.map(\.weight))
    }

    /// One of `choices`, each as likely as its weight in `weights` says.
    package mutating func pick<Choice>(_ choices: [Choice], weights: [Int]) -> Choice {
        var total = 0
        for weight in weights { total += weight }
        var roll = below(total)
        for index in weights.indices {
            if roll < weights[index] { return choices[index] }
            roll -= weights[index]
        }
        return choices[choices.count - 1]
    }
}

/// The seeds a randomized test runs.
///
/// `TELLER_SEED=<n>` replays that one seed (the test prints the seed of any sequence that
/// fails); `TELLER_SEED_COUNT=<n>` runs more (or fewer) seeds than the CI size.
package enum RandomizedTestSeeds {
    package static func seeds(ciCount: Int, first: UInt64 = 1) -> [UInt64] {
        let environment = ProcessInfo.processInfo.environment
        if let seed = environment["TELLER_SEED"].flatMap(UInt64.init) {
            return [seed]
        }
        let count = environment["TELLER_SEED_COUNT"].flatMap(Int.init) ?? ciCount
        return (0..<UInt64(count)).map { first + $0 }
    }
}
