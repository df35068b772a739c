import CSystem
import Glibc

/// One loop's epoll instance: the descriptors it watches, each reported with the token it was added under.
struct EpollSet: Sendable {
    let fd: Int32

    init() throws {
        fd = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard fd >= 0 else { throw HTTPServerError.system("epoll_create1", errno: errno) }
    }

    /// Adds a descriptor to the set.
    func add(_ descriptor: Int32, events: UInt32, token: UInt64) throws {
        var event = epoll_event()
        event.events = events
        event.data.u64 = token
        guard epoll_ctl(fd, EPOLL_CTL_ADD, descriptor, &event) == 0 else {
            throw HTTPServerError.system("epoll_ctl(ADD, \(descriptor))", errno: errno)
        }
    }

    func close() {
        _ = Glibc.close(fd)
    }
}
