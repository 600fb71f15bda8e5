/// An error for tests, equatable so expected and actual events compare.
struct TestError: Error, Equatable, Sendable {
    let id: Int

    init(_ id: Int = 0) {
        self.id = id
    }
}
