import Glibc
@testable import HTTPClient
import Testing

/// OpenSSL is found at run time, not link time: what happens when it is missing or is not OpenSSL 3,
/// and the request details that depend on TLS.
@Suite struct TLSLibraryTests {
    /// The one invariant the shared context's unchecked Sendable rests on, read as sessions read it.
    @Test func aSharedContextStillVerifiesItsPeersWhenASessionIsMade() throws {
        let handle = try TLSContext().prepared()
        #expect(handle.library.contextGetVerifyMode(handle.pointerForSession) == TLSLibrary.verifyPeer)
    }

    @Test func aMissingLibsslIsAReadableErrorNamingWhatIsNeeded() {
        #expect {
            try TLSLibrary.load(names: ["libssl-not-installed.so.3"])
        } throws: { error in
            guard case .tlsUnavailable(let why) = error as? HTTPClientError else { return false }
            // The dlerror text names the file it could not open.
            return why.hasPrefix("https origins need OpenSSL 3 (libssl.so.3): libssl-not-installed.so.3: ")
        }
    }

    @Test func aLibraryWithoutTheTLSFunctionsIsRefusedByName() {
        // libcrypto.so.3 is OpenSSL 3 but has no SSL_* functions.
        #expect {
            try TLSLibrary.load(names: ["libcrypto.so.3"])
        } throws: { error in
            guard case .tlsUnavailable(let why) = error as? HTTPClientError else { return false }
            return why == "https origins need OpenSSL 3 (libssl.so.3): libcrypto.so.3: no TLS_client_method"
        }
    }

    @Test func everyCandidateIsTriedAndEachFailureReported() {
        #expect {
            try TLSLibrary.load(names: ["libcrypto.so.3", "libssl-not-installed.so"])
        } throws: { error in
            guard case .tlsUnavailable(let why) = error as? HTTPClientError else { return false }
            return why.contains("libcrypto.so.3: no TLS_client_method; libssl-not-installed.so: ")
        }
    }

    @Test func theHostFieldOmitsOnlyTheSchemesDefaultPort() {
        let secure = TLSContext()
        #expect(HTTPClientRequest(host: "example.com", port: 443, target: "/", tls: secure).hostFieldValue == "example.com")
        #expect(HTTPClientRequest(host: "example.com", port: 8443, target: "/", tls: secure).hostFieldValue == "example.com:8443")
        #expect(HTTPClientRequest(host: "::1", port: 443, target: "/", tls: secure).hostFieldValue == "[::1]")
        #expect(HTTPClientRequest(host: "example.com", port: 443, target: "/").hostFieldValue == "example.com:443")
        #expect(HTTPClientRequest(host: "example.com", port: 80, target: "/", tls: secure).hostFieldValue == "example.com:80")
    }

    @Test func aTLSFailureReadsAsOneLine() {
        #expect(HTTPClientError.tlsHandshakeFailed("certificate verify failed (certificate has expired)").description
            == "TLS handshake failed: certificate verify failed (certificate has expired)")
    }
}
