import HTTPWire
/// The deadlines of one loop's connections, by descriptor: which kind each connection waits on, until
/// when, and its place in that kind's list. Plain integers in one block, apart from the connections, so
/// arming and disarming (twice per request) touch no object and take no reference.
///
/// Each timer kind has one fixed duration, so appending at the tail keeps its list sorted by deadline:
/// arming, disarming and expiry are O(1) per connection and a sweep touches only what expires.
struct DeadlineLists: ~Copyable {
    private struct Link: BitwiseCopyable {
        var kind = TimerKind.none
        var deadline: Int64 = 0
        var previous: Int32 = -1
        var next: Int32 = -1
    }

    private struct Ends: BitwiseCopyable {
        var head: Int32 = -1
        var tail: Int32 = -1
    }

    /// One link per descriptor below its count; grown when a larger descriptor is armed.
    private var links = PlainTable(repeating: Link(), count: 64)
    /// Head and tail of each kind's list, by `TimerKind.rawValue`.
    private var ends = PlainTable(repeating: Ends(), count: TimerKind.armable.count)

    init() {}

    /// What `fd` waits on, `.none` when nothing is armed for it.
    func kind(of fd: Int32) -> TimerKind {
        fd >= 0 && Int(fd) < links.count ? links[Int(fd)].kind : .none
    }

    /// The deadline `fd` has armed for `kind`, if that is what it waits on.
    func deadline(of fd: Int32, kind: TimerKind) -> Int64? {
        fd >= 0 && Int(fd) < links.count && links[Int(fd)].kind == kind && kind != .none ? links[Int(fd)].deadline : nil
    }

    /// The first connection of `kind`'s list, the one whose deadline comes first, and that deadline.
    func first(_ kind: TimerKind) -> (fd: Int32, deadline: Int64)? {
        guard kind != .none else { return nil }
        let head = ends[kind.rawValue].head
        guard head >= 0 else { return nil }
        return (head, links[Int(head)].deadline)
    }

    /// Arms `kind` for `fd` until `deadline`, first disarming whatever it had. The deadline must be the
    /// latest of its kind so far (now plus the kind's fixed duration), which keeps the list sorted.
    mutating func arm(_ fd: Int32, _ kind: TimerKind, until deadline: Int64) {
        guard fd >= 0, kind != .none else { return }
        disarm(fd)
        if Int(fd) >= links.count { links.grow(toCount: max(links.count * 2, Int(fd) + 64), filling: Link()) }
        let tail = ends[kind.rawValue].tail
        links[Int(fd)] = Link(kind: kind, deadline: deadline, previous: tail, next: -1)
        if tail >= 0 { links[Int(tail)].next = fd } else { ends[kind.rawValue].head = fd }
        ends[kind.rawValue].tail = fd
    }

    /// Disarms whatever `fd` has armed. Descriptors in a list are always below the table's count: they
    /// were armed, and the table only grows.
    mutating func disarm(_ fd: Int32) {
        guard fd >= 0, Int(fd) < links.count else { return }
        let link = links[Int(fd)]
        guard link.kind != .none else { return }
        if link.previous >= 0 { links[Int(link.previous)].next = link.next } else { ends[link.kind.rawValue].head = link.next }
        if link.next >= 0 { links[Int(link.next)].previous = link.previous } else { ends[link.kind.rawValue].tail = link.previous }
        links[Int(fd)] = Link()
    }
}
