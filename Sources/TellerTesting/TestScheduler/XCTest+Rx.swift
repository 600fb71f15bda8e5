// swift-format-ignore-file: AlwaysUseLowerCamelCase
// (RxTest's names: XCTAssertEqual and XCTAssertRecordedElements, as XCTest spells its own.)

#if canImport(XCTest)
import TellerRx
import XCTest

// RxTest's assertions, for XCTest users: each fails the test with a list of the differing
// events. With Swift Testing, compare with `#expect(a == b)` instead (every event type here is
// `Equatable` except `SingleEvent`, a `Result` over `any Error`).

/// Asserts that two arrays of events are equal; on failure, lists where they differ.
///
/// Errors are equal when they are equal as `Equatable` values of the same type, or else when
/// their types and descriptions match.
///
/// - Parameters:
///   - lhs: The actual events.
///   - rhs: The expected events.
///   - file: The file of the failure (the caller's by default).
///   - line: The line of the failure (the caller's by default).
public func XCTAssertEqual<Element: Equatable>(
    _ lhs: [Event<Element>],
    _ rhs: [Event<Element>],
    file: StaticString = #filePath,
    line: UInt = #line
) {
    assertNoDifferences(eventDifferences(lhs, rhs, equal: { $0 == $1 }), file: file, line: line)
}

/// Asserts that two arrays of recorded events are equal (same times, equal events); on
/// failure, lists where they differ.
///
/// - Parameters:
///   - lhs: The actual events.
///   - rhs: The expected events.
///   - file: The file of the failure (the caller's by default).
///   - line: The line of the failure (the caller's by default).
public func XCTAssertEqual<Element: Equatable>(
    _ lhs: [Recorded<Event<Element>>],
    _ rhs: [Recorded<Event<Element>>],
    file: StaticString = #filePath,
    line: UInt = #line
) {
    assertNoDifferences(eventDifferences(lhs, rhs, equal: { $0 == $1 }), file: file, line: line)
}

/// Asserts that two arrays of single outcomes are equal; on failure, lists where they differ.
///
/// - Parameters:
///   - lhs: The actual outcomes.
///   - rhs: The expected outcomes.
///   - file: The file of the failure (the caller's by default).
///   - line: The line of the failure (the caller's by default).
public func XCTAssertEqual<Element: Equatable>(
    _ lhs: [SingleEvent<Element>],
    _ rhs: [SingleEvent<Element>],
    file: StaticString = #filePath,
    line: UInt = #line
) {
    assertNoDifferences(eventDifferences(lhs, rhs, equal: singleEventsAreEqual), file: file, line: line)
}

/// Asserts that two arrays of maybe outcomes are equal; on failure, lists where they differ.
///
/// - Parameters:
///   - lhs: The actual outcomes.
///   - rhs: The expected outcomes.
///   - file: The file of the failure (the caller's by default).
///   - line: The line of the failure (the caller's by default).
public func XCTAssertEqual<Element: Equatable>(
    _ lhs: [MaybeEvent<Element>],
    _ rhs: [MaybeEvent<Element>],
    file: StaticString = #filePath,
    line: UInt = #line
) {
    assertNoDifferences(eventDifferences(lhs, rhs, equal: { $0 == $1 }), file: file, line: line)
}

/// Asserts that two arrays of completable outcomes are equal; on failure, lists where they
/// differ.
///
/// - Parameters:
///   - lhs: The actual outcomes.
///   - rhs: The expected outcomes.
///   - file: The file of the failure (the caller's by default).
///   - line: The line of the failure (the caller's by default).
public func XCTAssertEqual(
    _ lhs: [CompletableEvent],
    _ rhs: [CompletableEvent],
    file: StaticString = #filePath,
    line: UInt = #line
) {
    assertNoDifferences(eventDifferences(lhs, rhs, equal: { $0 == $1 }), file: file, line: line)
}

/// Asserts that two arrays of recorded single outcomes are equal (same times, equal outcomes);
/// on failure, lists where they differ.
///
/// - Parameters:
///   - lhs: The actual outcomes.
///   - rhs: The expected outcomes.
///   - file: The file of the failure (the caller's by default).
///   - line: The line of the failure (the caller's by default).
public func XCTAssertEqual<Element: Equatable>(
    _ lhs: [Recorded<SingleEvent<Element>>],
    _ rhs: [Recorded<SingleEvent<Element>>],
    file: StaticString = #filePath,
    line: UInt = #line
) {
    assertNoDifferences(
        eventDifferences(lhs, rhs, equal: recordedAreEqual(singleEventsAreEqual)),
        file: file,
        line: line
    )
}

/// Asserts that two arrays of recorded maybe outcomes are equal (same times, equal outcomes);
/// on failure, lists where they differ.
///
/// - Parameters:
///   - lhs: The actual outcomes.
///   - rhs: The expected outcomes.
///   - file: The file of the failure (the caller's by default).
///   - line: The line of the failure (the caller's by default).
public func XCTAssertEqual<Element: Equatable>(
    _ lhs: [Recorded<MaybeEvent<Element>>],
    _ rhs: [Recorded<MaybeEvent<Element>>],
    file: StaticString = #filePath,
    line: UInt = #line
) {
    assertNoDifferences(eventDifferences(lhs, rhs, equal: { $0 == $1 }), file: file, line: line)
}

/// Asserts that two arrays of recorded completable outcomes are equal (same times, equal
/// outcomes); on failure, lists where they differ.
///
/// - Parameters:
///   - lhs: The actual outcomes.
///   - rhs: The expected outcomes.
///   - file: The file of the failure (the caller's by default).
///   - line: The line of the failure (the caller's by default).
public func XCTAssertEqual(
    _ lhs: [Recorded<CompletableEvent>],
    _ rhs: [Recorded<CompletableEvent>],
    file: StaticString = #filePath,
    line: UInt = #line
) {
    assertNoDifferences(eventDifferences(lhs, rhs, equal: { $0 == $1 }), file: file, line: line)
}

/// Asserts that recorded events are exactly `elements`, ignoring times; fails if they hold a
/// terminal event.
///
/// - Parameters:
///   - stream: The recorded events.
///   - elements: The expected elements, in order.
///   - file: The file of the failure (the caller's by default).
///   - line: The line of the failure (the caller's by default).
public func XCTAssertRecordedElements<Element: Equatable>(
    _ stream: [Recorded<Event<Element>>],
    _ elements: [Element],
    file: StaticString = #filePath,
    line: UInt = #line
) {
    if let stop = stream.first(where: { $0.value.isStopEvent }) {
        XCTFail("A terminal event was recorded: \(stop)", file: file, line: line)
        return
    }
    let recorded = stream.compactMap(\.value.element)
    assertNoDifferences(eventDifferences(recorded, elements, equal: { $0 == $1 }), file: file, line: line)
}

private func assertNoDifferences(_ differences: String?, file: StaticString, line: UInt) {
    if let differences {
        XCTFail(differences, file: file, line: line)
    }
}
#endif
