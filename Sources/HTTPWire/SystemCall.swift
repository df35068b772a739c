import Glibc

/// The outcome of one system call made through `SystemCall.perform`.
public enum SystemCallResult: Equatable {
    /// The call succeeded; the count it returned (bytes, or a new descriptor).
    case done(Int)
    /// EAGAIN or EWOULDBLOCK: wait for readiness.
    case wouldBlock
    /// Any other failure, with its errno.
    case failed(errno: Int32)
}

/// The one errno loop for server and client: EINTR is retried and EAGAIN told apart here and nowhere
/// else, and failures are described with the call's name and errno (STYLE.md).
public enum SystemCall {
    /// Runs a system call that returns -1 and sets errno on failure, retrying EINTR.
    @inlinable @inline(__always)
    public static func perform(_ body: () -> Int) -> SystemCallResult {
        while true {
            let result = body()
            if result >= 0 { return .done(result) }
            let code = errno
            if code == EINTR { continue }
            if code == EAGAIN || code == EWOULDBLOCK { return .wouldBlock }
            return .failed(errno: code)
        }
    }

    /// errno's text, e.g. `Address already in use`; nil for a number the C library does not know.
    package static func message(errno code: Int32) -> String? {
        strerror(code).map { String(cString: $0) }
    }

    /// The symbolic name of an errno value (`EBADF`) for log lines, or `errno N` for one not listed.
    package static func name(errno code: Int32) -> String {
        switch code {
        case EBADF: return "EBADF"
        case EFAULT: return "EFAULT"
        case EINVAL: return "EINVAL"
        case EINTR: return "EINTR"
        case ENOMEM: return "ENOMEM"
        case EMFILE: return "EMFILE"
        case ENFILE: return "ENFILE"
        case EPERM: return "EPERM"
        case EAGAIN: return "EAGAIN"
        case ENOBUFS: return "ENOBUFS"
        case ENOTSOCK: return "ENOTSOCK"
        default: return "errno \(code)"
        }
    }

    /// `call: message (errno N)`.
    package static func describe(call: String, errno code: Int32) -> String {
        "\(call): \(message(errno: code) ?? "error") (errno \(code))"
    }
}
