import Foundation
@_spi(TellerInternals) import TellerRx

/// What Teller remembers about one tag between launches.
public struct FetchMetadata: Codable, Sendable, Equatable {
    /// When data for the tag was last fetched and saved successfully.
    public var lastFetched: Date
    /// Paging progress for paging repositories, or `nil`.
    public var paging: PagingMetadata?

    /// Creates metadata.
    ///
    /// - Parameters:
    ///   - lastFetched: When data was last fetched and saved successfully.
    ///   - paging: Paging progress, for paging repositories.
    public init(lastFetched: Date, paging: PagingMetadata? = nil) {
        self.lastFetched = lastFetched
        self.paging = paging
    }
}

/// A paging repository's progress, persisted so a relaunched app can page on.
public struct PagingMetadata: Codable, Sendable, Equatable {
    /// Whether the last fetched page said more pages exist.
    public var areMorePages: Bool
    /// The data source's `nextPageRequirements` from the last fetch, encoded as JSON, if any.
    public var nextPageRequirements: Data?

    /// Creates paging progress.
    ///
    /// - Parameters:
    ///   - areMorePages: Whether more pages exist.
    ///   - nextPageRequirements: The encoded next-page requirements, if any.
    public init(areMorePages: Bool, nextPageRequirements: Data? = nil) {
        self.areMorePages = areMorePages
        self.nextPageRequirements = nextPageRequirements
    }
}

/// Where Teller keeps ``FetchMetadata`` per tag. Implementations must be thread-safe.
///
/// Teller ships ``FileFetchMetadataStore`` (the default, durable) and
/// ``InMemoryFetchMetadataStore`` (for tests and for apps that want no persistence).
public protocol FetchMetadataStore: Sendable {
    /// The metadata for `tag`, or `nil` if data with that tag was never fetched.
    ///
    /// - Parameter tag: The requirements' tag.
    /// - Returns: The stored metadata, or `nil`.
    func metadata(forTag tag: String) -> FetchMetadata?

    /// Stores (or, with `nil`, removes) the metadata for `tag`.
    ///
    /// - Parameters:
    ///   - metadata: The new metadata, or `nil` to forget the tag.
    ///   - tag: The requirements' tag.
    /// - Throws: When the metadata could not be made durable. The in-memory value is updated
    ///   regardless, so the running process stays consistent.
    func setMetadata(_ metadata: FetchMetadata?, forTag tag: String) throws

    /// Forgets every tag.
    ///
    /// - Throws: When the durable copy could not be removed.
    func removeAll() throws

    /// Forgets every tag `prefix` contains (``TagPrefix/contains(_:)``), and no other.
    ///
    /// A requirement with a default that throws ``FetchMetadataStoreError/cannotRemoveTagsUnder(_:)``,
    /// so stores written before it keep compiling: implement it to support
    /// ``Teller/clear(tagsUnder:)``.
    ///
    /// - Parameter prefix: The branch of tags to forget.
    /// - Throws: When the removal could not be made durable (the in-memory values are removed
    ///   regardless, as ``setMetadata(_:forTag:)`` does), or when the store cannot list its tags.
    func removeMetadata(tagsUnder prefix: TagPrefix) throws
}

extension FetchMetadataStore {
    /// Throws ``FetchMetadataStoreError/cannotRemoveTagsUnder(_:)``: a store must list its tags
    /// to forget a branch of them, and this protocol has no member that does.
    ///
    /// - Parameter prefix: The branch of tags that was to be forgotten.
    public func removeMetadata(tagsUnder prefix: TagPrefix) throws {
        throw FetchMetadataStoreError.cannotRemoveTagsUnder(prefix)
    }
}

/// What a ``FetchMetadataStore`` throws when it cannot do what was asked.
public enum FetchMetadataStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The store does not implement ``FetchMetadataStore/removeMetadata(tagsUnder:)``; nothing
    /// was removed.
    case cannotRemoveTagsUnder(TagPrefix)

    /// What went wrong, and what to implement.
    public var description: String {
        switch self {
        case .cannotRemoveTagsUnder(let prefix):
            "this metadata store cannot forget the tags under \"\(prefix)\": implement removeMetadata(tagsUnder:)"
        }
    }
}

/// Keeps metadata in memory only: nothing survives the process. For tests and previews.
public final class InMemoryFetchMetadataStore: FetchMetadataStore {
    private let entries: LockedState<[String: FetchMetadata]>

    /// Creates a store, optionally pre-filled.
    ///
    /// - Parameter entries: Metadata per tag to start with.
    public init(_ entries: [String: FetchMetadata] = [:]) {
        self.entries = LockedState(entries)
    }

    /// The metadata for `tag`, or `nil`.
    public func metadata(forTag tag: String) -> FetchMetadata? {
        entries.withLock { $0[tag] }
    }

    /// Stores or removes the metadata for `tag`. Never throws.
    public func setMetadata(_ metadata: FetchMetadata?, forTag tag: String) {
        entries.withLock { $0[tag] = metadata }
    }

    /// Forgets every tag. Never throws.
    public func removeAll() {
        entries.withLock { $0.removeAll() }
    }

    /// Forgets every tag `prefix` contains. Never throws.
    ///
    /// - Parameter prefix: The branch of tags to forget.
    public func removeMetadata(tagsUnder prefix: TagPrefix) {
        entries.withLock { entries in entries = entries.filter { !prefix.contains($0.key) } }
    }
}
