/// A fetched origin body as the caches keep it.
struct FetchedBody: Sendable {
    var status: Int
    var body: [UInt8]
    /// The URL after redirects: the base for the relative URIs inside the body.
    var finalURL: String
    var contentType: String?
    /// The origin's Content-Length, which is all a HEAD answer says of the body.
    var contentLength: Int? = nil
}
