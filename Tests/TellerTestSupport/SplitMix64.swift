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

    /// `true` with probability `percent` / 100.
    package mutating func percent(_ percent: Int) -> Bool {
        Int.random(in: 0..<100, using: &self) < percent
    }

    /// A random element of `elements`, which must not be empty.
    package mutating func pick<Element>(_ elements: [Element]) -> Element {
        elements[Int.random(in: 0..<elements.count, using: &self)]
    }

    /// A random integer in `range`.
    package mutating func int(_ range: ClosedRange<Int>) -> Int {
        Int.random(in: range, using: &self)
    }

    /// One of `weighted`'s choices, each as likely as its weight says; weights of 0 never win.
    package mutating func pick<Choice>(weighted: [(weight: Int, choice: Choice)]) -> Choice {
        var roll = Int.random(in: 0..<weighted.reduce(0) { $0 + $1.weight }, using: &self)
        for entry in weighted {
            if roll < entry.weight { return entry.choice }
            roll -= entry.weight
        }
        return weighted[weighted.count - 1].choice
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
