#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension ObservableType where Element == Data {
    /// Decodes each `Data` element into `type` with `decoder`.
    ///
    /// Decoding runs synchronously on the thread that delivers each element. If it throws
    /// (malformed data, a missing key, …), that error is sent downstream and the source is
    /// disposed.
    ///
    /// ```swift
    /// responses.decode(type: User.self, decoder: JSONDecoder())
    /// ```
    ///
    /// - Parameters:
    ///   - type: The `Decodable` type to decode.
    ///   - decoder: A decoder such as `JSONDecoder` or `PropertyListDecoder`, or any type
    ///     conforming to ``DataDecoder``. It is shared by every element and subscription.
    /// - Returns: An observable of the decoded values.
    public func decode<Item: Decodable & Sendable>(
        type: Item.Type,
        decoder: some DataDecoder & Sendable
    ) -> Observable<Item> {
        map { try decoder.decode(type, from: $0) }
    }
}

/// A decoder that turns `Data` into a `Decodable` value, for
/// ``ObservableType/decode(type:decoder:)``.
///
/// `JSONDecoder` and `PropertyListDecoder` conform. Conform your own decoder to use it with
/// `decode(type:decoder:)`; it must be `Sendable`, because elements may be decoded on any thread.
public protocol DataDecoder {
    /// Decodes a value of `type` from `data`.
    ///
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - data: The encoded bytes.
    /// - Returns: The decoded value.
    /// - Throws: Whatever the decoder throws for data it cannot decode.
    func decode<Item: Decodable>(_ type: Item.Type, from data: Data) throws -> Item
}

extension JSONDecoder: DataDecoder {}
extension PropertyListDecoder: DataDecoder {}
