/// A body the proxy made, with its strong ETag computed once when it was made (`EntityTag.make`), so
/// a cached body is answered, and revalidated, without hashing it again.
struct TaggedBody: Sendable {
    var bytes: [UInt8]
    var etag: String

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        self.etag = EntityTag.make(for: bytes)
    }
}
