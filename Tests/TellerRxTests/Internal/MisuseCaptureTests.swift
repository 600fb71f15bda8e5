import Dispatch
import Foundation
import TellerRx
import Testing

/// Misuse reports go to the captures that accept them, from whatever thread they are made on,
/// only while a capture is active. Each test misuses `take(_:)` with a count of its own, so
/// tests running alongside never cause the messages these captures accept.
@Suite struct MisuseCaptureTests {
    /// The report of `take(count)` with a negative `count`.
    private static func negativeTake(_ count: Int) -> String {
        "take(_:) was called with a negative count (\(count)); it fails with argumentOutOfRange."
    }

    private static func misuseTake(_ count: Int) {
        _ = Observable.of(1).take(count).subscribe(onError: { _ in })
    }

    @Test func aCaptureTakesTheReportsItAcceptsFromEveryThread() {
        let counts = (1...8).map { -7_100 - $0 }
        let expected = Set(counts.map(Self.negativeTake))
        let capture = MisuseCapture(accepting: { expected.contains($0) })
        capture.during {
            DispatchQueue.concurrentPerform(iterations: counts.count) { Self.misuseTake(counts[$0]) }
        }
        #expect(Set(capture.messages) == (MisuseCapture.isReporting ? expected : []))
        #expect(capture.messages.count == (MisuseCapture.isReporting ? counts.count : 0))
    }

    @Test func aCaptureTakesNothingBeforeOrAfterItsScope() {
        let mine = Self.negativeTake(-7_201)
        let scoped = MisuseCapture(accepting: { $0 == mine })
        // Takes the reports made outside `scoped`, which would otherwise be printed.
        let whole = MisuseCapture(accepting: { $0 == mine })
        whole.during {
            Self.misuseTake(-7_201)
            scoped.during {}
            Self.misuseTake(-7_201)
            #expect(scoped.messages.isEmpty)
            scoped.during { Self.misuseTake(-7_201) }
        }
        #expect(scoped.messages.count == (MisuseCapture.isReporting ? 1 : 0))
        #expect(whole.messages.count == (MisuseCapture.isReporting ? 3 : 0))
    }

    @Test func everyActiveCaptureThatAcceptsAReportGetsItAndNoOtherDoes() {
        let mine = Self.negativeTake(-7_301)
        let outer = MisuseCapture(accepting: { $0 == mine })
        let inner = MisuseCapture(accepting: { $0 == mine })
        let other = MisuseCapture(accepting: { $0 == Self.negativeTake(-7_302) })
        outer.during {
            inner.during {
                other.during { Self.misuseTake(-7_301) }
            }
        }
        let expected = MisuseCapture.isReporting ? [mine] : []
        #expect(outer.messages == expected)
        #expect(inner.messages == expected)
        #expect(other.messages.isEmpty)
    }
}
