/// Where an `HTTPResponseReader` gets its bytes: a socket in production, canned chunks in tests.
protocol HTTPByteSource {
    /// Appends at most `limit` bytes to `buffer`; returns how many, 0 at end of stream.
    func receive(into buffer: inout [UInt8], limit: Int) throws(HTTPClientError) -> Int
}

extension HTTPClientConnection: HTTPByteSource {}
