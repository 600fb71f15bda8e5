/// Which fetch metadata changed, so every live repository showing it updates at once.
enum MetadataChange: Sendable {
    /// One tag was fetched, or forgotten.
    case tag(String)
    /// Every tag was forgotten (``Teller/clear()``).
    case all

    /// Whether a repository showing `tag` is concerned.
    func concerns(_ tag: String) -> Bool {
        switch self {
        case .tag(let changed): changed == tag
        case .all: true
        }
    }
}
