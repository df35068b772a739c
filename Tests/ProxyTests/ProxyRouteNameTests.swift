@testable import Proxy
import Testing

/// Route names are sent in X-HLS-Proxy-Route, logged and used as metric labels: derived from the case
/// names, they must stay what they were.
@Suite struct ProxyRouteNameTests {
    @Test func everyRouteKeepsItsPublishedName() {
        #expect(ProxyRoute.allCases.map(\.name) == [
            "cache", "error", "file", "health", "master", "metrics", "passthrough", "playlist", "preflight",
            "proxy", "ready", "redirect", "rejected", "subtitle", "subtitle-playlist",
        ])
    }
}
