import Glibc
import HTTPWire

/// One TLS connection over a socket its caller owns. Each step runs OpenSSL once and says whether it
/// finished or must wait for the socket; the caller does the waiting (poll with a deadline for the
/// client, nothing for a blocking socket), so no OpenSSL call ever blocks on a non-blocking one.
final class TLSSession {
    /// What one step came to.
    enum Progress: Equatable {
        /// Finished; for reads and writes, this many bytes.
        case done(Int)
        /// Call again once the socket is readable.
        case wantRead
        /// Call again once the socket is writable.
        case wantWrite
        /// The peer ended the TLS stream (close_notify, or a close without one).
        case closed
    }

    let library: TLSLibrary
    private var pointer: OpaquePointer?
    /// Set after a fatal error: OpenSSL forbids SSL_shutdown then.
    private var failed = false

    /// A client session on `descriptor` expecting `serverName` (a DNS name or an IP literal, which
    /// the certificate must name), with SNI for DNS names.
    init(context: TLSContextHandle, descriptor: Int32, serverName: String) throws(HTTPClientError) {
        let library = context.library
        self.library = library
        library.errorClear()
        guard let session = library.sessionNew(context.pointerForSession) else {
            throw .tlsHandshakeFailed(library.takeErrorReason() ?? "SSL_new failed")
        }
        pointer = session
        guard library.sessionSetDescriptor(session, descriptor) == 1 else {
            throw .tlsHandshakeFailed(library.takeErrorReason() ?? "SSL_set_fd failed")
        }
        let name = serverName.hasPrefix("[") && serverName.hasSuffix("]") ? String(serverName.dropFirst().dropLast()) : serverName
        let isAddress = IPAddress(name) != nil
        if !isAddress {
            // RFC 6066 §3: SNI carries DNS names only, never IP literals.
            let sent = name.withCString { library.sessionControl(session, TLSLibrary.controlSetServerName, TLSLibrary.nameTypeHostName, UnsafeMutableRawPointer(mutating: $0)) }
            guard sent == 1 else { throw .tlsHandshakeFailed(library.takeErrorReason() ?? "bad server name") }
        }
        // OpenSSL 3's SSL_set1_host takes an IP literal as an address to match against the
        // certificate's iPAddress names (RFC 6125 §6.2.1 for DNS names).
        guard library.sessionSetHost(session, name) == 1 else {
            throw .tlsHandshakeFailed(library.takeErrorReason() ?? "cannot verify against \(isAddress ? "address" : "name") \(name)")
        }
        // RFC 7301: we speak HTTP/1.1 only; a server that insists on h2 fails the handshake instead
        // of sending frames we would misread. The return value is 0 on success.
        let protocols: [UInt8] = [8] + Array("http/1.1".utf8)
        _ = library.sessionSetALPN(session, protocols, UInt32(protocols.count))
        library.errorClear()
    }

    deinit {
        close()
    }

    /// One attempt at the client handshake.
    func handshakeStep() throws(HTTPClientError) -> Progress {
        guard let pointer else { throw .connectionLost("TLS session closed") }
        library.errorClear()
        let result = library.sessionConnect(pointer)
        let code = errno
        if result == 1 { return .done(0) }
        let error = library.sessionGetError(pointer, result)
        switch error {
        case TLSLibrary.errorWantRead: return .wantRead
        case TLSLibrary.errorWantWrite: return .wantWrite
        default:
            failed = true
            throw .tlsHandshakeFailed(handshakeFailure(error, errno: code))
        }
    }

    /// One attempt to read into `buffer`.
    func readStep(into buffer: UnsafeMutableRawBufferPointer) throws(HTTPClientError) -> Progress {
        guard let pointer else { return .closed }
        library.errorClear()
        let result = library.sessionRead(pointer, buffer.baseAddress, Int32(clamping: buffer.count))
        let code = errno
        if result > 0 { return .done(Int(result)) }
        return try outcome(of: result, errno: code, call: "SSL_read")
    }

    /// One attempt to write some of `bytes` (at least one).
    func writeStep(_ bytes: UnsafeRawBufferPointer) throws(HTTPClientError) -> Progress {
        guard let pointer else { throw .connectionLost("TLS session closed") }
        guard !bytes.isEmpty else { return .done(0) }
        library.errorClear()
        let result = library.sessionWrite(pointer, bytes.baseAddress, Int32(clamping: bytes.count))
        let code = errno
        if result > 0 { return .done(Int(result)) }
        let progress = try outcome(of: result, errno: code, call: "SSL_write")
        guard progress != .closed else { throw .connectionLost("SSL_write: the peer closed the TLS stream") }
        return progress
    }

    /// Sends close_notify if the session is healthy (once, without waiting), then frees it. The
    /// socket stays open; its owner closes it.
    func close() {
        guard let pointer else { return }
        if !failed {
            library.errorClear()
            _ = library.sessionShutdown(pointer)
        }
        library.errorClear()
        library.sessionFree(pointer)
        self.pointer = nil
    }

    /// The progress a failed read or write stands for, or the error it was.
    private func outcome(of result: Int32, errno code: Int32, call: String) throws(HTTPClientError) -> Progress {
        guard let pointer else { return .closed }
        switch library.sessionGetError(pointer, result) {
        case TLSLibrary.errorWantRead: return .wantRead
        case TLSLibrary.errorWantWrite: return .wantWrite
        case TLSLibrary.errorZeroReturn: return .closed
        case TLSLibrary.errorSyscall:
            failed = true
            // An end of stream without close_notify reports errno 0: a close, as on plain TCP.
            if code == 0 { return .closed }
            throw .connectionLost(SystemCall.describe(call: call, errno: code))
        default:
            failed = true
            throw .connectionLost("\(call): \(library.takeErrorReason() ?? "TLS error")")
        }
    }

    /// A readable reason for a failed handshake: the certificate check's verdict when that is what
    /// failed, else OpenSSL's reason ("wrong version number" when the peer does not speak TLS).
    private func handshakeFailure(_ error: Int32, errno code: Int32) -> String {
        guard let pointer else { return "session closed" }
        let verdict = library.sessionVerifyResult(pointer)
        if verdict != TLSLibrary.verifyOK {
            let text = library.verifyErrorString(verdict).map { String(cString: $0) } ?? "error \(verdict)"
            library.errorClear()
            return "certificate verify failed (\(text))"
        }
        if let reason = library.takeErrorReason() { return reason }
        if error == TLSLibrary.errorSyscall && code != 0 {
            return SystemCall.describe(call: "SSL_connect", errno: code)
        }
        return "the peer closed the connection"
    }
}
