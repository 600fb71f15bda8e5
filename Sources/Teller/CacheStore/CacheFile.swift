import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// How a ``FileCacheStore`` names and lays out one tag's file.
///
/// Names: any string may be a tag ("/", "..", an empty string, a URL, emoji), so a file name is
/// never the tag itself but a readable part (the tag's first ASCII letters and digits, every
/// other character as `_`) and a 64-bit FNV-1a hash of the whole tag in hex:
/// `Repos_for_octocat_6f1d0c93b2a4e871.json`. It never starts with a dot, so the lock and
/// temporary files (which do) are apart, and never holds a path separator.
///
/// Content: one JSON object whose first line holds the tag, so eviction learns a file's tag
/// by reading one line, and the whole file decodes as ``Envelope``:
///
/// ```text
/// {"tag":"Repos for octocat","version":1,
/// "value":[…the value, as the store's encoder writes it…]}
/// ```
enum CacheFile {
    /// The file's format version.
    static let version = 1
    /// How many characters of the tag the readable part keeps.
    static let readableLength = 40

    /// The file name for `tag`.
    static func name(forTag tag: String) -> String {
        var readable = ""
        for scalar in tag.unicodeScalars.prefix(readableLength) {
            let isPlain = scalar.isASCII && isASCIILetterOrDigit(UInt8(scalar.value))
            readable.unicodeScalars.append(isPlain ? scalar : "_")
        }
        return "\(readable)_\(hexHash(tag)).json"
    }

    /// Whether `name` (a directory entry) is a name ``name(forTag:)`` makes. Other files in the
    /// folder (a metadata file, the lock, temporary files) are never read, counted or removed.
    static func isCacheFileName(_ name: some StringProtocol) -> Bool {
        guard name.hasSuffix(".json") else { return false }
        let stem = name.dropLast(5).utf8
        guard stem.count >= 17, stem.count <= readableLength + 17 else { return false }
        let hash = stem.suffix(16)
        let separator = stem.dropLast(16).last
        let readable = stem.dropLast(17)
        return separator == UInt8(ascii: "_")
            && hash.allSatisfy {
                (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
                    || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0)
            }
            && readable.allSatisfy { $0 == UInt8(ascii: "_") || isASCIILetterOrDigit($0) }
    }

    /// Whether `name` is a temporary file of a write to a cache file that never finished (a
    /// crash between writing and renaming): `.<cache file name>.<pid>.<uuid>.tmp`.
    static func isTemporaryFileName(_ name: String) -> Bool {
        guard name.hasPrefix("."), name.hasSuffix(".tmp"), let end = name.range(of: ".json.") else { return false }
        return isCacheFileName(name[name.index(after: name.startIndex)..<end.lowerBound] + ".json")
    }

    /// The temporary file a write of `name` goes through before it is renamed.
    static func temporaryName(for name: String) -> String {
        ".\(name).\(getpid()).\(UUID().uuidString).tmp"
    }

    private static func isASCIILetterOrDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    /// FNV-1a, 64 bits, of the tag's UTF-8: stable across launches and platforms (unlike
    /// `hashValue`), so a relaunched app finds its files.
    static func hexHash(_ tag: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in tag.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// The file's content for `value`, already encoded, of `tag`.
    static func contents(tag: String, encodedValue: Data) throws -> Data {
        var data = Data("{\"tag\":".utf8)
        // A JSON string never holds a raw line break (JSONEncoder escapes it), so the first line
        // ends right after the version.
        data.append(try JSONEncoder().encode(tag))
        data.append(Data(",\"version\":\(version),\n\"value\":".utf8))
        data.append(encodedValue)
        data.append(Data("}".utf8))
        return data
    }

    /// The whole file, decoded.
    struct Envelope<Value: Decodable>: Decodable {
        let tag: String
        let version: Int
        let value: Value
    }

    /// What the first line says.
    private struct Header: Decodable {
        let tag: String
        let version: Int
    }

    /// The tag written in the file at `path`, read from its first line; `nil` when the file is
    /// gone or its first line is not a header.
    static func tag(atPath path: String) -> String? {
        guard let line = firstLine(atPath: path), line.last == UInt8(ascii: ",") else { return nil }
        // `{"tag":…,"version":1,` becomes the object `{"tag":…,"version":1}`.
        var object = line.dropLast()
        object.append(UInt8(ascii: "}"))
        return try? JSONDecoder().decode(Header.self, from: object).tag
    }

    /// The bytes before the first line break, at most 64 KiB.
    private static func firstLine(atPath path: String) -> Data? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var line = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while line.count < 65_536 {
            let count = read(descriptor, &buffer, buffer.count)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return nil }
            if let end = buffer[0..<count].firstIndex(of: UInt8(ascii: "\n")) {
                line.append(contentsOf: buffer[0..<end])
                return line
            }
            line.append(contentsOf: buffer[0..<count])
        }
        return nil
    }
}
