import Foundation
import Teller

/// The command line, parsed.
struct Arguments {
    var url: URL?
    var cacheDirectory = Arguments.defaultCacheDirectory
    var reset = false
    /// Milliseconds each answer of the simulated server takes: a random value in this range.
    var latency = 300...800
    var fail = false
    /// How many requests the simulated server fails before it answers again.
    var failRequests = 0
    var retry = false
    var invalidate = false
    var log = false
    var once = false
    var refresh = false
    var nextPages = 0
    var star = false
    var refuseStar = false
    var exitAfter: Double?
    var showHelp = false

    /// Whether keys are read from standard input; otherwise the flags are the script.
    var isInteractive: Bool {
        !once && !refresh && !invalidate && nextPages == 0 && !star && !refuseStar
    }

    /// The keys the non-interactive flags stand for: `--next-pages N` is N times `n`,
    /// `--refresh` one `f` after them, `--invalidate` one `i`, then `--refuse-star` an `x` and
    /// `--star` an `s`.
    var scriptedKeys: [String] {
        Array(repeating: "n", count: nextPages) + (refresh ? ["f"] : []) + (invalidate ? ["i"] : [])
            + (refuseStar ? ["x"] : []) + (star ? ["s"] : [])
    }

    struct Problem: Error, CustomStringConvertible {
        let description: String
    }

    init(_ words: [String]) throws {
        var words = words[...]
        func value(of flag: String) throws -> String {
            guard let value = words.popFirst() else { throw Problem(description: "\(flag) needs a value") }
            return value
        }
        while let word = words.popFirst() {
            switch word {
            case "--url":
                let text = try value(of: word)
                guard let url = URL(string: text), url.scheme == "http" || url.scheme == "https" else {
                    throw Problem(description: "--url needs an http:// or https:// URL, not \(text)")
                }
                self.url = url
            case "--cache-dir": cacheDirectory = URL(fileURLWithPath: try value(of: word), isDirectory: true)
            case "--reset": reset = true
            case "--latency-ms":
                guard let milliseconds = Int(try value(of: word)), milliseconds >= 0 else {
                    throw Problem(description: "--latency-ms needs a whole number of milliseconds")
                }
                latency = milliseconds...milliseconds
            case "--fail": fail = true
            case "--fail-requests":
                guard let count = Int(try value(of: word)), count >= 0 else {
                    throw Problem(description: "--fail-requests needs a number of requests")
                }
                failRequests = count
            case "--retry": retry = true
            case "--invalidate": invalidate = true
            case "--log": log = true
            case "--once": once = true
            case "--refresh": refresh = true
            case "--next-pages":
                guard let count = Int(try value(of: word)), count >= 0 else {
                    throw Problem(description: "--next-pages needs a number of pages")
                }
                nextPages = count
            case "--star": star = true
            case "--refuse-star": refuseStar = true
            case "--exit-after":
                guard let seconds = Double(try value(of: word)), seconds > 0 else {
                    throw Problem(description: "--exit-after needs a number of seconds")
                }
                exitAfter = seconds
            case "-h", "--help": showHelp = true
            default: throw Problem(description: "unknown option \(word)")
            }
        }
        if (fail || failRequests > 0) && url != nil {
            throw Problem(
                description: "--fail and --fail-requests switch the simulated server's errors; "
                    + "with --url, stop your server"
            )
        }
        if (star || refuseStar) && url != nil {
            throw Problem(description: "--star and --refuse-star need the simulated server's star endpoint, not --url")
        }
    }

    /// `TellerExample` under the user's cache directory: `~/Library/Caches` on Apple platforms,
    /// `$XDG_CACHE_HOME` or `~/.cache` elsewhere.
    static var defaultCacheDirectory: URL {
        #if canImport(Darwin)
        let base =
            FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask).first
            ?? FileManager.default.temporaryDirectory
        #else
        let base: URL
        if let xdg = ProcessInfo.processInfo.environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
            base = URL(fileURLWithPath: xdg, isDirectory: true)
        } else {
            base = FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".cache", isDirectory: true)
        }
        #endif
        return base.appendingPathComponent("TellerExample", isDirectory: true)
    }

    /// `--retry`: quick enough to watch, with a little jitter.
    static let retryPolicy: RetryPolicy =
        (try? RetryPolicy(maxRetries: 3, initialDelay: .milliseconds(500), maxDelay: .seconds(2), jitter: 0.1))
        ?? .standard

    static let usage = """
        usage: swift run TellerExample [options]

        Shows GitHub-like repos from a cache that Teller keeps fresh, and prints every state
        Teller reports, as a timeline. The repos come from a simulated server inside this
        process, or from --url. Run it twice: the second run starts from the cache.

        Keys (type one, then Return):
          r   refresh (skipped while the cache is younger than 1 minute)
          f   forced refresh, like pull-to-refresh
          n   next page
          i   invalidate the list: it counts as too old, and is refreshed at once as it is shown
          e   simulated server errors on/off; off sends the edits that wait
          s   star the first repo not starred yet: shown at once, sent now or once the
              server is back
          x   make the simulated server refuse the next star: it is rolled back
          q   quit (or end of input)

        Options:
          --url URL         fetch from an HTTP endpoint that answers with a JSON array of repos,
                            e.g. Examples/TellerExample/sample-repos.json served by
                            `python3 -m http.server` (see Examples/TellerExample/README.md)
          --cache-dir DIR   where the cache, the fetch metadata and the outbox of edits are kept
                            (default: \(defaultCacheDirectory.path))
          --reset           delete the cache directory first, to start over
          --latency-ms N    the simulated server answers after N ms (default: 300 to 800)
          --fail            start with the simulated server's errors on
          --fail-requests N the simulated server fails its next N requests, then answers again
          --retry           retry failed fetches: 3 retries after 0.5, 1 and 2 s (a RetryPolicy);
                            try it with --fail-requests 2
          --log             also print Teller's log events
          --exit-after S    quit after S seconds
          -h, --help        show this text

        Without a keyboard (no keys are read; the run ends when the last step settles):
          --once            quit once the first fetch has finished or failed, and the stars an
                            earlier run left unsent were tried
          --next-pages N    after the first fetch, load N more pages (keys n)
          --refresh         then force a refresh (key f)
          --invalidate      then invalidate the list (key i)
          --refuse-star     then make the server refuse the next star (key x)
          --star            then star the first repo not starred yet (key s); with --fail
                            it waits unsent

        Keys can come from a pipe too, each run once the one before has settled:
          printf 'n\\nn\\nf\\n' | swift run TellerExample
        """
}
