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
    /// Size and alignment of one element: what a result takes from the stored value (see
    /// ``take(from:into:)``).
    let elementSize: Int
    let elementAlignment: Int
    /// Whether taking for a result is copying the stored value's bytes: it is the latest
    /// element, and a plain value.
    let takesAsBytes: Bool
    /// Whether the source is a `just` (see `Observable.withScalarElement`): a sink that takes
    /// its element and completion at once, without subscribing, needs no observer for it.
    let isScalar: Bool

    init(size: Int, alignment: Int, elementSize: Int, elementAlignment: Int, takesAsBytes: Bool, isScalar: Bool) {
        self.size = size
        self.alignment = alignment
        self.elementSize = elementSize
        self.elementAlignment = elementAlignment
        self.takesAsBytes = takesAsBytes
        self.isScalar = isScalar
    }

    /// Puts the value a sink starts with into `storage` (nothing, for a latest element).
    func initializeStorage(_ storage: UnsafeMutableRawPointer) {}

    /// Destroys the value in `storage`.
    func deinitializeStorage(_ storage: UnsafeMutableRawPointer) {
        preconditionFailure("MultiSourceInput.deinitializeStorage must be overridden")
    }

    /// Under the owning sink's lock: initializes `slot` with the element a result takes from the
    /// value in `storage` (a copy of the latest element, or the oldest queued one, dequeued).
    /// Copying or moving a value runs no user code; releasing one can.
    func take(from storage: UnsafeMutableRawPointer, into slot: UnsafeMutableRawPointer) {
        preconditionFailure("MultiSourceInput.take(from:into:) must be overridden")
    }

    /// Destroys the element in `slot` (a snapshot no result took; see ``MultiSourceSnapshot``).
    func deinitializeElement(_ slot: UnsafeMutableRawPointer) {
        preconditionFailure("MultiSourceInput.deinitializeElement must be overridden")
    }
}

/// Where everything lives inside one sink's single allocation, computed once per producer:
/// a table of value pointers, two flags per source, then the values themselves, each aligned
/// after the previous one; then the snapshot of the thread holding the delivery turn (what
/// result functions read), of the same shape, with room for one element per source.
struct MultiSourceLayout: Sendable {
    let count: Int
    let flagsOffset: Int
    /// Where the values start and end (with padding between them), word-aligned.
    let valuesOffset: Int
    let valuesEnd: Int
    /// Where the turn's snapshot starts: the same shape (table, room for the flags, values),
    /// laid out for elements (see ``MultiSourceSnapshot``).
    let snapshotOffset: Int
    /// The size of a snapshot, from its table to the end of its last element, word-aligned.
    let snapshotByteCount: Int
    let byteCount: Int
    let alignment: Int
    /// How many inputs are not scalar: the observers a sink creates.
    let observerCount: Int
    /// Whether every input takes its element as bytes: a snapshot is then one copy of the
    /// values, which sit at the same offsets in it.
    let takesAsBytes: Bool

    init(_ inputs: [MultiSourceInput]) {
        count = inputs.count
        // The table of value pointers comes first, at offset 0.
        flagsOffset = count * MemoryLayout<UnsafeMutableRawPointer>.stride
        // Word-aligned, as are the ends of both value regions: a snapshot of plain values
        // copies whole words.
        valuesOffset = Self.aligned(flagsOffset + 2 * count, to: MemoryLayout<UInt>.alignment)
        var end = valuesOffset
        var elementEnd = valuesOffset
        var alignment = MemoryLayout<UnsafeMutableRawPointer>.alignment
        var observerCount = 0
        var takesAsBytes = true
        for input in inputs {
            end = Self.aligned(end, to: input.alignment) + input.size
            elementEnd = Self.aligned(elementEnd, to: input.elementAlignment) + input.elementSize
            alignment = max(alignment, input.alignment, input.elementAlignment)
            if !input.isScalar { observerCount += 1 }
            takesAsBytes = takesAsBytes && input.takesAsBytes
        }
        self.alignment = alignment
        self.observerCount = observerCount
        self.takesAsBytes = takesAsBytes
        if takesAsBytes {
            // Room for at least one chunk of plain values in both regions (see
            // ``MultiSourceStorage/takeForTurn(inputs:)``).
            end = max(end, valuesOffset + MultiSourceStorage.chunkSize)
            elementEnd = end
        }
        valuesEnd = Self.aligned(end, to: MemoryLayout<UInt>.alignment)
        snapshotOffset = Self.aligned(valuesEnd, to: alignment)
        snapshotByteCount = Self.aligned(elementEnd, to: MemoryLayout<UInt>.alignment)
        byteCount = max(snapshotOffset + snapshotByteCount, 1)
    }

    /// Where a value of `alignment` starts when the one before it ends at `end`. Recomputed by
    /// each storage rather than kept in an array: one allocation less per producer.
    @inline(__always)
    static func aligned(_ end: Int, to alignment: Int) -> Int {
        // Alignments are powers of two.
        (end + alignment - 1) & ~(alignment - 1)
    }

    /// Lays out a snapshot at `base` (aligned to ``alignment``): returns its table, each
    /// pointer at room for one element, uninitialized.
    func initializeSnapshotTable(
        at base: UnsafeMutableRawPointer,
        inputs: [MultiSourceInput]
    ) -> UnsafeMutablePointer<UnsafeMutableRawPointer> {
        let table = base.bindMemory(to: UnsafeMutableRawPointer.self, capacity: count)
        var end = valuesOffset
        for index in 0..<count {
            let input = inputs[index]
            let offset = Self.aligned(end, to: input.elementAlignment)
            (table + index).initialize(to: base + offset)
            end = offset + input.elementSize
        }
        return table
    }
}

