import Foundation
import Glibc
import HTTPServer
@testable import Proxy
import TestSupport

extension TestOrigin {
    /// A port with nothing listening on it (see `refusingPort`).
    static func closedPort() -> Int { refusingPort }

    /// A port bound for the whole test run and never listened on, so connecting to it is refused. The
    /// socket stays open: a port released at once could be taken by another test's server running in
    /// parallel, which then answers instead of refusing.
    private static let refusingPort: Int = {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }()
}

/// A client with short timeouts so failure tests finish quickly.
func makeTestClient(connectTimeout: Duration = .seconds(2), totalTimeout: Duration = .seconds(5)) -> OriginClient {
    var configuration = OriginClient.Configuration()
    configuration.connectTimeout = connectTimeout
    configuration.totalTimeout = totalTimeout
    return OriginClient(configuration: configuration)
}
