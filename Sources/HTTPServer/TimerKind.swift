/// Which deadline a connection is waiting on. Each kind has one fixed duration, so each list stays sorted.
enum TimerKind: Int {
    case none = -1
    case header = 0
    case idle = 1
    case write = 2
    case linger = 3

    /// Every kind but `.none`, by raw value.
    static let armable: [TimerKind] = [.header, .idle, .write, .linger]
}
