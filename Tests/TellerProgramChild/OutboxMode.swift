import Foundation
import Teller
import TellerRx

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// `PROGRAM outbox JOURNAL SERVER NAME COUNT TOTAL`: one of two processes of an app sharing the
/// outbox journal JOURNAL. Once its standard input closes, enqueues COUNT `note` writes named `NAME-0`, `NAME-1`, … (printing
/// `enqueued NAME-i KEY` once each enqueue returned), sends writes to a server fake, and exits
/// once the server received TOTAL distinct writes (every process's) and the journal holds none
/// pending.
///
/// The server fake is the file SERVER, appended to (`O_APPEND`, one `write` per line):
/// `begin KEY NAME PID` when a send arrives, `end KEY NAME PID` before it answers `.sent`.
enum OutboxMode {
    struct Note: Codable {
        let name: String
    }

    static func run(journal: String, server: String, name: String, count: Int, total: Int) -> Never {
        let serverFile = open(server, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        guard serverFile >= 0 else { fail("cannot open \(server): errno \(errno)") }
        let teller = Teller(metadataStore: InMemoryFetchMetadataStore(), appLifecycleNotifications: nil)
        let outbox = TellerOutbox(teller: teller, journalURL: URL(fileURLWithPath: journal))
        let pid = getpid()
        outbox.register(kind: "note") { record in
            guard let note = try? JSONDecoder().decode(Note.self, from: record.payload) else {
                return .just(.rejected(ChildError(message: "not a note")))
            }
            let said = ["begin", "end"].allSatisfy { word in
                append("\(word) \(record.idempotencyKey) \(note.name) \(pid)\n", to: serverFile)
            }
            return .just(said ? .sent() : .retryableFailure(ChildError(message: "the server could not record it")))
        }
        // The other process is started too once standard input closes: enqueue together.
        _ = FileHandle.standardInput.readDataToEndOfFile()
        for index in 0..<count {
            let key = UUID().uuidString
            do {
                try outbox.enqueue(
                    kind: "note",
                    payload: Note(name: "\(name)-\(index)"),
                    tag: "notes-\(index % 3)",
                    idempotencyKey: key
                )
            } catch {
                fail("enqueue failed: \(error)")
            }
            print("enqueued \(name)-\(index) \(key)")
        }
        waitUntilEverythingIsSent(journal: journal, server: server, total: total)
        exit(0)
    }

    /// Waits on the two files: the server's, until it shows `total` writes answered, and the
    /// journal, until it holds nothing pending. Whichever process holds the send lock sends;
    /// this one may have nothing left to do but wait.
    private static func waitUntilEverythingIsSent(journal: String, server: String, total: Int) {
        let reader = OutboxJournal(url: URL(fileURLWithPath: journal))
        let deadline = ContinuousClock.now + .seconds(120)
        while ContinuousClock.now < deadline {
            let text = (try? String(contentsOfFile: server, encoding: .utf8)) ?? ""
            // Only whole lines: the other process may be appending one right now.
            let whole = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
            let answered = Set(
                whole.compactMap { line -> Substring? in
                    let words = line.split(separator: " ")
                    return words.count == 4 && words[0] == "end" ? words[2] : nil
                }
            )
            if answered.count >= total, (try? reader.records().isEmpty) == true { return }
            usleep(2_000)
        }
        fail("the writes were not all sent within 120 s")
    }

    private static func append(_ line: String, to descriptor: Int32) -> Bool {
        let bytes = Data(line.utf8)
        return bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) } == bytes.count
            && fsync(descriptor) == 0
    }
}

/// Why the child's handler failed a send.
struct ChildError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
