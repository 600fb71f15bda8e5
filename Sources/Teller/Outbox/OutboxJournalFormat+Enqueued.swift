import Foundation

extension OutboxJournalFormat {
    /// The JSON body of `record`'s `.enqueued` entry, written by hand: the JSON `JSONEncoder`
    /// writes (sorted keys, the date as seconds since 2001, the payload in Base64), at a small
    /// fraction of its cost, since every enqueue encodes one. `nil` when the record holds a
    /// value JSON cannot carry (a date that is not finite): the encoder then says why.
    ///
    /// Any JSON reader reads it as it reads the encoder's, so the file format is unchanged.
    static func enqueuedBody(_ record: OutboxRecord) -> Data? {
        let seconds = record.createdAt.timeIntervalSinceReferenceDate
        guard seconds.isFinite else { return nil }
        var json: [UInt8] = []
        json.reserveCapacity(200 + record.payload.count * 4 / 3)
        json.append(contentsOf: #"{"enqueued":{"record":{"attempts":"#.utf8)
        json.append(contentsOf: String(record.attempts).utf8)
        json.append(contentsOf: #","createdAt":"#.utf8)
        // The shortest digits that read back as the same Double; "1" rather than "1.0", as
        // the encoder writes whole numbers.
        var number = seconds.description
        if number.hasSuffix(".0") { number.removeLast(2) }
        json.append(contentsOf: number.utf8)
        appendKey("id", to: &json)
        appendUUID(record.id, to: &json)
        appendMember("idempotencyKey", record.idempotencyKey, to: &json)
        appendMember("kind", record.kind, to: &json)
        appendMember("payload", record.payload.base64EncodedString(), to: &json)
        appendMember("scope", record.scope, to: &json)
        appendMember("tag", record.tag, to: &json)
        json.append(contentsOf: "}}}".utf8)
        return Data(json)
    }

    /// Appends `,"key":"value"`, the value escaped as the encoder escapes strings: the runs
    /// between characters to escape are copied whole.
    private static func appendMember(_ key: String, _ value: String, to json: inout [UInt8]) {
        appendKey(key, to: &json)
        var value = value
        value.withUTF8 { bytes in
            var runStart = 0
            for index in bytes.indices {
                let byte = bytes[index]
                guard
                    byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == UInt8(ascii: "/")
                else { continue }
                json.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                appendEscaped(byte, to: &json)
                runStart = index + 1
            }
            json.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...]))
        }
        json.append(UInt8(ascii: "\""))
    }

    /// Appends `,"key":"`.
    private static func appendKey(_ key: String, to json: inout [UInt8]) {
        json.append(contentsOf: #",""#.utf8)
        json.append(contentsOf: key.utf8)
        json.append(contentsOf: #"":""#.utf8)
    }

    /// Appends `id` as `UUID.uuidString` spells it (upper-case hex, dashes after the 4th, 6th,
    /// 8th and 10th bytes) and the closing quote.
    private static func appendUUID(_ id: UUID, to json: inout [UInt8]) {
        withUnsafeBytes(of: id.uuid) { bytes in
            for (index, byte) in bytes.enumerated() {
                if index == 4 || index == 6 || index == 8 || index == 10 { json.append(UInt8(ascii: "-")) }
                json.append(hexDigits[Int(byte >> 4)])
                json.append(hexDigits[Int(byte & 0xF)])
            }
        }
        json.append(UInt8(ascii: "\""))
    }

    private static func appendEscaped(_ byte: UInt8, to json: inout [UInt8]) {
        switch byte {
        case UInt8(ascii: "\n"): json.append(contentsOf: #"\n"#.utf8)
        case UInt8(ascii: "\r"): json.append(contentsOf: #"\r"#.utf8)
        case UInt8(ascii: "\t"): json.append(contentsOf: #"\t"#.utf8)
        case 0..<0x20:
            json.append(contentsOf: #"\u00"#.utf8)
            json.append(hexDigits[Int(byte >> 4)])
            json.append(hexDigits[Int(byte & 0xF)])
        default:
            json.append(UInt8(ascii: "\\"))
            json.append(byte)
        }
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)
}
