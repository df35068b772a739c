import Foundation
import Glibc
import HTTPServer
@testable import Proxy
import TestSupport

/// A client for tests.
/// The deadlines are long by default: at the start of a full `swift test` on two slow cores the
/// suites hold the task pool for about half a minute, and a test that asserts a redirect count or a
/// body must not see `.timeout` for that. A test about deadlines passes its own.
func makeTestClient(connectTimeout: Duration = .seconds(20), totalTimeout: Duration = .seconds(45)) -> OriginClient {
    var configuration = OriginClient.Configuration()
    configuration.connectTimeout = connectTimeout
    configuration.totalTimeout = totalTimeout
    return OriginClient(configuration: configuration)
}
