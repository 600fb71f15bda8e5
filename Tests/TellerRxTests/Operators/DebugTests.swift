import TellerTesting
import Testing

@_spi(TellerInternals) @testable import TellerRx

@Suite struct DebugTests {
    /// Captures `debug` output with a fixed time stamp.
    private final class Capture: Sendable {
        private let lines = Locked<[String]>([])

        var output: DebugOutput {
            DebugOutput(write: { [lines] line in lines.withLock { $0.append(line) } }, timestamp: { "T" })
        }

        var captured: [String] { lines.value }
    }

    private func debugged<Element>(
        _ source: Observable<Element>,
        _ identifier: String? = "id",
        trimOutput: Bool = false,
        into capture: Capture
    ) -> Observable<Element> {
        source.debug(
            identifier,
            trimOutput: trimOutput,
            file: "/path/to/Feature.swift",
            line: 42,
            function: "load()",
            output: capture.output
        )
    }

    @Test func logsSubscriptionEventsAndDisposalOfACompletingSequence() {
        let capture = Capture()
        let observer = RecordingObserver<Int>()
        _ = debugged(.of(1, 2), into: capture).subscribe(observer)
        #expect(
            capture.captured == [
                "T: id -> subscribed", "T: id -> Event next(1)", "T: id -> Event next(2)", "T: id -> Event completed",
                "T: id -> isDisposed",
            ]
        )
        #expect(observer.events == [.next(1), .next(2), .completed])
    }

    @Test func logsAnError() {
        let capture = Capture()
        _ = debugged(Observable<Int>.error(TestError(1)), into: capture).subscribe(onError: { _ in })
        #expect(
            capture.captured == [
                "T: id -> subscribed", "T: id -> Event error(TestError(id: 1))", "T: id -> isDisposed",
            ]
        )
    }

    @Test func logsDisposalBySubscriberOnce() {
        let capture = Capture()
        let subscription = debugged(Observable<Int>.never(), into: capture).subscribe()
        subscription.dispose()
        subscription.dispose()
        #expect(capture.captured == ["T: id -> subscribed", "T: id -> isDisposed"])
    }

    @Test func eventsLongerThanFortyCharactersAreTrimmedOnlyWhenAsked() {
        let capture = Capture()
        let long = String(repeating: "x", count: 50)
        _ = debugged(.just(long), trimOutput: true, into: capture).subscribe()
        _ = debugged(.just(long), trimOutput: false, into: capture).subscribe()
        let events = capture.captured.filter { $0.contains("next") }
        #expect(
            events == ["T: id -> Event next(xxxxxxxxxxxxxxx...xxxxxxxxxxxxxxxxxxx)", "T: id -> Event next(\(long))"]
        )
    }

    @Test func defaultIdentifierIsFileLineAndFunction() {
        let capture = Capture()
        _ = debugged(Observable<Int>.empty(), nil, into: capture).subscribe()
        #expect(capture.captured.first == "T: Feature.swift:42 (load()) -> subscribed")
    }

    @Test func timestampIsLocalDateAndTimeWithMilliseconds() throws {
        let stamp = localTimestamp()
        let pattern = try Regex(#"\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3}"#)
        #expect(stamp.wholeMatch(of: pattern) != nil, "\(stamp)")
    }

    @Test func publicDebugPassesEventsThrough() {
        let observer = RecordingObserver<Int>()
        _ = Observable.of(1, 2).debug("DebugTests").subscribe(observer)
        #expect(observer.events == [.next(1), .next(2), .completed])
    }
}
