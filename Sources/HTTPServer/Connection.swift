import HTTPWire

/// One accepted connection's state, owned by its loop (in the loop's `ConnectionTable`). Kept small: an idle
/// keep-alive connection holds no buffers at all (reads go through the loop's shared buffer; only leftover bytes are kept).
final class Connection {
    /// Where the connection is in its request/response cycle.
    enum State {
        /// Waiting for (the rest of) a request head.
        case awaitingHead
        /// Head parsed; reading past its body (Content-Length or chunked), which is discarded as it arrives.
        case readingBody
        /// A handler task is running; further input stays unparsed until the response is written.
        case handling
        /// A response is being written.
        case writing
        /// A streamed body's head and pieces so far are written; waiting for the producer's next piece.
        case streaming
        /// Write side shut after a closing response; discarding input until the peer closes.
        case lingering
    }

    let socket: Socket
    /// Distinguishes this connection from a later one that reuses the descriptor.
    let id: UInt32
    let remoteAddress: String
    var state: State = .awaitingHead

    /// Received bytes, not consumed yet from `inputStart` on (a partial head, or pipelined requests).
    /// The consumed front is skipped rather than cut off, so a run of pipelined requests is not copied
    /// once per request.
    // Unchecked exclusivity, with the loop fields listed at ConnectionTable.slots: the access checks cost
    // +18 % per health request.
    @exclusivity(unchecked) var input: [UInt8] = []
    var inputStart = 0
    /// `input` holds bytes not consumed yet.
    var hasBufferedInput: Bool { inputStart < input.count }

    /// Forgets every received byte not consumed yet.
    func discardInput() {
        input = []
        inputStart = 0
    }
    /// `input` holds bytes that followed a complete request and the parser has not seen yet.
    var inputAwaitsParsing = false
    @exclusivity(unchecked) var scanner = HeadScanner()
    /// The head whose body is being read past.
    var pendingHead: RequestHead?
    /// Bytes of a Content-Length body still to come.
    var bodyRemaining = 0
    /// Where a chunked body's framing stands, while one is read past.
    var chunkedBody: ChunkedBodyDiscarder?
    /// The kernel may hold unread input (edge-triggered: no new event comes for it).
    var readable = false
    /// The peer shut its write side (EPOLLRDHUP): read on to the end of stream, even after a short read.
    var peerShutdown = false

    var isHeadRequest = false
    var keepAlive = true
    var requestVersion = HTTPVersion.http1_1
    var handlerTask: Task<Void, Never>?

    var outputHead: [UInt8] = []
    var outputBody: [UInt8] = []
    var outputOffset = 0
    var closeAfterWrite = false
    /// The file region sent after `outputHead` and `outputBody`, and how much of it is sent.
    var outputFile: HTTPFileRegion?
    var outputFileSent = 0
    /// The streamed body being sent, if the current response has one.
    var bodyPump: ResponseBodyPump?
    /// Counted in `openConnections` and against the cap (a lingering or over-cap connection is not).
    var isServing = true

    init(socket: Socket, id: UInt32, remoteAddress: String) {
        self.socket = socket
        self.id = id
        self.remoteAddress = remoteAddress
    }

    /// The epoll token: the generation in the high half, the descriptor in the low half.
    var token: UInt64 { UInt64(id) << 32 | UInt64(UInt32(bitPattern: socket.fd)) }
}
