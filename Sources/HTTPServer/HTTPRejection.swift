import HTTPWire
/// A request the server answered itself before any handler saw it: malformed, too large, too slow, or
/// over the connection cap. Handed to the server's rejection handler, so it is logged and counted too.
public struct HTTPRejection: Sendable {
    /// The status of the error response (400, 408, 413, 414, 431, 501, 503, 505, ...).
    public var status: HTTPStatus
    /// The one-line reason the response body gives.
    public var reason: String
    /// The method, when the request line arrived whole; empty otherwise.
    public var method: String
    /// The request target as received, when the request line arrived whole; empty otherwise.
    public var target: String
    /// The Origin field's value, when the head got that far; nil otherwise.
    public var origin: String?
    /// The peer address, `ip:port`.
    public var remoteAddress: String
    /// From the request's first byte (as the loop saw it arrive) to the rejection.
    public var durationMilliseconds: Double
    /// The length of the error response's body.
    public var bodyBytes: Int

    /// Makes a rejection; the server fills these in, tests may build them directly.
    public init(
        status: HTTPStatus, reason: String, method: String = "", target: String = "", origin: String? = nil,
        remoteAddress: String = "", durationMilliseconds: Double = 0, bodyBytes: Int = 0
    ) {
        self.status = status
        self.reason = reason
        self.method = method
        self.target = target
        self.origin = origin
        self.remoteAddress = remoteAddress
        self.durationMilliseconds = durationMilliseconds
        self.bodyBytes = bodyBytes
    }

    /// The request line and the Origin field, read as far as `head` holds them whole: only complete
    /// lines are looked at, and nothing here can fail (the head was refused already). Off the request
    /// path (a refused head only), so it reads a bounds-checked copy.
    mutating func read(head: ArraySlice<UInt8>) {
        var isRequestLine = true
        var rest = head
        while let newline = rest.firstIndex(of: 0x0A) {
            var line = rest[..<newline]
            if line.last == 0x0D { line = line.dropLast() }
            rest = rest[(newline + 1)...]
            if isRequestLine {
                readRequestLine(line)
                isRequestLine = false
            } else if line.isEmpty {
                return
            } else if let value = Self.value(of: line, named: "origin") {
                origin = value
            }
        }
    }

    /// `method SP target SP version`: the first two parts, if the line has that shape.
    private mutating func readRequestLine(_ line: ArraySlice<UInt8>) {
        let parts = line.split(separator: 0x20, maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, parts[0].allSatisfy(HTTPSyntax.isTokenByte) else { return }
        method = String(decoding: parts[0], as: UTF8.self)
        target = String(decoding: parts[1], as: UTF8.self)
    }

    /// The trimmed value of a `name: value` line whose name is `lowercaseName` (any case), else nil.
    private static func value(of line: ArraySlice<UInt8>, named lowercaseName: String) -> String? {
        let name = line.prefix(lowercaseName.utf8.count)
        guard name.count == lowercaseName.utf8.count, line.dropFirst(name.count).first == 0x3A,
              zip(name, lowercaseName.utf8).allSatisfy({ $0 | 0x20 == $1 }) else { return nil }
        var value = line.dropFirst(name.count + 1)
        while let byte = value.first, byte == 0x20 || byte == 0x09 { value = value.dropFirst() }
        while let byte = value.last, byte == 0x20 || byte == 0x09 { value = value.dropLast() }
        return String(decoding: value, as: UTF8.self)
    }
}

/// Called on the loop thread for each request the server refuses itself (see `HTTPRejection`); the
/// fields it returns are added to the error response. Like `HTTPImmediateHandler`, it must never block.
public typealias HTTPRejectionHandler = @Sendable (HTTPRejection) -> HTTPHeaders
