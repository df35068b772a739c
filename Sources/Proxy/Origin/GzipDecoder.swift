/// Decodes gzip bodies (RFC 1952) under an output cap.
enum GzipDecoder {
    /// Whether decoding is implemented; when false, gzip bodies are refused.
    static let isAvailable = false

    /// The decoded bytes, or an error for corrupt input or output beyond `maxOutputBytes`.
    static func decode(_ bytes: [UInt8], maxOutputBytes: Int) throws(OriginError) -> [UInt8] {
        throw .badResponse("gzip body not supported")
    }
}
