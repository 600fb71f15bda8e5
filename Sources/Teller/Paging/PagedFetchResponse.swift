import Foundation

/// What a paging data source's fetch returns for one page: the page's data, whether more pages
/// exist after it, and anything the next fetch needs from this one.
///
/// ```swift
/// // GitHub: the next page is simply the next page number.
/// .success(PagedFetchResponse(areMorePages: hasNextLink, nextPageRequirements: nil, fetchResponse: repos))
/// // SoundCloud: the next page starts after the last id of this one.
/// .success(PagedFetchResponse(areMorePages: !tracks.isEmpty, nextPageRequirements: tracks.last?.id, fetchResponse: tracks))
/// ```
///
/// Teller stores `areMorePages` and `nextPageRequirements` of the *first* page with the fetch
/// metadata, so a relaunched app can page on from its cached first page. `NextPageRequirements`
/// survives that only when it is `Codable` (or `Void`, which holds nothing): for any other type
/// Teller stores `areMorePages: false`, and a relaunched app pages on once its first refresh
/// has fetched the first page again.
public struct PagedFetchResponse<Response, NextPageRequirements> {
    /// Whether more pages exist after this one.
    public let areMorePages: Bool
    /// What the data source needs to build the next page's requirements, or `nil` if nothing:
    /// handed to ``PagingRepositoryDataSource/getNextPagePagingRequirements(currentPagingRequirements:nextPageRequirements:)``.
    public let nextPageRequirements: NextPageRequirements?
    /// The page's data, handed to `saveCache`.
    public let fetchResponse: Response

    /// Creates the response for one page.
    ///
    /// - Parameters:
    ///   - areMorePages: Whether more pages exist after this one; `false` makes
    ///     ``TellerPagingRepository/goToNextPage()`` a no-op until the next first page says otherwise.
    ///   - nextPageRequirements: Data the next page's fetch needs, such as the last item's id.
    ///   - fetchResponse: The page's data.
    public init(areMorePages: Bool, nextPageRequirements: NextPageRequirements?, fetchResponse: Response) {
        self.areMorePages = areMorePages
        self.nextPageRequirements = nextPageRequirements
        self.fetchResponse = fetchResponse
    }
}

extension PagedFetchResponse: Sendable where Response: Sendable, NextPageRequirements: Sendable {}

/// A fetch result that carries paging progress to store with the fetch time: `FlightWork`
/// stores it when it saves a first page.
protocol PagingMetadataCarrying {
    /// The progress to persist.
    var pagingMetadata: PagingMetadata { get }
}

extension PagedFetchResponse: PagingMetadataCarrying {
    var pagingMetadata: PagingMetadata {
        guard let nextPageRequirements else {
            return PagingMetadata(areMorePages: areMorePages)
        }
        guard let encoded = NextPageRequirementsCoding.encode(nextPageRequirements) else {
            // The next page could not be found again after a relaunch: say there is none until
            // the first page is fetched again.
            return PagingMetadata(areMorePages: false)
        }
        return PagingMetadata(areMorePages: areMorePages, nextPageRequirements: encoded)
    }
}

/// Turns next-page requirements into the JSON kept in ``PagingMetadata`` and back.
///
/// `NextPageRequirements` is not required to be `Codable` (the README's GitHub example uses
/// `Void`), so the conformance is looked up at run time: `Encodable`/`Decodable` values round-trip
/// through JSON, `Void` is stored as a marker, anything else is not persisted.
enum NextPageRequirementsCoding {
    private static let voidMarker = Data("[]".utf8)

    /// The JSON for `value`, or `nil` if its type cannot be persisted.
    static func encode<Value>(_ value: Value) -> Data? {
        if Value.self == Void.self { return voidMarker }
        guard let encodable = value as? any Encodable else { return nil }
        return try? JSONEncoder().encode(encodable)
    }

    /// The value stored in `data`.
    ///
    /// - Throws: When the type is not `Decodable` (it was persisted by another build of the app)
    ///   or the JSON does not decode as `Value`.
    static func decode<Value>(_ data: Data, as type: Value.Type) throws -> Value {
        if Value.self == Void.self, let void = () as? Value { return void }
        guard let decodable = type as? any Decodable.Type else {
            throw DecodingError.typeMismatch(
                type,
                DecodingError.Context(codingPath: [], debugDescription: "\(type) is not Decodable")
            )
        }
        guard let value = try decodeValue(decodable, from: data) as? Value else {
            throw DecodingError.typeMismatch(
                type,
                DecodingError.Context(codingPath: [], debugDescription: "decoded a value of another type")
            )
        }
        return value
    }

    private static func decodeValue<Decoded: Decodable>(_ type: Decoded.Type, from data: Data) throws -> Decoded {
        try JSONDecoder().decode(type, from: data)
    }
}
