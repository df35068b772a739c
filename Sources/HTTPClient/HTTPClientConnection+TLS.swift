import Glibc

extension HTTPClientConnection {
    /// Runs the TLS handshake on the connected socket before `deadline`, verifying that the
    /// certificate names `serverName`; from then on `send` and `receive` go through TLS.
    func startTLS(_ context: TLSContext, serverName: String) throws(HTTPClientError) {
        let session = try TLSSession(context: context.prepared(), descriptor: descriptor, serverName: serverName)
        while true {
            switch try session.handshakeStep() {
            case .done, .closed:
                tls = session
                return
            case .wantRead:
                try waitUntilReady(Int16(POLLIN), until: deadline, timeoutError: .timeout)
            case .wantWrite:
                try waitUntilReady(Int16(POLLOUT), until: deadline, timeoutError: .timeout)
            }
        }
    }

    /// Writes every byte through `session`, waiting on the socket as it asks.
    func sendSecurely(_ bytes: [UInt8], through session: TLSSession) throws(HTTPClientError) {
        var offset = 0
        while offset < bytes.count {
            let progress = try bytes.withUnsafeBytes { raw in
                Result { () throws(HTTPClientError) in try session.writeStep(UnsafeRawBufferPointer(rebasing: raw[offset...])) }
            }.get()
            switch progress {
            case .done(let written): offset += written
            case .wantRead: try waitUntilReady(Int16(POLLIN), until: deadline, timeoutError: .timeout)
            case .wantWrite: try waitUntilReady(Int16(POLLOUT), until: deadline, timeoutError: .timeout)
            case .closed: throw .connectionLost("SSL_write: the peer closed the TLS stream")
            }
        }
    }

    /// Appends up to `wanted` decrypted bytes to `buffer`; 0 at the end of the TLS stream.
    func receiveSecurely(into buffer: inout [UInt8], wanted: Int, through session: TLSSession) throws(HTTPClientError) -> Int {
        let room = min(wanted, scratch.count)
        while true {
            // OpenSSL may hold decrypted bytes the socket no longer signals: always read before polling.
            let step = scratch.withUnsafeMutableBytes { space in
                Result { () throws(HTTPClientError) in try session.readStep(into: UnsafeMutableRawBufferPointer(rebasing: space[0..<room])) }
            }
            switch try step.get() {
            case .done(let count):
                buffer.append(contentsOf: scratch[0..<min(count, room)])
                return count
            case .closed: return 0
            case .wantRead: try waitUntilReady(Int16(POLLIN), until: deadline, timeoutError: .timeout)
            case .wantWrite: try waitUntilReady(Int16(POLLOUT), until: deadline, timeoutError: .timeout)
            }
        }
    }
}