/// One sink's values, flags and value table in a single allocation laid out by a
/// ``MultiSourceLayout``. Not thread-safe by itself: the owning sink guards it with its lock.
struct MultiSourceStorage {
    private let block: UnsafeMutableRawPointer
    /// Pointer `i` is the storage of source `i`'s value.
    let values: UnsafeMutablePointer<UnsafeMutableRawPointer>
    /// The snapshot of the thread holding the sink's delivery turn: what result functions read
    /// (see ``take(into:inputs:)``), once the lock is released. Other threads never touch it
    /// (they take into a ``MultiSourceSnapshot`` of their own).
    let snapshot: UnsafeMutablePointer<UnsafeMutableRawPointer>
    private let flags: UnsafeMutablePointer<Bool>
    private let count: Int
    private let valuesOffset: Int
    /// How many bytes of values a snapshot copies if every input takes its element as bytes
    /// (see ``MultiSourceLayout/takesAsBytes``); -1 if not.
    private let bytesToCopy: Int
    /// Where the values start, in the storage and in the turn's snapshot: for a snapshot of
    /// plain values, one copy from the first to the second.
    private let storedValues: UnsafeRawPointer
    private let snapshotValues: UnsafeMutableRawPointer

    init(layout: MultiSourceLayout, inputs: [MultiSourceInput]) {
        block = .allocate(byteCount: layout.byteCount, alignment: layout.alignment)
        count = layout.count
        values = block.bindMemory(to: UnsafeMutableRawPointer.self, capacity: count)
        flags = (block + layout.flagsOffset).bindMemory(to: Bool.self, capacity: 2 * count)
        flags.initialize(repeating: false, count: 2 * count)
        var end = layout.valuesOffset
        for index in 0..<count {
            let input = inputs[index]
            let offset = MultiSourceLayout.aligned(end, to: input.alignment)
            let storage = block + offset
            (values + index).initialize(to: storage)
            input.initializeStorage(storage)
            end = offset + input.size
        }
        snapshot = layout.initializeSnapshotTable(at: block + layout.snapshotOffset, inputs: inputs)
        valuesOffset = layout.valuesOffset
        bytesToCopy = layout.takesAsBytes ? layout.valuesEnd - layout.valuesOffset : -1
        storedValues = UnsafeRawPointer(block + layout.valuesOffset)
        snapshotValues = block + layout.snapshotOffset + layout.valuesOffset
    }

    /// Under the owning sink's lock, when the thread that now holds the delivery turn decided
    /// a result: ``take(into:inputs:)`` into the turn's ``snapshot``.
    @inline(__always)
    func takeForTurn(inputs: [MultiSourceInput]) {
        if bytesToCopy < 0 {
            takeOneByOne(into: snapshot, inputs: inputs)
        } else if bytesToCopy <= Self.chunkSize {
            // Plain latest elements, at the same offsets in the snapshot as in the storage, few
            // enough for one chunk (both regions have room for one): two moves, where calling
            // memcpy cost a tenth of a combined result.
            snapshotValues.storeBytes(of: storedValues.loadUnaligned(as: Chunk.self), as: Chunk.self)
        } else {
            snapshotValues.copyMemory(from: storedValues, byteCount: bytesToCopy)
        }
    }

    /// What ``takeForTurn(inputs:)`` copies at once.
    private typealias Chunk = SIMD4<UInt64>
    static let chunkSize = MemoryLayout<SIMD4<UInt64>>.size

    /// Under the owning sink's lock, when a result is decided: initializes the elements of
    /// `table` (a snapshot's, laid out by the same layout) with what the result takes from
    /// every source. A result function then moves them all out, without the lock.
    @inline(__always)
    func take(into table: UnsafeMutablePointer<UnsafeMutableRawPointer>, inputs: [MultiSourceInput]) {
        if bytesToCopy >= 0 {
            // Plain latest elements: at the same offsets in the snapshot as in the storage.
            (UnsafeMutableRawPointer(table) + valuesOffset).copyMemory(from: storedValues, byteCount: bytesToCopy)
        } else {
            takeOneByOne(into: table, inputs: inputs)
        }
    }

    @inline(never)
    private func takeOneByOne(into table: UnsafeMutablePointer<UnsafeMutableRawPointer>, inputs: [MultiSourceInput]) {
        for index in 0..<count {
            inputs[index].take(from: values[index], into: table[index])
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

/// What a result takes from every source, for a result decided while another thread (or this
/// one, further up the stack) held the sink's delivery turn: queued for the turn's holder,
/// which makes the result from it without the lock (see `LockedSink`). Released without the
/// lock too: the elements no result took are user values.
final class MultiSourceSnapshot {
    /// Pointer `i` is the element taken from source `i`; what result functions read.
    let values: UnsafeMutablePointer<UnsafeMutableRawPointer>
    private let block: UnsafeMutableRawPointer
    private let inputs: [MultiSourceInput]
    /// Whether a result function moved the elements out; if not, they are destroyed with the
    /// snapshot.
    private var isTaken = false

    /// Under the owning sink's lock: takes what a result needs from `storage`.
    init(taking storage: MultiSourceStorage, layout: MultiSourceLayout, inputs: [MultiSourceInput]) {
        block = .allocate(byteCount: max(layout.snapshotByteCount, 1), alignment: layout.alignment)
        self.inputs = inputs
        values = layout.initializeSnapshotTable(at: block, inputs: inputs)
        storage.take(into: values, inputs: inputs)
    }

    /// The elements, for a result function that moves every one of them out.
    func take() -> UnsafeMutablePointer<UnsafeMutableRawPointer> {
        isTaken = true
        return values
    }

    deinit {
        if !isTaken {
            for index in inputs.indices {
                inputs[index].deinitializeElement(values[index])
            }
        }
        block.deallocate()
    }
}
