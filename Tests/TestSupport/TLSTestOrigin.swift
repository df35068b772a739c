import Foundation
import Glibc
@testable import HTTPClient
@testable import HTTPServer
import Synchronization

/// An https origin in the test process: OpenSSL's server side from the same loaded library the
/// client uses, blocking sockets, one thread per connection. Each path answers with canned bytes,
/// or else a file under `files`; every request is recorded.
public final class TLSTestOrigin: Sendable {
    /// Which certificate (from Tests/Fixtures/tls) the origin presents.
    public enum Certificate: String, Sendable {
        /// Signed by the test CA for localhost, 127.0.0.1 and ::1.
        case server
        /// Signed by the test CA for wrong.example only.
        case wrongHost = "wrong-host"
        /// For localhost, signed by a CA the client does not know.
        case untrusted
        /// Signed by the test CA, valid only in 2000.
        case expired
    }

    typealias ServerMethod = @convention(c) () -> OpaquePointer?
    typealias UseFile = @convention(c) (OpaquePointer?, UnsafePointer<CChar>?) -> Int32
    typealias UseKeyFile = @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, Int32) -> Int32
    typealias ServerName = @convention(c) (OpaquePointer?, Int32) -> UnsafePointer<CChar>?

    /// The port the origin listens on.
    public var port: Int { listener.port }
    /// The test CA's certificate, for the client's CA file.
    public static var caFile: String { directory + "/ca.pem" }
    public static var directory: String { Fixtures.directory.appendingPathComponent("tls").path }

    private let listener: TestListener
    private let routes: [String: [UInt8]]
    private let files: String?
    /// Off: the origin speaks plain HTTP on this port, as a misconfigured https URL would meet.
    private let speaksTLS: Bool
    private let context: TLSServerContext
    private let recorded = Mutex<[TestOrigin.RecordedRequest]>([])
    private let indicatedNames = Mutex<[String?]>([])

    /// Starts listening on 127.0.0.1 (or ::1) on a free port.
    public init(routes: [String: [UInt8]], files: String? = nil, certificate: Certificate = .server, ipv6: Bool = false, speaksTLS: Bool = true) throws {
        self.routes = routes
        self.files = files
        self.speaksTLS = speaksTLS
        context = try TLSServerContext(certificate: TLSTestOrigin.directory + "/\(certificate.rawValue).pem",
                                       key: TLSTestOrigin.directory + "/\(certificate.rawValue).key")
        listener = try TestListener(ipv6: ipv6)
        let origin = self
        listener.serveEach { origin.serve($0) }
    }

    /// `https://HOST:PORT/path`.
    public func url(_ path: String, host: String = "127.0.0.1") -> String { "https://\(host):\(port)\(path)" }

    /// Requests seen so far.
    public var requests: [TestOrigin.RecordedRequest] { recorded.withLock { $0 } }

    /// The SNI name of each completed handshake, nil where the client sent none.
    public var serverNames: [String?] { indicatedNames.withLock { $0 } }

    /// Stops accepting.
    public func stop() { listener.stop() }

    deinit { stop() }

    private func serve(_ fd: Int32) {
        TestListener.blockBrokenPipeSignal()
        defer { close(fd) }
        guard speaksTLS else {
            // Like nginx on its http port: whatever arrives (here a ClientHello) gets a 400.
            var scratch = [UInt8](repeating: 0, count: 4096)
            _ = scratch.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            let answer = TestOrigin.response(status: 400, reason: "Bad Request", body: Array("plain HTTP here\n".utf8))
            _ = answer.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            return
        }
        guard let connection = context.accept(fd) else { return }
        defer { connection.close() }
        indicatedNames.withLock { $0.append(connection.serverName) }
        guard let request = connection.readRequest() else { return }
        recorded.withLock { $0.append(request) }
        let path = TestOrigin.pathOf(request.target)
        if let bytes = routes[path] {
            connection.write(bytes)
        } else if let files, !path.contains(".."), let data = FileManager.default.contents(atPath: files + path) {
            connection.write(TestOrigin.response(status: 200, reason: "OK", body: Array(data)))
        } else {
            connection.write(TestOrigin.response(status: 404, reason: "Not Found", body: Array("no route".utf8)))
        }
    }
}

/// The origin's SSL_CTX: TLS_server_method with one certificate and key.
final class TLSServerContext: @unchecked Sendable {
    // @unchecked: the context is configured in init and only read by SSL_new afterwards.
    let library: TLSLibrary
    private let pointer: OpaquePointer
    private let accept: TLSLibrary.SessionStep
    private let serverName: TLSTestOrigin.ServerName

    init(certificate: String, key: String) throws {
        let library = try TLSLibrary.shared.get()
        guard let method = library.symbol("TLS_server_method", as: TLSTestOrigin.ServerMethod.self),
              let useCertificate = library.symbol("SSL_CTX_use_certificate_chain_file", as: TLSTestOrigin.UseFile.self),
              let useKey = library.symbol("SSL_CTX_use_PrivateKey_file", as: TLSTestOrigin.UseKeyFile.self),
              let accept = library.symbol("SSL_accept", as: TLSLibrary.SessionStep.self),
              let serverName = library.symbol("SSL_get_servername", as: TLSTestOrigin.ServerName.self),
              let context = library.contextNew(method())
        else { throw TestOriginError.setup("OpenSSL server functions") }
        self.library = library
        self.pointer = context
        self.accept = accept
        self.serverName = serverName
        // 1 is SSL_FILETYPE_PEM.
        guard useCertificate(context, certificate) == 1, useKey(context, key, 1) == 1 else {
            throw TestOriginError.setup("certificate \(certificate): \(library.takeErrorReason() ?? "?")")
        }
    }

    deinit { library.contextFree(pointer) }

    /// Runs the server handshake on a blocking socket; nil when it fails (the client gave up or refused us).
    func accept(_ fd: Int32) -> TLSServerConnection? {
        guard let session = library.sessionNew(pointer) else { return nil }
        let connection = TLSServerConnection(library: library, session: session)
        guard library.sessionSetDescriptor(session, fd) == 1, accept(session) == 1 else {
            library.errorClear()
            connection.failed = true
            connection.close()
            return nil
        }
        // 0 is TLSEXT_NAMETYPE_host_name.
        connection.serverName = serverName(session, 0).map { String(cString: $0) }
        return connection
    }
}

/// One accepted TLS connection on a blocking socket.
final class TLSServerConnection {
    let library: TLSLibrary
    private var session: OpaquePointer?
    var failed = false
    /// The name the client indicated (SNI), if any.
    var serverName: String?

    init(library: TLSLibrary, session: OpaquePointer) {
        self.library = library
        self.session = session
    }

    /// Reads the request head (the client sends no body).
    func readRequest() -> TestOrigin.RecordedRequest? {
        let head = TestListener.readHead { buffer in
            Int(library.sessionRead(session, buffer.baseAddress, Int32(clamping: buffer.count)))
        }
        return head.flatMap(TestOrigin.RecordedRequest.init(head:))
    }

    /// Writes everything, in records of at most 16 KiB; stops when the peer is gone.
    func write(_ bytes: [UInt8]) {
        let written = TestListener.writeAll(bytes) { buffer in
            Int(library.sessionWrite(session, buffer.baseAddress, Int32(min(buffer.count, 16_384))))
        }
        if !written { failed = true }
    }

    /// Sends close_notify when healthy, frees the session; the socket is closed by the caller.
    func close() {
        guard let session else { return }
        if !failed { _ = library.sessionShutdown(session) }
        library.errorClear()
        library.sessionFree(session)
        self.session = nil
    }
}
