import Foundation
import Glibc
@testable import HTTPServer
import Synchronization

/// An https origin in the test process: OpenSSL's server side from the same loaded library the
/// client uses, blocking sockets, one thread per connection. Each path answers with canned bytes,
/// or else a file under `files`; every request is recorded.
final class TLSTestOrigin: Sendable {
    /// Which certificate (from Tests/Fixtures/tls) the origin presents.
    enum Certificate: String, Sendable {
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

    let port: Int
    /// The test CA's certificate, for the client's CA file.
    static var caFile: String { directory + "/ca.pem" }
    static var directory: String { TestOrigin.fixtures.appendingPathComponent("tls").path }

    private let listener: Int32
    private let routes: [String: [UInt8]]
    private let files: String?
    /// Off: the origin speaks plain HTTP on this port, as a misconfigured https URL would meet.
    private let speaksTLS: Bool
    private let context: TLSServerContext
    private let recorded = Mutex<[TestOrigin.RecordedRequest]>([])
    private let indicatedNames = Mutex<[String?]>([])
    private let stopped = Atomic<Bool>(false)

    /// Starts listening on 127.0.0.1 (or ::1) on a free port.
    init(routes: [String: [UInt8]], files: String? = nil, certificate: Certificate = .server, ipv6: Bool = false, speaksTLS: Bool = true) throws {
        self.routes = routes
        self.files = files
        self.speaksTLS = speaksTLS
        context = try TLSServerContext(certificate: TLSTestOrigin.directory + "/\(certificate.rawValue).pem",
                                       key: TLSTestOrigin.directory + "/\(certificate.rawValue).key")
        (listener, port) = try TLSTestOrigin.listen(ipv6: ipv6)
        let origin = self
        Thread.detachNewThread { origin.acceptLoop() }
    }

    /// `https://HOST:PORT/path`.
    func url(_ path: String, host: String = "127.0.0.1") -> String { "https://\(host):\(port)\(path)" }

    /// Requests seen so far.
    var requests: [TestOrigin.RecordedRequest] { recorded.withLock { $0 } }

    /// The SNI name of each completed handshake, nil where the client sent none.
    var serverNames: [String?] { indicatedNames.withLock { $0 } }

    /// Stops accepting.
    func stop() {
        guard !stopped.exchange(true, ordering: .relaxed) else { return }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    deinit { stop() }

    private func acceptLoop() {
        while !stopped.load(ordering: .relaxed) {
            let connection = accept(listener, nil, nil)
            if connection < 0 {
                if errno == EINTR { continue }
                return
            }
            let origin = self
            Thread.detachNewThread { origin.serve(connection) }
        }
    }

    private func serve(_ fd: Int32) {
        // A client that hangs up mid-write must not take the test process down with SIGPIPE.
        var pipeSignal = sigset_t()
        sigemptyset(&pipeSignal)
        sigaddset(&pipeSignal, SIGPIPE)
        pthread_sigmask(SIG_BLOCK, &pipeSignal, nil)
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

    /// A listening socket on loopback and its port.
    private static func listen(ipv6: Bool) throws -> (Int32, Int) {
        let fd = socket(ipv6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw TestOriginError.setup("socket") }
        var storage = sockaddr_storage()
        var length: socklen_t
        if ipv6 {
            length = socklen_t(MemoryLayout<sockaddr_in6>.size)
            withUnsafeMutablePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                    $0.pointee.sin6_family = sa_family_t(AF_INET6)
                    $0.pointee.sin6_addr = in6addr_loopback
                }
            }
        } else {
            length = socklen_t(MemoryLayout<sockaddr_in>.size)
            withUnsafeMutablePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                    $0.pointee.sin_family = sa_family_t(AF_INET)
                    $0.pointee.sin_addr.s_addr = inet_addr("127.0.0.1")
                }
            }
        }
        let bound = withUnsafePointer(to: &storage) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
        guard bound == 0, Glibc.listen(fd, 64) == 0 else {
            close(fd)
            throw TestOriginError.setup("bind/listen")
        }
        _ = withUnsafeMutablePointer(to: &storage) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        let networkPort = withUnsafePointer(to: &storage) { pointer -> UInt16 in
            ipv6
                ? pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee.sin6_port }
                : pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_port }
        }
        return (fd, Int(UInt16(bigEndian: networkPort)))
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
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while bytes.count < 65_536 {
            let count = chunk.withUnsafeMutableBytes { library.sessionRead(session, $0.baseAddress, Int32($0.count)) }
            if count <= 0 { return nil }
            bytes.append(contentsOf: chunk[0..<Int(count)])
            if String(decoding: bytes, as: UTF8.self).contains("\r\n\r\n") { break }
        }
        let lines = String(decoding: bytes, as: UTF8.self).components(separatedBy: "\r\n")
        let requestLine = (lines.first ?? "").split(separator: " ")
        guard requestLine.count == 3 else { return nil }
        var headers = HTTPHeaders()
        for line in lines.dropFirst() where !line.isEmpty {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers.add(String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        return TestOrigin.RecordedRequest(method: String(requestLine[0]), target: String(requestLine[1]), headers: headers)
    }

    /// Writes everything, in records of at most 16 KiB; stops when the peer is gone.
    func write(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { raw in
                library.sessionWrite(session, raw.baseAddress.map { $0 + offset }, Int32(min(raw.count - offset, 16_384)))
            }
            guard written > 0 else {
                failed = true
                return
            }
            offset += Int(written)
        }
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
