import Testing
@testable import Proxy

/// The masters of subtitle URLs routed once per target: the same target as routing gives, refusals
/// routed again each time with their own error, and a table that cannot grow past its capacity.
@Suite struct MasterTargetRoutesTests {
    static func makeRouter() -> RequestRouter {
        let json = #"{"mounts": {"sample": {"origin": "http://127.0.0.1:9/vod/"}}, "embedded": {"allow_hosts": ["cdn.example"]}}"#
        // A config that fails to decode gives a router with no mounts, and every test below fails.
        return RequestRouter(config: (try? ConfigTestSupport.decode(json)) ?? ProxyConfig())
    }

    @Test func aKeptMasterIsTheTargetRoutingGivesWithItsQuery() throws {
        let router = Self.makeRouter()
        let first = try router.routeMaster("/sample/master.m3u8?token=1")
        let again = try router.routeMaster("/sample/master.m3u8?token=1")
        #expect(router.masterRoutes.count == 1)
        for target in [first, again] {
            #expect(target.url == "http://127.0.0.1:9/vod/master.m3u8?token=1")
            #expect(target.proxyPath == "/sample/master.m3u8")
            #expect(target.proxyTarget == "/sample/master.m3u8?token=1")
            #expect(target.mount?.name == "sample")
        }
    }

    @Test func targetsThatDifferOnlyInTheirQueryAreKeptApart() throws {
        let router = Self.makeRouter()
        #expect(try router.routeMaster("/sample/master.m3u8?token=1").url.hasSuffix("?token=1"))
        #expect(try router.routeMaster("/sample/master.m3u8?token=2").url.hasSuffix("?token=2"))
        #expect(try router.routeMaster("/sample/master.m3u8").url == "http://127.0.0.1:9/vod/master.m3u8")
        #expect(router.masterRoutes.count == 3)
    }

    @Test func aTargetThatNamesNoOriginIsNotFoundEveryTimeAndNotKept() {
        let router = Self.makeRouter()
        for _ in 0..<2 {
            #expect(throws: ProxyError.notFound("subtitle URL does not name a master")) { try router.routeMaster("/healthz") }
        }
        #expect(router.masterRoutes.count == 0)
    }

    @Test func aRefusedTargetKeepsTheRoutersOwnErrorAndIsNotKept() {
        let router = Self.makeRouter()
        let refused: [(target: String, status: Int)] = [
            ("/sample/../secret/master.m3u8", 403), ("/http/elsewhere.example/master.m3u8", 403), ("/nomount/master.m3u8", 404),
        ]
        for (target, status) in refused {
            for _ in 0..<2 {
                #expect(throws: ProxyError.self) { try router.routeMaster(target) }
                do {
                    _ = try router.routeMaster(target)
                } catch {
                    #expect(error.status.code == status, "\(target)")
                }
            }
        }
        #expect(router.masterRoutes.count == 0)
    }

    @Test func aFloodOfDistinctTargetsNeverHoldsMoreThanTheCapacity() throws {
        let router = Self.makeRouter()
        for index in 0..<(MasterTargetRoutes.capacity + 10) {
            _ = try router.routeMaster("/sample/master.m3u8?n=\(index)")
        }
        #expect(router.masterRoutes.count <= MasterTargetRoutes.capacity)
        #expect(router.masterRoutes.count > 0)
        let last = MasterTargetRoutes.capacity + 9
        #expect(try router.routeMaster("/sample/master.m3u8?n=\(last)").url.hasSuffix("?n=\(last)"))
    }
}
