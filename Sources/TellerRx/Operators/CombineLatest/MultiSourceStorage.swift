/// What a `combineLatest` or `zip` sink needs to know about one typed source without knowing
/// its type: how much room its stored value takes and how to set up and destroy that value.
/// The typed subclasses (`CombineLatestSourceOf`, `ZipSourceOf`) also subscribe themselves.
///
/// Sinks keep these in a non-generic array: in unspecialized generic code (all of an operator
/// chain) iterating an array of a generic element type costs runtime metadata lookups per step.
/// `@usableFromInline` for the `@inlinable` overloads that create the subclasses.
@usableFromInline
class MultiSourceInput: @unchecked Sendable {
    // @unchecked: immutable.
    /// Size and alignment of the value stored for this source.
    let size: Int
    let alignment: Int
    /// Whether the source is a `just` (see `Observable.withScalarElement`): a sink that takes
    /// its element and completion at once, without subscribing, needs no observer for it.
    let isScalar: Bool

    init(size: Int, alignment: Int, isScalar: Bool = false) {
        self.size = size
        self.alignment = alignment
        self.isScalar = isScalar
    }

    /// Puts the value a sink starts with into `storage` (nothing, for a latest element).
    func initializeStorage(_ storage: UnsafeMutableRawPointer) {}

    /// Destroys the value in `storage`.
    func deinitializeStorage(_ storage: UnsafeMutableRawPointer) {
        preconditionFailure("MultiSourceInput.deinitializeStorage must be overridden")
    }
}

/// Where everything lives inside one sink's single allocation, computed once per producer:
/// a table of value pointers (what result functions read), two flags per source, then the
/// values themselves, each at ``valueOffset(after:for:)`` from where the previous one ends.
struct MultiSourceLayout: Sendable {
    let count: Int
    let flagsOffset: Int
    let byteCount: Int
    let alignment: Int
    /// How many inputs are not scalar: the observers a sink creates.
    let observerCount: Int

    init(_ inputs: [MultiSourceInput]) {
        count = inputs.count
        // The table of value pointers comes first, at offset 0.
        flagsOffset = count * MemoryLayout<UnsafeMutableRawPointer>.stride
        var end = flagsOffset + 2 * count
        var alignment = MemoryLayout<UnsafeMutableRawPointer>.alignment
        var observerCount = 0
        for input in inputs {
            end = Self.valueOffset(after: end, for: input) + input.size
            alignment = max(alignment, input.alignment)
            if !input.isScalar { observerCount += 1 }
        }
        self.alignment = alignment
        self.observerCount = observerCount
        byteCount = max(end, 1)
    }

    /// Where the value of `input` starts when the one before it ends at `end`. Recomputed by
    /// each storage rather than kept in an array: one allocation less per producer.
    @inline(__always)
    static func valueOffset(after end: Int, for input: MultiSourceInput) -> Int {
        // Alignments are powers of two.
        (end + input.alignment - 1) & ~(input.alignment - 1)
    }
}

/// One sink's values, flags and value table in a single allocation laid out by a
/// ``MultiSourceLayout``. Not thread-safe by itself: the owning sink guards it with its lock.
struct MultiSourceStorage {
    private let block: UnsafeMutableRawPointer
    /// Pointer `i` is the storage of source `i`'s value; what result functions read.
    let values: UnsafeMutablePointer<UnsafeMutableRawPointer>
    private let flags: UnsafeMutablePointer<Bool>
    private let count: Int

    init(layout: MultiSourceLayout, inputs: [MultiSourceInput]) {
        block = .allocate(byteCount: layout.byteCount, alignment: layout.alignment)
        count = layout.count
        values = block.bindMemory(to: UnsafeMutableRawPointer.self, capacity: count)
        flags = (block + layout.flagsOffset).bindMemory(to: Bool.self, capacity: 2 * count)
        flags.initialize(repeating: false, count: 2 * count)
        var end = layout.flagsOffset + 2 * count
        for index in 0..<count {
            let input = inputs[index]
            let offset = MultiSourceLayout.valueOffset(after: end, for: input)
            let storage = block + offset
            (values + index).initialize(to: storage)
            input.initializeStorage(storage)
            end = offset + input.size
        }
    }

    /// Destroys the values that `isInitialized` says hold one, and frees the allocation.
    func release(inputs: [MultiSourceInput], isInitialized: (Int) -> Bool) {
        for index in 0..<count where isInitialized(index) {
            inputs[index].deinitializeStorage(values[index])
        }
        block.deallocate()
    }

    /// The first flag of source `index` ("has a value" for combineLatest).
    func firstFlag(_ index: Int) -> Bool {
        flags[index]
    }

    func setFirstFlag(_ index: Int) {
        flags[index] = true
    }

    /// Where the first flag of source `index` is, for an observer that reads it under the
    /// owning sink's lock.
    func firstFlagPointer(_ index: Int) -> UnsafePointer<Bool> {
        UnsafePointer(flags + index)
    }

    /// The second flag of source `index` ("is done").
    func secondFlag(_ index: Int) -> Bool {
        flags[count + index]
    }

    func setSecondFlag(_ index: Int) {
        flags[count + index] = true
    }
}
