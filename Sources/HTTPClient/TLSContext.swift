import Synchronization

/// The client side of TLS for https exchanges: one OpenSSL context (TLS 1.2 or later, the peer's
/// certificate verified against the system store and an optional CA file), made by the first
/// exchange that needs it and shared by every connection after. Making one costs nothing until then.
public final class TLSContext: Sendable {
    /// A PEM file of certificates trusted in addition to the system store, or nil.
    public let caFile: String?
    private let made = Mutex<Result<TLSContextHandle, HTTPClientError>?>(nil)

    /// A context trusting the system store (OpenSSL's default paths, which honour SSL_CERT_FILE and
    /// SSL_CERT_DIR) and, when given, the certificates in `caFile`.
    public init(caFile: String? = nil) {
        self.caFile = caFile
    }

    /// Why https cannot work in this process (libssl missing or not OpenSSL 3), or nil when it can.
    /// Loads the library if nothing has yet.
    public static func unavailableReason() -> String? {
        guard case .failure(let error) = TLSLibrary.shared else { return nil }
        return error.description
    }

    /// The OpenSSL context, made once; a failure is kept too, so every exchange reports the same reason.
    func prepared() throws(HTTPClientError) -> TLSContextHandle {
        try made.withLock { made throws(HTTPClientError) -> TLSContextHandle in
            if let made { return try made.get() }
            let result = Result { () throws(HTTPClientError) in try TLSContextHandle(library: TLSLibrary.shared.get(), caFile: caFile) }
            made = result
            return try result.get()
        }
    }
}

/// An OpenSSL SSL_CTX, freed with its owner. Shared across exchange threads: OpenSSL allows SSL_new
/// from any thread on a context that is no longer being configured.
final class TLSContextHandle: @unchecked Sendable {
    // @unchecked: an SSL_CTX is C memory (OpaquePointer is not Sendable) whose sharing rule is
    // OpenSSL's: configured entirely in init, only read (by SSL_new) afterwards. `pointerForSession`
    // checks the part that matters, in release builds too: the shared context still verifies its peers.
    let library: TLSLibrary
    private let pointer: OpaquePointer

    init(library: TLSLibrary, caFile: String?) throws(HTTPClientError) {
        library.errorClear()
        guard let context = library.contextNew(library.clientMethod()) else {
            throw .tlsUnavailable("TLS context could not be made: \(library.takeErrorReason() ?? "SSL_CTX_new failed")")
        }
        self.library = library
        self.pointer = context
        // RFC 8996 retired TLS 1.0 and 1.1.
        _ = library.contextControl(context, TLSLibrary.controlSetMinimumVersion, TLSLibrary.version12, nil)
        _ = library.contextControl(context, TLSLibrary.controlMode, TLSLibrary.modePartialMovingWrites, nil)
        _ = library.contextSetOptions(context, TLSLibrary.optionIgnoreUnexpectedEOF | TLSLibrary.optionNoRenegotiation)
        library.contextSetVerify(context, TLSLibrary.verifyPeer, nil)
        // A system without a certificate store still verifies against `caFile`; with neither,
        // every handshake fails with "unable to get local issuer certificate".
        _ = library.contextDefaultPaths(context)
        library.errorClear()
        if let caFile {
            guard library.contextLoadLocations(context, caFile, nil) == 1 else {
                let reason = library.takeErrorReason() ?? "no certificate loaded"
                throw .tlsUnavailable("the CA file \(caFile) could not be loaded: \(reason)")
            }
        }
    }

    /// The context for SSL_new, checked to be as `init` left it.
    var pointerForSession: OpaquePointer {
        precondition(library.contextGetVerifyMode(pointer) == TLSLibrary.verifyPeer, "a shared TLS context was reconfigured after init")
        return pointer
    }

    deinit {
        library.contextFree(pointer)
    }
}
