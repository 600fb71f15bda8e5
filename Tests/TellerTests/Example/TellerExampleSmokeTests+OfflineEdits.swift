import Testing

/// The README's "Offline edits": a star made while the simulated server is down is shown at
/// once, survives a restart, goes out when the server is back, and a refused one rolls back.
extension TellerExampleSmokeTests {
    @Test func starMadeWithTheServerDownShowsAtOnceAsPending() async throws {
        let cache = try CacheDirectory()
        defer { cache.remove() }
        let runs = try await Self.runExample([cache.options + ["--once"], cache.options + ["--fail", "--star"]])

        let lines = runs[1].lines
        #expect(runs[1].status == 0)
        #expect(lines.contains("★ teller-ios saved in the outbox, sending…"), "\(lines)")
        #expect(lines.contains { $0.contains("cache: 10 repos") && $0.contains("1 edit not sent yet") }, "\(lines)")
        #expect(lines.contains { Self.lists($0, stars: 1_205, mark: "your star, not sent yet") }, "\(lines)")
        #expect(lines.contains { $0.contains("★ teller-ios not sent (attempt 1 failed)") }, "\(lines)")
    }

    @Test func starLeftUnsentIsStillPendingAfterARestart() async throws {
        let cache = try CacheDirectory()
        defer { cache.remove() }
        let runs = try await Self.runExample([
            cache.options + ["--once"],
            cache.options + ["--fail", "--star"],
            cache.options + ["--fail", "--once"],
        ])

        let lines = runs[2].lines
        #expect(runs[2].status == 0)
        #expect(!lines.contains { $0.contains("saved in the outbox") }, "\(lines)")
        #expect(lines.contains { $0.contains("cache: 10 repos") && $0.contains("1 edit not sent yet") }, "\(lines)")
        #expect(lines.contains { Self.lists($0, stars: 1_205, mark: "your star, not sent yet") }, "\(lines)")
    }

    @Test func starLeftUnsentGoesOutOnceTheServerIsBack() async throws {
        let cache = try CacheDirectory()
        defer { cache.remove() }
        let runs = try await Self.runExample([
            cache.options + ["--once"],
            cache.options + ["--fail", "--star"],
            cache.options + ["--once"],
        ])

        let lines = runs[2].lines
        #expect(runs[2].status == 0)
        #expect(lines.contains("★ teller-ios sent: the server took it"), "\(lines)")
        #expect(lines.last { $0.contains("cache:") }?.contains("not sent yet") == false, "\(lines)")
        // The last time teller-ios was listed, its star was counted and no longer marked.
        let listed = try #require(lines.last { $0.contains(". teller-ios") }, "\(lines)")
        #expect(Self.lists(listed, stars: 1_205, mark: "your star"), "\(lines)")
    }

    @Test func starTheServerRefusesIsRolledBack() async throws {
        let cache = try CacheDirectory()
        defer { cache.remove() }
        let runs = try await Self.runExample([
            cache.options + ["--once"],
            cache.options + ["--refuse-star", "--star"],
        ])

        let lines = runs[1].lines
        #expect(runs[1].status == 0)
        #expect(lines.contains { $0.hasPrefix("★ teller-ios refused by the server") }, "\(lines)")
        #expect(lines.last { $0.contains("cache:") }?.contains("not sent yet") == false, "\(lines)")
        let listed = try #require(lines.last { $0.contains(". teller-ios") }, "\(lines)")
        #expect(Self.lists(listed, stars: 1_204, mark: nil), "\(lines)")
    }

    @Test func starWaitingGoesOutWhenTheServerComesBackDuringTheRun() async throws {
        let cache = try CacheDirectory()
        defer { cache.remove() }
        let runs = try await Self.runExample(
            [cache.options + ["--once"], cache.options + ["--fail"]],
            input: "s\ne\n"
        )

        let lines = runs[1].lines
        #expect(runs[1].status == 0)
        let back = try #require(lines.firstIndex { $0.hasPrefix("e: simulated server errors off") }, "\(lines)")
        #expect(lines[..<back].contains { Self.lists($0, stars: 1_205, mark: "your star, not sent yet") }, "\(lines)")
        #expect(lines[back...].contains("★ teller-ios sent: the server took it"), "\(lines)")
        let listed = try #require(lines.last { $0.contains(". teller-ios") }, "\(lines)")
        #expect(Self.lists(listed, stars: 1_205, mark: "your star"), "\(lines)")
    }

    /// Whether `line` lists teller-ios, the first repo, with `stars` stars and `mark` after its
    /// language (`nil`: none).
    private static func lists(_ line: String, stars: Int, mark: String?) -> Bool {
        let words = line.split(separator: " ")
        return words.starts(with: ["1.", "teller-ios", "★", Substring(String(stars))])
            && line.hasSuffix(mark.map { "Swift  · \($0)" } ?? "Swift")
    }
}
