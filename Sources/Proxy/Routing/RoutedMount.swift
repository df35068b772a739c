import HTTPServer
import HTTPWire

/// A configured mount, made once when the router is built and shared by every target routed to it.
final class RoutedMount: Sendable {
    let mount: Mount
    /// `m:NAME:DIGEST`, DIGEST the first 128 bits of the SHA-256 of the injected names and values (as
    /// far apart as the whole digest here, and short: disk cache keys are written into every file
    /// header): made once, and never the secrets themselves.
    let cacheScope: String

    init(_ mount: Mount) {
        self.mount = mount
        var injected: [UInt8] = []
        for header in mount.injectHeaders {
            for part in [header.name.lowercased(), header.value] {
                injected.append(contentsOf: "\(part.utf8.count):".utf8)
                injected.append(contentsOf: part.utf8)
            }
        }
        self.cacheScope = "m:\(mount.name):\(SHA256.hex(injected).prefix(32))"
    }
}
