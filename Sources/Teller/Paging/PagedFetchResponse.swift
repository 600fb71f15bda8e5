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

extension PagedFetchResponse {
    /// The progress to store with the fetch time of a first page.
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
