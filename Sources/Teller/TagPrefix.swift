/// A branch of the tag hierarchy: the tags ``Teller/invalidate(tagsUnder:)`` and
/// ``Teller/clear(tagsUnder:)`` act on, and a sent write may declare with
/// ``OutboxSendOutcome/sent(invalidating:tagsUnder:)``.
///
/// Tags are plain strings; a prefix reads them as paths whose components are separated by `/`,
/// as in `"users/42/posts"`. The prefix `"users/42"` matches the tag `"users/42"` itself and
/// every tag that continues it with a `/` (`"users/42/posts"`, `"users/42/posts/7"`), never
/// `"users/420"` nor `"users/42-archive"`. Name tags from the general to the particular, with
/// `/` between the parts, and a whole branch can be invalidated or cleared at once (TanStack
/// Query's query-key filters work the same way on arrays).
///
/// ```swift
/// teller.invalidate(tagsUnder: "users/\(id)")
/// teller.clear(tagsUnder: TagPrefix(components: ["users", id]))
/// ```
///
/// Trailing `/`s are dropped (`"users/42/"` is `"users/42"`). The empty prefix is the root:
/// it matches every tag. A value: make and use it on any thread.
public struct TagPrefix: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringInterpolation {
    /// The prefix as a path, without a trailing `/`, such as `"users/42"`.
    public let path: String
    /// `path` + `/`: what the tags below it start with.
    private let branch: String

    /// A prefix from its path, such as `"users/42"`.
    ///
    /// - Parameter path: Components separated by `/`; trailing `/`s are dropped.
    public init(_ path: String) {
        var path = Substring(path)
        while path.last == "/" { path = path.dropLast() }
        self.path = String(path)
        branch = self.path + "/"
    }

    /// A prefix from its components, joined with `/`: `["users", "42"]` is `"users/42"`.
    ///
    /// - Parameter components: The path's components, from the general to the particular. A
    ///   component that holds a `/` counts as several.
    public init(components: [String]) {
        self.init(components.joined(separator: "/"))
    }

    /// A prefix from a string literal or interpolation, as ``init(_:)``.
    ///
    /// - Parameter value: The path.
    public init(stringLiteral value: String) {
        self.init(value)
    }

    /// Whether `tag` is in this branch: equal to ``path``, or ``path`` followed by `/` and more.
    ///
    /// - Parameter tag: A ``RepositoryRequirements/tag``.
    public func contains(_ tag: String) -> Bool {
        path.isEmpty || tag == path || tag.hasPrefix(branch)
    }

    /// Whether every tag `other` contains is in this branch too.
    func contains(_ other: TagPrefix) -> Bool {
        contains(other.path)
    }

    /// The ``path``.
    public var description: String {
        path
    }
}
