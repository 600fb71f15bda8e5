import Foundation

/// Turns next-page requirements into the JSON kept in ``PagingMetadata`` and back.
///
/// `NextPageRequirements` is not required to be `Codable` (the README's GitHub example uses
/// `Void`), so the conformance is looked up at run time: `Encodable`/`Decodable` values round-trip
/// through JSON, `Void` is stored as a marker, anything else is not persisted.
enum NextPageRequirementsCoding {
    private static let voidMarker = Data("[]".utf8)

    /// The JSON for `value`, or `nil` if its type cannot be persisted.
    static func encode<Value>(_ value: Value) -> Data? {
        if Value.self == Void.self { return voidMarker }
        guard let encodable = value as? any Encodable else { return nil }
        return try? JSONEncoder().encode(encodable)
    }

    /// The value stored in `data`.
    ///
    /// - Throws: When the type is not `Decodable` (it was persisted by another build of the app)
    ///   or the JSON does not decode as `Value`.
    static func decode<Value>(_ data: Data, as type: Value.Type) throws -> Value {
        if Value.self == Void.self, let void = () as? Value { return void }
        guard let decodable = type as? any Decodable.Type else {
            throw DecodingError.typeMismatch(
                type,
                DecodingError.Context(codingPath: [], debugDescription: "\(type) is not Decodable")
            )
        }
        guard let value = try decodeValue(decodable, from: data) as? Value else {
            throw DecodingError.typeMismatch(
                type,
                DecodingError.Context(codingPath: [], debugDescription: "decoded a value of another type")
            )
        }
        return value
    }

    private static func decodeValue<Decoded: Decodable>(_ type: Decoded.Type, from data: Data) throws -> Decoded {
        try JSONDecoder().decode(type, from: data)
    }
}
