/// The version of the Teller library.
public enum TellerVersion {
    /// The semantic version of this build of Teller.
    public static let current = "0.1.0-dev"
}
