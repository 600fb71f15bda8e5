import Dispatch
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

/// The process ``OutboxSendKillLoop`` kills: a real `TellerOutbox` enqueueing writes and sending
/// them, through a registered handler, to a server fake.
///
/// The server fake is a file the sender only appends to: one line "KEY NAME" per write received
/// (its idempotency key and the write's name, its payload), written with one `write` on an
/// `O_APPEND` descriptor and flushed before the handler answers, so a kill cannot take back
/// what the server received. One answer in eight is a retryable failure after the server
/// received the write (an answer lost on the way back), so the outbox sends that write again.
enum OutboxSendKillLoopSender {
    /// The hidden mode: `--outbox-sender JOURNAL SERVER MODE`, MODE `enqueue` (enqueue writes
    /// until killed, printing "enqueuing NAME KEY" before each enqueue and "enqueued NAME" once
    /// it returned) or `drain` (send what the journal holds, then exit).
    static let flag = "--outbox-sender"
    static let kind = "killLoopWrite"

    /// The payload of a write: a name no other write has.
    struct Write: Codable {
        let name: String
    }

    static func run(journal: String, server: String, mode: String) -> Never {
        let serverFile = open(server, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        guard serverFile >= 0 else { fail("cannot open the server file \(server): errno \(errno)") }
        let retryAtOnce: RetryPolicy
        do {
            retryAtOnce = try RetryPolicy(
                maxRetries: 1_000_000,
                initialDelay: .milliseconds(1),
                maxDelay: .milliseconds(1)
            )
        } catch {
            fail("bad retry policy: \(error)")
        }
        let teller = Teller(
            metadataStore: InMemoryFetchMetadataStore(),
            retryPolicy: retryAtOnce,
            appLifecycleNotifications: nil
        )
        let outbox = TellerOutbox(teller: teller, journalURL: URL(fileURLWithPath: journal))
        let drained = DispatchSemaphore(value: 0)
        let subscription = outbox.changes.subscribe(onNext: { _ in
            if outbox.pending.isEmpty { drained.signal() }
        })
        outbox.register(kind: kind) { record in .just(receive(record, serverFile: serverFile)) }
        switch mode {
        case "drain":
            if outbox.pending.isEmpty { drained.signal() }
            guard drained.wait(timeout: .now() + 120) == .success else {
                fail("\(outbox.pending.count) writes still pending after 120 s")
            }
            subscription.dispose()
            exit(0)
        case "enqueue":
            enqueueUntilKilled(outbox)
        default:
            fail("unknown mode \(mode)")
        }
    }

    private static func enqueueUntilKilled(_ outbox: TellerOutbox) -> Never {
        while true {
            let name = UUID().uuidString
            let key = UUID().uuidString
            say("enqueuing \(name) \(key)")
            do {
                try outbox.enqueue(
                    kind: kind,
                    payload: Write(name: name),
                    tag: "scope-\(Int.random(in: 0..<8))",
                    idempotencyKey: key
                )
            } catch {
                fail("enqueue failed: \(error)")
            }
            say("enqueued \(name)")
        }
    }

    /// The server fake: records the write, then answers.
    private static func receive(_ record: OutboxRecord, serverFile: Int32) -> OutboxSendOutcome {
        guard let payload = try? JSONDecoder().decode(Write.self, from: record.payload) else {
            return .rejected(KillLoopFailure(message: "a payload that is not a write"))
        }
        let line = Data("\(record.idempotencyKey) \(payload.name)\n".utf8)
        let written = line.withUnsafeBytes { write(serverFile, $0.baseAddress, $0.count) }
        guard written == line.count, fsync(serverFile) == 0 else {
            return .retryableFailure(KillLoopFailure(message: "the server could not record it: errno \(errno)"))
        }
        if Int.random(in: 0..<8) == 0 {
            return .retryableFailure(KillLoopFailure(message: "the answer was lost"))
        }
        return .sent()
    }

    private static func say(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    private static func fail(_ message: String) -> Never {
        printError("outbox sender: \(message)")
        exit(1)
    }
}

/// Why a kill-loop sender's send failed.
struct KillLoopFailure: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
