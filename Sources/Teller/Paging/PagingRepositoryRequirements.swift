/// Says which page of a list to fetch: a page number (GitHub), the id of the last item seen
/// (SoundCloud), an id range (Twitter) — whatever the API pages by.
///
/// A ``TellerPagingRepository`` starts at the `firstPageRequirements` it was created with and
/// asks its data source for the next value on every ``TellerPagingRepository/goToNextPage()``
/// (``PagingRepositoryDataSource/getNextPagePagingRequirements(currentPagingRequirements:nextPageRequirements:)``).
/// Values are compared with `==`, and treated as immutable.
///
/// `SendableMetatype`, as ``RepositoryRequirements`` is: Teller uses the type on its background
/// scheduler, so in a target whose default isolation is the main actor a paging requirements
/// type is inferred nonisolated, as it must be.
///
/// ```swift
/// struct ReposPagingRequirements: PagingRepositoryRequirements {
///     let pageNumber: Int
///
///     func nextPage() -> ReposPagingRequirements {
///         ReposPagingRequirements(pageNumber: pageNumber + 1)
///     }
/// }
/// ```
public protocol PagingRepositoryRequirements: Equatable, SendableMetatype {}
