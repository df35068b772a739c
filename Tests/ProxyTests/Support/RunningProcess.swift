import Foundation

/// The built `hls-subtitle-proxy` executable run as a child process, its output collected as it comes.
final class RunningProcess: @unchecked Sendable {
    // @unchecked: `process` is only touched from the test task; the buffers are behind LockedBox.
    let process = Process()
    private let stdout = LockedBox<[UInt8]>([])
    private let stderr = LockedBox<[UInt8]>([])

    /// The executable next to the test bundle (the test target depends on it, so it is built).
    static var executablePath: String {
        URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent("hls-subtitle-proxy").path
    }

    /// Starts the executable. With `closedStandardOutput`, stdout is a pipe whose reading end is closed
    /// at once, as a log reader that went away: every write the child makes meets EPIPE.
    init(_ arguments: [String], environment: [String: String] = [:], currentDirectory: String? = nil,
         closedStandardOutput: Bool = false) throws {
        process.executableURL = URL(fileURLWithPath: RunningProcess.executablePath)
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        for key in env.keys where key.hasPrefix("HLS_PROXY_") || key == "PORT" { env[key] = nil }
        env.merge(environment) { $1 }
        process.environment = env
        if let currentDirectory { process.currentDirectoryURL = URL(fileURLWithPath: currentDirectory) }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        let stdout = self.stdout, stderr = self.stderr
        try ChildProcess.launch(process)
        // The parent's copies of the writing ends must go, or reading never sees end of file.
        try out.fileHandleForWriting.close()
        try err.fileHandleForWriting.close()
        if closedStandardOutput {
            try out.fileHandleForReading.close()
        } else {
            ChildProcess.drain(out.fileHandleForReading.fileDescriptor) { piece in stdout.withLock { $0 += piece } }
        }
        ChildProcess.drain(err.fileHandleForReading.fileDescriptor) { piece in stderr.withLock { $0 += piece } }
    }

    var standardOutput: String { String(decoding: stdout.withLock { $0 }, as: UTF8.self) }
    var standardError: String { String(decoding: stderr.withLock { $0 }, as: UTF8.self) }

    /// Waits (polling) until stderr contains `text`; nil if it does not within `timeout`.
    func waitForError(containing text: String, timeout: Duration = .seconds(20)) async throws -> String? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let current = standardError
            if current.contains(text) { return current }
            if !process.isRunning { return standardError.contains(text) ? standardError : nil }
            try await Task.sleep(for: .milliseconds(20))
        }
        return nil
    }

    /// Waits for exit and returns the status; nil if still running after `timeout` (then it is killed).
    func waitForExit(timeout: Duration = .seconds(20)) async throws -> Int32? {
        let deadline = ContinuousClock.now + timeout
        while process.isRunning {
            if ContinuousClock.now >= deadline {
                process.terminate()
                return nil
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        // Let the readability handlers drain what is left in the pipes.
        try await Task.sleep(for: .milliseconds(50))
        return process.terminationStatus
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
