import Glibc

/// OpenSSL 3 (libssl.so.3 and the libcrypto it pulls in), opened with dlopen the first time an https
/// exchange needs it: a binary with only http origins never maps it, and no link-time dependency
/// exists. The functions are looked up once into this table and never change afterwards.
struct TLSLibrary: Sendable {

    typealias Method = @convention(c) () -> OpaquePointer?
    typealias ContextNew = @convention(c) (OpaquePointer?) -> OpaquePointer?
    typealias ContextFree = @convention(c) (OpaquePointer?) -> Void
    typealias ContextControl = @convention(c) (OpaquePointer?, Int32, Int, UnsafeMutableRawPointer?) -> Int
    typealias ContextSetOptions = @convention(c) (OpaquePointer?, UInt64) -> UInt64
    typealias ContextSetVerify = @convention(c) (OpaquePointer?, Int32, OpaquePointer?) -> Void
    typealias ContextGetVerifyMode = @convention(c) (OpaquePointer?) -> Int32
    typealias ContextDefaultPaths = @convention(c) (OpaquePointer?) -> Int32
    typealias ContextLoadLocations = @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, UnsafePointer<CChar>?) -> Int32
    typealias SessionNew = @convention(c) (OpaquePointer?) -> OpaquePointer?
    typealias SessionFree = @convention(c) (OpaquePointer?) -> Void
    typealias SessionSetDescriptor = @convention(c) (OpaquePointer?, Int32) -> Int32
    typealias SessionControl = @convention(c) (OpaquePointer?, Int32, Int, UnsafeMutableRawPointer?) -> Int
    typealias SessionSetHost = @convention(c) (OpaquePointer?, UnsafePointer<CChar>?) -> Int32
    typealias SessionSetALPN = @convention(c) (OpaquePointer?, UnsafePointer<UInt8>?, UInt32) -> Int32
    typealias SessionStep = @convention(c) (OpaquePointer?) -> Int32
    typealias SessionRead = @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?, Int32) -> Int32
    typealias SessionWrite = @convention(c) (OpaquePointer?, UnsafeRawPointer?, Int32) -> Int32
    typealias SessionGetError = @convention(c) (OpaquePointer?, Int32) -> Int32
    typealias SessionVerifyResult = @convention(c) (OpaquePointer?) -> Int
    typealias ErrorClear = @convention(c) () -> Void
    typealias ErrorGet = @convention(c) () -> UInt
    typealias ErrorReason = @convention(c) (UInt) -> UnsafePointer<CChar>?
    typealias VerifyErrorString = @convention(c) (Int) -> UnsafePointer<CChar>?
    typealias VersionNumber = @convention(c) () -> UInt

    /// The name libssl was opened by, for `symbol(_:as:)` (the handle itself is never closed).
    let libraryName: String
    let clientMethod: Method
    let contextNew: ContextNew
    let contextFree: ContextFree
    let contextControl: ContextControl
    let contextSetOptions: ContextSetOptions
    let contextSetVerify: ContextSetVerify
    let contextGetVerifyMode: ContextGetVerifyMode
    let contextDefaultPaths: ContextDefaultPaths
    let contextLoadLocations: ContextLoadLocations
    let sessionNew: SessionNew
    let sessionFree: SessionFree
    let sessionSetDescriptor: SessionSetDescriptor
    let sessionControl: SessionControl
    let sessionSetHost: SessionSetHost
    let sessionSetALPN: SessionSetALPN
    let sessionConnect: SessionStep
    let sessionShutdown: SessionStep
    let sessionRead: SessionRead
    let sessionWrite: SessionWrite
    let sessionGetError: SessionGetError
    let sessionVerifyResult: SessionVerifyResult
    let errorClear: ErrorClear
    let errorGet: ErrorGet
    let errorReason: ErrorReason
    let verifyErrorString: VerifyErrorString

    /// The table, loaded on first use (a `static let` runs its initializer once, thread-safely), or
    /// why it could not be.
    static let shared: Result<TLSLibrary, HTTPClientError> = Result { () throws(HTTPClientError) in try load() }

    /// The library names tried in order: the versioned name the runtime package installs, then the
    /// development symlink.
    static let candidateNames = ["libssl.so.3", "libssl.so"]

    /// Opens libssl and resolves every function, or says in one line what is missing.
    static func load(names: [String] = candidateNames) throws(HTTPClientError) -> TLSLibrary {
        var problems: [String] = []
        for name in names {
            // RTLD_LOCAL: OpenSSL's symbols stay out of the global namespace; dlsym on the handle
            // still finds libcrypto's, since it searches the library's dependencies too.
            guard let handle = dlopen(name, RTLD_NOW | RTLD_LOCAL) else {
                problems.append(dlerror().map { String(cString: $0) } ?? "\(name): cannot be opened")
                continue
            }
            do throws(HTTPClientError) {
                return try TLSLibrary(handle: handle, name: name)
            } catch {
                dlclose(handle)
                guard case .tlsUnavailable(let why) = error else { throw error }
                problems.append("\(name): \(why)")
            }
        }
        throw .tlsUnavailable("https origins need OpenSSL 3 (libssl.so.3): " + problems.joined(separator: "; "))
    }

    private init(handle: UnsafeMutableRawPointer, name: String) throws(HTTPClientError) {
        libraryName = name
        func find<Function>(_ name: String) throws(HTTPClientError) -> Function {
            guard let address = dlsym(handle, name) else { throw .tlsUnavailable("no \(name)") }
            return unsafeBitCast(address, to: Function.self)
        }
        let version: VersionNumber = try find("OpenSSL_version_num")
        // OpenSSL 3 numbering: 0xMNN00PP0; 1.1 would lack functions used here, such as SSL_CTX_set_options.
        let number = version()
        guard number >= 0x3000_0000 else {
            throw .tlsUnavailable("version 0x\(String(number, radix: 16)), not 3")
        }
        clientMethod = try find("TLS_client_method")
        contextNew = try find("SSL_CTX_new")
        contextFree = try find("SSL_CTX_free")
        contextControl = try find("SSL_CTX_ctrl")
        contextSetOptions = try find("SSL_CTX_set_options")
        contextSetVerify = try find("SSL_CTX_set_verify")
        contextGetVerifyMode = try find("SSL_CTX_get_verify_mode")
        contextDefaultPaths = try find("SSL_CTX_set_default_verify_paths")
        contextLoadLocations = try find("SSL_CTX_load_verify_locations")
        sessionNew = try find("SSL_new")
        sessionFree = try find("SSL_free")
        sessionSetDescriptor = try find("SSL_set_fd")
        sessionControl = try find("SSL_ctrl")
        sessionSetHost = try find("SSL_set1_host")
        sessionSetALPN = try find("SSL_set_alpn_protos")
        sessionConnect = try find("SSL_connect")
        sessionShutdown = try find("SSL_shutdown")
        sessionRead = try find("SSL_read")
        sessionWrite = try find("SSL_write")
        sessionGetError = try find("SSL_get_error")
        sessionVerifyResult = try find("SSL_get_verify_result")
        errorClear = try find("ERR_clear_error")
        errorGet = try find("ERR_get_error")
        errorReason = try find("ERR_reason_error_string")
        verifyErrorString = try find("X509_verify_cert_error_string")
    }

    /// Another function of the loaded library (the test origin's server side), nil when absent.
    func symbol<Function>(_ name: String, as type: Function.Type) -> Function? {
        // RTLD_NOLOAD: the library `load` opened (and never closes), found again by its name.
        guard let handle = dlopen(libraryName, RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD) else { return nil }
        defer { dlclose(handle) }
        return dlsym(handle, name).map { unsafeBitCast($0, to: Function.self) }
    }

    /// The oldest queued OpenSSL error as its reason text ("wrong version number"), then clears the
    /// queue; nil when the queue was empty.
    func takeErrorReason() -> String? {
        let code = errorGet()
        defer { errorClear() }
        guard code != 0 else { return nil }
        return errorReason(code).map { String(cString: $0) } ?? "OpenSSL error \(code)"
    }
}

extension TLSLibrary {
    // From OpenSSL 3's ssl.h, tls1.h and x509_vfy.h; stable ABI values.
    static let errorNone: Int32 = 0
    static let errorSSL: Int32 = 1
    static let errorWantRead: Int32 = 2
    static let errorWantWrite: Int32 = 3
    static let errorSyscall: Int32 = 5
    static let errorZeroReturn: Int32 = 6
    static let verifyPeer: Int32 = 1
    static let verifyOK = 0
    static let controlMode: Int32 = 33
    static let controlSetServerName: Int32 = 55
    static let controlSetMinimumVersion: Int32 = 123
    static let nameTypeHostName = 0
    static let version12 = 0x0303
    /// SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER: a retried write may
    /// come from a different address, and a write may complete in parts, as send(2) does.
    static let modePartialMovingWrites = 0x1 | 0x2
    /// SSL_OP_IGNORE_UNEXPECTED_EOF: a peer closing without close_notify ends the stream like
    /// plain TCP does; framing (Content-Length, chunked) still catches a cut-short body.
    static let optionIgnoreUnexpectedEOF: UInt64 = 1 << 7
    /// SSL_OP_NO_RENEGOTIATION.
    static let optionNoRenegotiation: UInt64 = 1 << 30
}
