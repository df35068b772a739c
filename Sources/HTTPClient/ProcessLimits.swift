import Glibc

/// The process resource limits the client sizes itself by (getrlimit(2)).
enum ProcessLimits {
    /// The soft limit on open descriptors (RLIMIT_NOFILE), or nil when it cannot be read or is unlimited.
    static var openDescriptors: Int? {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur != rlim_t.max else { return nil }  // RLIM_INFINITY is all ones
        return Int(clamping: limit.rlim_cur)
    }
}
