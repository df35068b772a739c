import Foundation
import Glibc
import HTTPServer
@testable import Proxy
import TestSupport

/// A client with short timeouts so failure tests finish quickly.
func makeTestClient(connectTimeout: Duration = .seconds(2), totalTimeout: Duration = .seconds(5)) -> OriginClient {
    var configuration = OriginClient.Configuration()
    configuration.connectTimeout = connectTimeout
    configuration.totalTimeout = totalTimeout
    return OriginClient(configuration: configuration)
}
