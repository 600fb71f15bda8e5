/// Carries a value the compiler cannot prove `Sendable` across a closure boundary.
///
/// Used only where serialization the compiler cannot see makes the access safe: TellerRx's
/// observers are called serially by contract, and Teller calls a data source only on the
/// schedulers its documentation names. Every use says which.
///
/// SPI with `package` members and an inlinable init, as ``LockedState`` (see there why).
@_spi(TellerInternals) public struct UncheckedSendable<Value>: @unchecked Sendable {
    // @unchecked: every use documents why the access is serialized.
    @usableFromInline package let value: Value

    @inlinable
    package init(_ value: Value) {
        self.value = value
    }
}
