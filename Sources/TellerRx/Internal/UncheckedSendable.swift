/// Carries a value the compiler cannot prove `Sendable` across a closure boundary.
///
/// Used only where serialization the compiler cannot see makes the access safe: TellerRx's
/// observers are called serially by contract, and Teller calls a data source only on the
/// schedulers its documentation names. Every use says which.
package struct UncheckedSendable<Value>: @unchecked Sendable {
    // @unchecked: every use documents why the access is serialized.
    package let value: Value

    package init(_ value: Value) {
        self.value = value
    }
}
