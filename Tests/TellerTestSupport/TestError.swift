/// An error for tests.
package struct TestError: Error, Equatable, CustomStringConvertible {
    package let id: Int

    package init(_ id: Int = 0) {
        self.id = id
    }

    package var description: String {
        "TestError(\(id))"
    }
}
