import TellerRx

/// An object for `withUnretained` and `subscribe(with:)` tests, to be held weakly and released
/// during a test.
final class Owner: Sendable, CustomStringConvertible {
    let name: String

    init(_ name: String = "owner") {
        self.name = name
    }

    var description: String { name }
}
