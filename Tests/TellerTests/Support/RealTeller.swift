import Foundation
import Teller
import TellerRx

/// A Teller environment on real Dispatch queues (no main queue), for thread-safety and async tests.
func makeRealTeller(log: Locked<[String]>? = nil, onLog: (@Sendable (TellerLogEvent) -> Void)? = nil) -> Teller {
    Teller(
        metadataStore: InMemoryFetchMetadataStore(),
        uiScheduler: SerialDispatchQueueScheduler(internalSerialQueueName: "teller-tests.ui"),
        backgroundScheduler: ConcurrentDispatchQueueScheduler(qos: .userInitiated),
        fetchTimeout: .seconds(30),
        logger: { event in
            log?.withLock { $0.append(event.description) }
            onLog?(event)
        }
    )
}
