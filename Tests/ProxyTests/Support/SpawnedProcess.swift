import Foundation
import Glibc
import Synchronization
import TestSupport

/// A child started with posix_spawn(3), stdin from /dev/null and stdout/stderr on pipes.
///
/// Not Foundation's `Process`: under a loaded parallel suite its `run()` crashed (a memcpy past a
/// buffer), which takes the whole test process down.
final class SpawnedProcess: @unchecked Sendable {
    // @unchecked: `pid` is set once in init; the exit status is behind a lock.
    let pid: pid_t
    /// Reading ends of the child's stdout and stderr (-1 when closed).
    let outputFD: Int32
    let errorFD: Int32
    private let exitStatus = LockedBox<Int32?>(nil)

    struct Failure: Error, CustomStringConvertible { var description: String }

    /// Spawns `path` with `arguments` and exactly `environment`.
    init(path: String, arguments: [String], environment: [String: String]) throws {
        // Pipes are made and marked close-on-exec under one lock with the spawn, so no other test's
        // child inherits a writing end (which would hold off our end of file).
        let spawned = try SpawnedProcess.lock.withLock { _ throws -> (pid_t, Int32, Int32) in
            try SpawnedProcess.spawn(path: path, arguments: arguments, environment: environment)
        }
        (pid, outputFD, errorFD) = spawned
    }

    private static let lock = Mutex(())

    private static func spawn(path: String, arguments: [String], environment: [String: String]) throws -> (pid_t, Int32, Int32) {
        var outPipe: [Int32] = [-1, -1]
        var errPipe: [Int32] = [-1, -1]
        guard pipe(&outPipe) == 0, pipe(&errPipe) == 0 else {
            throw Failure(description: "pipe: errno \(errno)")
        }
        for fd in outPipe + errPipe { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        // The child starts with no signal blocked and default dispositions, whatever the spawning
        // thread had (dispatch worker threads block signals; a blocked SIGTERM would never arrive).
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGTERM, SIGINT, SIGPIPE, SIGCHLD] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var child: pid_t = 0
        let result = posix_spawn(&child, path, &actions, &attributes, argv, envp)
        close(outPipe[1])
        close(errPipe[1])
        guard result == 0 else {
            close(outPipe[0])
            close(errPipe[0])
            throw Failure(description: "posix_spawn \(path): error \(result)")
        }
        return (child, outPipe[0], errPipe[0])
    }

    /// Whether the child has not been reaped yet.
    var isRunning: Bool { exitCode() == nil }

    /// The exit status (128 + signal when killed), or nil while it runs. Reaps the child once.
    func exitCode() -> Int32? {
        exitStatus.withLock { status -> Int32? in
            if let status { return status }
            var raw: Int32 = 0
            let reaped = waitpid(pid, &raw, WNOHANG)
            guard reaped == pid else { return nil }
            let code = (raw & 0x7F) == 0 ? (raw >> 8) & 0xFF : 128 + (raw & 0x7F)
            status = code
            return code
        }
    }

    /// Blocks until the child exits; returns its status. For use off the task pool.
    func waitBlocking() -> Int32 {
        while true {
            if let code = exitCode() { return code }
            usleep(2_000)
        }
    }

    /// Sends `signal` to the child.
    func send(_ signal: Int32) {
        if exitCode() == nil { kill(pid, signal) }
    }
}
