import HTTPServer
import HTTPWire

/// What the redirect loop reads of one hop's answer: its status and fields, and a way to let go of
/// an answer that turned out to be a redirect.
protocol OriginHopResponse {
    /// The status code.
    var status: Int { get }
    /// The end-to-end header fields (Location among them).
    var headers: HTTPHeaders { get }
    /// Lets go of the answer once its redirect is being followed.
    func discard()
}

extension OriginResponse: OriginHopResponse {
    /// A whole body holds nothing open.
    func discard() {}
}

extension OriginStream: OriginHopResponse {
    /// A redirect's body is never read: the origin transfer ends here.
    func discard() { cancel() }
}
