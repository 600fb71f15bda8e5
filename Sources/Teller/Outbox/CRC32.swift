/// CRC-32 (the IEEE polynomial, as zlib, gzip and PNG use it), to tell an outbox journal entry
/// that was written whole from one torn by a crash or damaged on disk.
enum CRC32 {
    private static let table: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 {
            value = value & 1 == 1 ? (value >> 1) ^ 0xEDB8_8320 : value >> 1
        }
        return value
    }

    /// The checksum of `bytes`, continuing from `checksum` (the result of an earlier call over
    /// the bytes before them; 0 to start).
    static func checksum(_ bytes: UnsafeRawBufferPointer, continuing checksum: UInt32 = 0) -> UInt32 {
        table.withUnsafeBufferPointer { table in
            var value = ~checksum
            for byte in bytes {
                value = table[Int((value ^ UInt32(byte)) & 0xFF)] ^ (value >> 8)
            }
            return ~value
        }
    }
}
