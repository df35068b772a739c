import Foundation
import Glibc
import TestSupport

/// The built `hls-subtitle-proxy` executable run as a child process, its output collected as it comes.
final class RunningProcess: @unchecked Sendable {
    // @unchecked: `child` is set once; the buffers are behind LockedBox.
    private let child: SpawnedProcess
    private let stdout = LockedBox<[UInt8]>([])
    private let stderr = LockedBox<[UInt8]>([])
    /// Pipes from the child not yet read to end of file.
    private let openPipes = LockedBox(2)

    /// The executable next to the test bundle (the test target depends on it, so it is built).
    static var executablePath: String {
        URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent("hls-subtitle-proxy").path
    }

    /// Starts the executable. Relative paths in `arguments` resolve against `currentDirectory` (made
    /// absolute here, since the child inherits the test's own working directory). With
    /// `closedStandardOutput`, the reading end of stdout is closed at once, as a log reader that went
    /// away: every write the child makes meets EPIPE.
    init(_ arguments: [String], environment: [String: String] = [:], currentDirectory: String? = nil,
         closedStandardOutput: Bool = false) throws {
        var env = ProcessInfo.processInfo.environment
        for key in env.keys where key.hasPrefix("HLS_PROXY_") || key == "PORT" { env[key] = nil }
        env.merge(environment) { $1 }
        let resolved = arguments.map { argument -> String in
            guard let base = currentDirectory, !argument.hasPrefix("-"), !argument.hasPrefix("/"), !argument.contains("://"),
                  FileManager.default.fileExists(atPath: base + "/" + argument) else { return argument }
            return base + "/" + argument
        }
        child = try SpawnedProcess(path: RunningProcess.executablePath, arguments: resolved, environment: env)
        let stdout = self.stdout, stderr = self.stderr, openPipes = self.openPipes
        let pipeEnded: @Sendable () -> Void = { openPipes.withLock { $0 -= 1 } }
        if closedStandardOutput {
            close(child.outputFD)
            pipeEnded()
        } else {
            ChildProcess.drain(child.outputFD, into: { piece in stdout.withLock { $0 += piece } }, atEnd: pipeEnded)
        }
        ChildProcess.drain(child.errorFD, into: { piece in stderr.withLock { $0 += piece } }, atEnd: pipeEnded)
    }

    /// Whether the child still runs.
    var isRunning: Bool { child.isRunning }

    /// SIGTERM.
    func terminate() { child.send(SIGTERM) }

    /// SIGINT.
    func interrupt() { child.send(SIGINT) }

    /// SIGHUP.
    func hangUp() { child.send(SIGHUP) }

    var standardOutput: String { String(decoding: stdout.withLock { $0 }, as: UTF8.self) }
    var standardError: String { String(decoding: stderr.withLock { $0 }, as: UTF8.self) }

    /// Waits until stderr contains `text` or the child exits; nil if it does neither within `timeout`,
    /// or exits without writing it.
    func waitForError(containing text: String, timeout: Duration = .seconds(20)) async throws -> String? {
        do {
            try await eventually("stderr contains \(text)", timeout: timeout) { standardError.contains(text) || !isRunning }
        } catch is WaitTimedOut {
            return nil
        }
        let current = standardError
        return current.contains(text) ? current : nil
    }

    /// Waits for exit and returns the status; nil if still running after `timeout` (then it is killed).
    func waitForExit(timeout: Duration = .seconds(20)) async throws -> Int32? {
        do {
            try await eventually("the child exited", timeout: timeout) { !isRunning }
        } catch is WaitTimedOut {
            child.send(SIGKILL)
            return nil
        }
        // What the child wrote last is read before its output is looked at.
        try await eventually("the child's stdout and stderr reached end of file") { openPipes.withLock { $0 } == 0 }
        return child.exitCode()
    }

    /// Runs to completion and returns status, stdout and stderr.
    static func run(_ arguments: [String], environment: [String: String] = [:], currentDirectory: String? = nil) async throws
        -> (status: Int32?, out: String, err: String)
    {
        let child = try RunningProcess(arguments, environment: environment, currentDirectory: currentDirectory)
        let status = try await child.waitForExit()
        return (status, child.standardOutput, child.standardError)
    }
}
