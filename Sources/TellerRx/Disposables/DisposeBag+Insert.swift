extension DisposeBag {
    /// Creates a bag that already holds `disposables`.
    ///
    /// - Parameter disposables: Disposed, in order, when the bag is deallocated.
    public convenience init(disposing disposables: any Disposable...) {
        self.init(disposing: disposables)
    }

    /// Creates a bag that already holds `disposables`.
    ///
    /// - Parameter disposables: Disposed, in order, when the bag is deallocated.
    public convenience init(disposing disposables: [any Disposable]) {
        self.init()
        insert(disposables)
    }

    /// Creates a bag holding the disposables that `builder` lists, one per line.
    ///
    /// ```swift
    /// let disposeBag = DisposeBag {
    ///     names.subscribe(onNext: { print($0) })
    ///     ages.subscribe(onNext: { print($0) })
    /// }
    /// ```
    ///
    /// - Parameter builder: Lists the disposables; runs once, synchronously, inside this init.
    public convenience init(@DisposableBuilder builder: () -> [any Disposable]) {
        self.init(disposing: builder())
    }

    /// Adds every one of `disposables` to the bag.
    ///
    /// - Parameter disposables: Disposed, in order, when the bag is deallocated.
    public func insert(_ disposables: any Disposable...) {
        insert(disposables)
    }

    /// Adds every disposable in `disposables` to the bag.
    ///
    /// - Parameter disposables: Disposed, in order, when the bag is deallocated.
    public func insert(_ disposables: [any Disposable]) {
        for disposable in disposables {
            insert(disposable)
        }
    }

    /// Adds the disposables that `builder` lists, one per line, to the bag.
    ///
    /// - Parameter builder: Lists the disposables; runs once, synchronously, inside this call.
    public func insert(@DisposableBuilder builder: () -> [any Disposable]) {
        insert(builder())
    }

    /// The result builder behind ``DisposeBag/init(builder:)`` and
    /// ``DisposeBag/insert(builder:)``: turns a list of disposables, one per line, into an array.
    ///
    /// Beyond RxSwift's plain list it also accepts `if`, `if`/`else` and `for` blocks, and an
    /// empty block.
    @resultBuilder
    public struct DisposableBuilder {
        /// Collects the disposables of a block, one list per line or statement.
        ///
        /// - Parameter parts: The disposables of each line, `if` or `for` statement.
        /// - Returns: All of them in order.
        public static func buildBlock(_ parts: [any Disposable]...) -> [any Disposable] {
            parts.flatMap { $0 }
        }

        /// Makes one line's disposable a part of a block.
        ///
        /// - Parameter disposable: The line's disposable.
        /// - Returns: A one-element list.
        public static func buildExpression(_ disposable: any Disposable) -> [any Disposable] {
            [disposable]
        }

        /// The disposables of an `if` without `else`, or none when the condition is false.
        ///
        /// - Parameter disposables: The block's disposables, if it ran.
        /// - Returns: The disposables, or an empty list.
        public static func buildOptional(_ disposables: [any Disposable]?) -> [any Disposable] {
            disposables ?? []
        }

        /// The disposables of the `if` branch of an `if`/`else`.
        ///
        /// - Parameter first: The branch's disposables.
        /// - Returns: The same disposables.
        public static func buildEither(first: [any Disposable]) -> [any Disposable] {
            first
        }

        /// The disposables of the `else` branch of an `if`/`else`.
        ///
        /// - Parameter second: The branch's disposables.
        /// - Returns: The same disposables.
        public static func buildEither(second: [any Disposable]) -> [any Disposable] {
            second
        }

        /// The disposables of every iteration of a `for` loop.
        ///
        /// - Parameter iterations: Each iteration's disposables.
        /// - Returns: All of them in order.
        public static func buildArray(_ iterations: [[any Disposable]]) -> [any Disposable] {
            iterations.flatMap { $0 }
        }
    }
}
