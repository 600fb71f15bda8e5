/// An error for tests.
struct TestError: Error, Equatable, CustomStringConvertible {
    let id: Int

    init(_ id: Int = 0) {
        self.id = id
    }

    var description: String {
        "TestError(\(id))"
    }
}
