import HTTPServer
import HTTPWire

extension DiskCacheEntry {
    /// Piece files end in this; temp files add `.tmp.<n>` to it.
    static let pieceSuffix = ".piece"

    /// The file name of the piece of `key` that starts at `offset`: a newer piece at the same offset
    /// replaces the older one.
    static func pieceFileName(forKey key: String, offset: Int) -> String {
        keyHash(key) + "." + String(offset) + pieceSuffix
    }

    /// The validator that says which version of the object these bytes belong to: a strong ETag, else
    /// Last-Modified (RFC 9110 §8.8.1: a weak ETag does not promise identical bytes, so it cannot join
    /// ranges). Nil when the origin sent neither.
    var validator: String? {
        Self.validator(in: fields)
    }

    /// The validator of a set of response fields (see `validator`).
    static func validator(in fields: [(name: String, value: String)]) -> String? {
        func value(_ name: String) -> String? {
            fields.first { $0.name.lowercased() == name.lowercased() }?.value
        }
        if let etag = value(HTTPFieldName.etag.text), etag.hasPrefix("\"") { return etag }
        return value(HTTPFieldName.lastModified.text)
    }

    /// Whether two stored bodies are known to be bytes of the same version of one object, so ranges of
    /// them may be served side by side: same key, same object length and the same validator. Without a
    /// validator nothing says two answers are the same version, so they never are.
    func isSameVersion(as other: DiskCacheEntry) -> Bool {
        guard let validator, key == other.key, validator == other.validator else { return false }
        return objectLength == other.objectLength
    }

    /// The length of the whole object these bytes belong to.
    var objectLength: Int { piece?.objectLength ?? length }
}
