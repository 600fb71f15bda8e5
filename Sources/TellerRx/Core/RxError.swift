/// The errors TellerRx itself raises. Each message says what went wrong and what to check.
public enum RxError: Error, CustomDebugStringConvertible, Equatable {
    /// An unknown error.
    case unknown
    /// An operation was attempted on an object that was already disposed.
    case disposed(object: String)
    /// An arithmetic overflow.
    case overflow
    /// An argument was out of its allowed range.
    case argumentOutOfRange
    /// The sequence completed without the element that was required (`asSingle()`, or a
    /// `Single` whose source completed empty).
    case noElements
    /// The sequence produced more than the one element that was required (`asSingle()`).
    case moreThanOneElement
    /// `timeout` elapsed before the source sent an element.
    case timeout

    /// A description that tells the developer what happened and what to check.
    public var debugDescription: String {
        switch self {
        case .unknown:
            "Unknown error."
        case .disposed(let object):
            "\(object) was already disposed; create a new one instead of reusing it."
        case .overflow:
            "Arithmetic overflow."
        case .argumentOutOfRange:
            "Argument out of range."
        case .noElements:
            "The sequence completed without an element, but exactly one was required (asSingle()); "
                + "use asMaybe() or first() if the sequence may be empty."
        case .moreThanOneElement:
            "The sequence sent more than one element, but exactly one was required (asSingle()); "
                + "use take(1) or asMaybe() if more are expected."
        case .timeout:
            "The sequence timed out before sending an element."
        }
    }
}
