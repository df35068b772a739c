/// Where a stored range (a piece) sits in the origin object: its first byte and the object's full
/// length, both from the origin's `Content-Range: bytes first-last/length` (RFC 9110 §14.4).
struct DiskCachePlacement: Sendable, Equatable {
    /// The object offset of the piece's first byte.
    var offset: Int
    /// The length of the whole object the piece belongs to.
    var objectLength: Int
}
