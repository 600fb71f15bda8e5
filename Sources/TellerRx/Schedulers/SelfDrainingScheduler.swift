/// A scheduler that can say whether whatever it is given always runs: true for a Dispatch
/// scheduler on a queue it made itself on a global queue, which libdispatch drains whatever the
/// process does; false for one on a queue the app passed in, which may be (or target) the main
/// queue, and for ``MainScheduler``, whose main queue only a run loop or `dispatchMain()` drains.
///
/// Teller reads it to skip watching a UI scheduler that cannot stall (see its
/// `uiSchedulerStalled` log event): the watch costs a timer per `Teller`, which a program making
/// many of them on queues of their own (tests, a server) would otherwise pay each time.
@_spi(TellerInternals) public protocol SelfDrainingScheduler {
    /// Whether work scheduled here runs without anything draining the main queue.
    var drainsItself: Bool { get }
}

@_spi(TellerInternals) extension SerialDispatchQueueScheduler: SelfDrainingScheduler {
    /// `true` for a scheduler made with its own serial queue (`init(internalSerialQueueName:…)`),
    /// `false` for one on a queue passed in and for ``MainScheduler``.
    public var drainsItself: Bool {
        configuration.drainsItself
    }
}

@_spi(TellerInternals) extension ConcurrentDispatchQueueScheduler: SelfDrainingScheduler {
    /// `true` for a scheduler made with its own queue (`init(qos:leeway:)`), `false` for one on a
    /// queue passed in.
    public var drainsItself: Bool {
        configuration.drainsItself
    }
}
