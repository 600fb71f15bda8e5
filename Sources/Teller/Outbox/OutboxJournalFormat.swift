import Foundation

/// How an outbox journal entry is laid out on disk, and how a run of journal bytes is read back.
///
/// An entry is a 12-byte header followed by its body:
///
/// | bytes | content |
/// | --- | --- |
/// | 4 | the marker `FF FE 4F 31` |
/// | 4 | the body's length, unsigned, little-endian |
/// | 4 | the CRC-32 of the four length bytes and the body, little-endian |
/// | length | the ``OutboxJournalEntry`` as UTF-8 JSON |
///
/// The length lets a reader step over an entry without decoding it; the checksum covers the
/// length too, so a damaged length is caught. When an entry does not check out (damaged
/// marker, length or body), the reader looks for the next marker that starts an entry which
/// does check out, and goes on from there: a damaged entry in the middle costs that entry
/// only, never its neighbours. The marker starts with `FF FE`, bytes that never occur in UTF-8,
/// so it cannot appear inside a JSON body; inside a header's length or checksum it can only by
/// chance, and then the entry it seems to start must also pass a 32-bit checksum. Damage with
/// no whole entry after it is a torn tail: the end of an append that a crash interrupted.
package enum OutboxJournalFormat {
    static let marker: [UInt8] = [0xFF, 0xFE, 0x4F, 0x31]
    static let headerSize = 12
    /// The largest body accepted, so that a damaged length can't make a reader allocate much.
    static let maximumBodySize = 16 * 1024 * 1024

    /// What a run of journal bytes holds.
    struct Scan {
        /// The whole entries read, in file order, each with its size on disk.
        var entries: [(entry: OutboxJournalEntry, size: Int)] = []
        /// The damaged entries skipped and the torn tail ignored, if any.
        var problems: [OutboxJournalProblem] = []
        /// How many bytes, from the start of the run, end with its last whole entry: what
        /// follows is a torn tail.
        var consumed = 0
    }

    /// `entry` as it goes on disk, header included.
    ///
    /// - Throws: ``OutboxJournalError/entryTooLarge(bytes:limit:)`` when its JSON exceeds
    ///   ``maximumBodySize``; an `EncodingError` when the entry can't be encoded.
    package static func encode(_ entry: OutboxJournalEntry) throws -> Data {
        // Enqueueing is the hot path: its entry is written by hand, the same JSON.
        if case .enqueued(let record) = entry, let body = enqueuedBody(record) { return try frame(body: body) }
        return try frame(body: encoder.encode(entry))
    }

    /// `body` with the header that makes it an entry.
    ///
    /// - Throws: ``OutboxJournalError/entryTooLarge(bytes:limit:)`` when it exceeds
    ///   ``maximumBodySize``.
    package static func frame(body: Data) throws -> Data {
        guard body.count <= maximumBodySize else {
            throw OutboxJournalError.entryTooLarge(bytes: body.count, limit: maximumBodySize)
        }
        var frame = Data(capacity: headerSize + body.count)
        frame.append(contentsOf: marker)
        let length = UInt32(body.count).littleEndian
        let checksum = withUnsafeBytes(of: length) { lengthBytes in
            frame.append(contentsOf: lengthBytes)
            return body.withUnsafeBytes { CRC32.checksum($0, continuing: CRC32.checksum(lengthBytes)) }
        }
        withUnsafeBytes(of: checksum.littleEndian) { frame.append(contentsOf: $0) }
        frame.append(body)
        return frame
    }

    /// Reads the entries in `data`, which starts `fileOffset` bytes into the journal at `url`
    /// (the offset and URL only label the problems reported).
    static func scan(_ data: Data, fileOffset: Int64, url: URL) -> Scan {
        var scan = Scan()
        data.withUnsafeBytes { bytes in
            var position = 0
            while position < bytes.count {
                if let body = body(in: bytes, at: position) {
                    let size = headerSize + body.count
                    do {
                        let entry = try decoder.decode(
                            OutboxJournalEntry.self,
                            from: Data(UnsafeRawBufferPointer(rebasing: bytes[body]))
                        )
                        scan.entries.append((entry, size))
                    } catch {
                        // Whole and checked, so its length is right: skip just this entry.
                        let reason = "its content could not be decoded (\(error))"
                        scan.problems.append(
                            .damagedEntry(url: url, offset: fileOffset + Int64(position), bytes: size, reason: reason)
                        )
                    }
                    position += size
                    scan.consumed = position
                } else if let next = nextEntry(in: bytes, after: position) {
                    scan.problems.append(
                        .damagedEntry(
                            url: url,
                            offset: fileOffset + Int64(position),
                            bytes: next - position,
                            reason: "its marker, length or checksum is wrong"
                        )
                    )
                    position = next
                } else {
                    scan.problems.append(
                        .tornTail(url: url, offset: fileOffset + Int64(position), bytes: bytes.count - position)
                    )
                    break
                }
            }
        }
        return scan
    }

    /// The range of the body of the whole, checked entry at `position`, or `nil` when none
    /// starts there.
    private static func body(in bytes: UnsafeRawBufferPointer, at position: Int) -> Range<Int>? {
        guard bytes.count - position >= headerSize, marker.indices.allSatisfy({ bytes[position + $0] == marker[$0] })
        else { return nil }
        let length = Int(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: position + 4, as: UInt32.self)))
        let start = position + headerSize
        guard length <= maximumBodySize, length <= bytes.count - start else { return nil }
        let stored = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: position + 8, as: UInt32.self))
        let lengthChecksum = CRC32.checksum(UnsafeRawBufferPointer(rebasing: bytes[(position + 4)..<(position + 8)]))
        let body = start..<(start + length)
        let checksum = CRC32.checksum(UnsafeRawBufferPointer(rebasing: bytes[body]), continuing: lengthChecksum)
        return checksum == stored ? body : nil
    }

    /// The position of the first whole, checked entry after `position`, if any.
    private static func nextEntry(in bytes: UnsafeRawBufferPointer, after position: Int) -> Int? {
        var candidate = position + 1
        while candidate + headerSize <= bytes.count {
            if bytes[candidate] == marker[0], body(in: bytes, at: candidate) != nil { return candidate }
            candidate += 1
        }
        return nil
    }

    // Dates as Foundation stores them (seconds since 2001 as a Double), which JSON keeps
    // exactly; keys sorted, so one entry always makes the same bytes.
    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }()
    private static let decoder = JSONDecoder()
}
