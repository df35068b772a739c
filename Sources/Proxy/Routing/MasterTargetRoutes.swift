import Synchronization

/// The masters that subtitle URLs name, routed once per master target instead of once per request:
/// every subtitle playlist and file of a viewer carries the same master target, and splitting and
/// routing it again was over half of a cached subtitle file's instructions (bench/README.md).
/// Routing is a function of the config alone (mounts, embedded hosts), and a router lives as long as
/// its config, so an entry is never stale. Refusals are not kept: each is routed again, with its error.
final class MasterTargetRoutes: Sendable {
    /// Master targets kept at most. The targets come from request paths, so a flood of distinct ones
    /// must not grow memory: past this the table is emptied and fills again from what is played.
    static let capacity = 4096
    /// The longest master target kept, in bytes (as `SubtitleURLs.maxKeptLength`): a longer one is routed
    /// every time, so the table stays near 4,096 × 1 KiB whatever the request-line limit allows.
    static let maxKeptLength = 1024

    private let routed = Mutex<[String: OriginTarget]>([:])

    /// The master's origin target for a subtitle URL's `masterTarget` (raw path and query); 404 when it
    /// routes to something other than an origin, or the router's own error.
    func target(for masterTarget: String, router: RequestRouter) throws(ProxyError) -> OriginTarget {
        if let kept = routed.withLock({ $0[masterTarget] }) { return kept }
        let (path, query) = splitTarget(masterTarget)
        guard case .origin(var master) = try router.route(rawPath: path, query: query) else {
            throw .notFound("subtitle URL does not name a master")
        }
        guard masterTarget.utf8.count <= Self.maxKeptLength else { return master }
        master.requestIndependentKey = MemoryCacheKey.requestIndependentKey(of: master)
        routed.withLock { routed in
            if routed.count >= Self.capacity { routed.removeAll(keepingCapacity: true) }
            routed[masterTarget] = master
        }
        return master
    }

    /// How many master targets are kept (for tests).
    var count: Int { routed.withLock { $0.count } }
}
