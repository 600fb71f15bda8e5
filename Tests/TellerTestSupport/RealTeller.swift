import Foundation
import Teller
@_spi(TellerInternals) import TellerRx

/// A Teller environment on real Dispatch queues (no main queue), for thread-safety and async tests.
package func makeRealTeller(log: Locked<[String]>? = nil, onLog: (@Sendable (TellerLogEvent) -> Void)? = nil) -> Teller
{
    Teller(
        metadataStore: InMemoryFetchMetadataStore(),
        uiScheduler: SerialDispatchQueueScheduler(internalSerialQueueName: "teller-tests.ui"),
        backgroundScheduler: ConcurrentDispatchQueueScheduler(qos: .userInitiated),
        // Generous: Swift Testing shares two cooperative threads with every test on this
        // machine, so an async fetch may wait a long time for a thread under load.
        fetchTimeout: .seconds(600),
        logger: { event in
            log?.withLock { $0.append(event.description) }
            onLog?(event)
        }
    )
}
