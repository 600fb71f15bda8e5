#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension ObservableType {
    /// Prints every subscription, event and disposal of this sequence to standard output, as
    /// RxSwift's `debug` does.
    ///
    /// Each line reads `<local time>: <identifier> -> <what happened>`, where what happened is
    /// `subscribed`, `Event next(…)`, `Event error(…)`, `Event completed` or `isDisposed`.
    /// Lines are printed on the thread where each thing happens; events pass through unchanged.
    ///
    /// ```swift
    /// _ = Observable.just(1).debug("one").subscribe()
    /// // Prints:
    /// // 2024-05-01 12:00:00.000: one -> subscribed
    /// // 2024-05-01 12:00:00.000: one -> Event next(1)
    /// // 2024-05-01 12:00:00.000: one -> Event completed
    /// // 2024-05-01 12:00:00.000: one -> isDisposed
    /// ```
    ///
    /// - Parameters:
    ///   - identifier: Names this sequence in the output; by default `File.swift:line (function)`
    ///     of the call.
    ///   - trimOutput: Whether to shorten event descriptions longer than 40 characters to their
    ///     first and last 20, joined by `...`.
    ///   - file: The calling file, for the default identifier.
    ///   - line: The calling line, for the default identifier.
    ///   - function: The calling function, for the default identifier.
    /// - Returns: An observable with the same events.
    public func debug(
        _ identifier: String? = nil,
        trimOutput: Bool = false,
        file: String = #file,
        line: UInt = #line,
        function: String = #function
    ) -> Observable<Element> {
        debug(identifier, trimOutput: trimOutput, file: file, line: line, function: function, output: .standard)
    }

    /// `debug` with the lines sent to `output` (tests capture them this way).
    func debug(
        _ identifier: String?,
        trimOutput: Bool,
        file: String,
        line: UInt,
        function: String,
        output: DebugOutput
    ) -> Observable<Element> {
        let name = identifier ?? "\(file.split(separator: "/").last.map(String.init) ?? file):\(line) (\(function))"
        return DebugProducer(source: asObservable(), identifier: name, trimOutput: trimOutput, output: output)
    }
}

/// Where `debug` writes its lines and how it stamps them.
struct DebugOutput: Sendable {
    /// Receives each finished line.
    let write: @Sendable (String) -> Void
    /// The time stamp that starts each line.
    let timestamp: @Sendable () -> String

    /// Standard output, stamped with the local time as `yyyy-MM-dd HH:mm:ss.SSS`.
    static let standard = DebugOutput(write: { print($0) }, timestamp: localTimestamp)

    func log(_ identifier: String, _ content: String) {
        write("\(timestamp()): \(identifier) -> \(content)")
    }
}

/// The local time as `yyyy-MM-dd HH:mm:ss.SSS`, without Foundation's formatters.
func localTimestamp() -> String {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    var seconds = now.tv_sec
    var parts = tm()
    localtime_r(&seconds, &parts)
    func padded(_ value: some BinaryInteger, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
    let date = "\(padded(parts.tm_year + 1900, 4))-\(padded(parts.tm_mon + 1, 2))-\(padded(parts.tm_mday, 2))"
    let time = "\(padded(parts.tm_hour, 2)):\(padded(parts.tm_min, 2)):\(padded(parts.tm_sec, 2))"
    return "\(date) \(time).\(padded(now.tv_nsec / 1_000_000, 3))"
}

private final class DebugProducer<Element: Sendable>: Producer<Element>, @unchecked Sendable {
    // @unchecked: immutable.
    let source: Observable<Element>
    let identifier: String
    let trimOutput: Bool
    let output: DebugOutput

    init(source: Observable<Element>, identifier: String, trimOutput: Bool, output: DebugOutput) {
        self.source = source
        self.identifier = identifier
        self.trimOutput = trimOutput
        self.output = output
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer,
        downstream: SubscriptionSlot?
    ) -> any Disposable where Observer.Element == Element {
        output.log(identifier, "subscribed")
        let sink = DebugSink(parent: self, observer: observer, downstream: downstream)
        source.subscribe(sink, upstreamOf: sink)
        return sink
    }
}

private final class DebugSink<Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable
where Observer.Element: Sendable {
    // @unchecked: `parent` is immutable; `loggedDisposal` is atomic.
    typealias Element = Observer.Element

    private static var maxEventLength: Int { 40 }

    private let parent: DebugProducer<Element>
    private let loggedDisposal = AtomicState(false)

    init(parent: DebugProducer<Element>, observer: Observer, downstream: SubscriptionSlot?) {
        self.parent = parent
        super.init(observer: observer, downstream: downstream)
    }

    func on(_ event: Event<Element>) {
        var text = "\(event)"
        if parent.trimOutput && text.count > DebugSink.maxEventLength {
            let half = DebugSink.maxEventLength / 2
            text = "\(text.prefix(half))...\(text.suffix(half))"
        }
        parent.output.log(parent.identifier, "Event \(text)")
        forwardOn(event)
        if event.isStopEvent { dispose() }
    }

    override func dispose() {
        if loggedDisposal.set() {
            parent.output.log(parent.identifier, "isDisposed")
        }
        super.dispose()
    }
}
