import TellerRx

/// Describes where two arrays of events differ, or returns `nil` when they are equal: the
/// message of TellerTesting's `XCTAssertEqual` overloads, in the spirit of RxTest's printed
/// differences (index by index, then the extra elements of the longer array).
func eventDifferences<Value>(
    _ lhs: [Value],
    _ rhs: [Value],
    equal: (Value, Value) -> Bool
) -> String? {
    var lines: [String] = []
    for (index, (left, right)) in zip(lhs, rhs).enumerated() where !equal(left, right) {
        lines.append("lhs[\(index)]: \(left)")
        lines.append("rhs[\(index)]: \(right)")
    }
    let shortest = min(lhs.count, rhs.count)
    for index in shortest..<lhs.count {
        lines.append("lhs[\(index)]: \(lhs[index]) (rhs has no element \(index))")
    }
    for index in shortest..<rhs.count {
        lines.append("rhs[\(index)]: \(rhs[index]) (lhs has no element \(index))")
    }
    guard !lines.isEmpty else { return nil }
    return "Events differ:\n" + lines.joined(separator: "\n")
}

/// Equality of recorded values with an element comparison: same times, equal values.
func recordedAreEqual<Value>(_ equal: @escaping (Value, Value) -> Bool) -> (Recorded<Value>, Recorded<Value>) -> Bool {
    { lhs, rhs in lhs.time == rhs.time && equal(lhs.value, rhs.value) }
}
