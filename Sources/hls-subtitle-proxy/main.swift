import Foundation
import HTTPServer
import HTTPWire
import Proxy

// The thin executable: arguments and environment in, a running proxy (or one offline action) out.


/// One line on stderr, prefixed with the program name.
func printError(_ message: String) {
    try? FileHandle.standardError.write(contentsOf: Data("hls-subtitle-proxy: \(message)\n".utf8))
}

func fail(_ message: String, status: Int32) -> Never {
    printError(message)
    exit(status)
}

/// Standard input to its end, through the file layer's read loop (EINTR retried), or a failure.
func readStandardInput() -> [UInt8] {
    do {
        return try HTTPFile.readToEnd(descriptor: 0)
    } catch {
        fail("cannot read standard input: \(error)", status: 1)
    }
}

let environment = ProcessInfo.processInfo.environment
let options: CommandLineOptions
do {
    options = try CommandLineOptions.parse(Array(CommandLine.arguments.dropFirst()), environment: environment)
} catch {
    fail(error.description, status: 2)
}

/// The config file as messages name it: an absolute path, as nginx names the file it loaded.
let configFile = options.configPath.map { URL(fileURLWithPath: $0).standardizedFileURL.path }

/// The config file with the flags and environment applied over it, and where the listen address came
/// from. Start-up and each reload (SIGHUP) read it the same way.
func readConfig() throws(ConfigError) -> (ProxyConfig, ListenSources) {
    var config: ProxyConfig
    if let path = options.configPath {
        config = try ProxyConfig.load(contentsOf: path, environment: environment)
    } else {
        config = try ProxyConfig.decode(Array("{}".utf8), environment: environment)
    }
    let sources = ListenSources(applying: options, to: &config)
    return (config, sources)
}

/// `readConfig()`, or the problems printed and the process ended.
func loadConfig() -> (ProxyConfig, ListenSources) {
    do {
        return try readConfig()
    } catch {
        let where_ = configFile.map { " in \($0)" } ?? ""
        if options.action == .checkConfig {
            for problem in error.problems { print(problem) }
            fail("config\(where_) has \(error.problems.count) problem(s)", status: 1)
        }
        fail("config\(where_) is invalid: " + error.problems.joined(separator: "; "), status: 1)
    }
}

switch options.action {
case .help:
    print(CommandLineOptions.helpText)
case .version:
    print("hls-subtitle-proxy \(ProxyVersion.number)")
case .checkConfig:
    for warning in options.warnings { printError("warning: \(warning)") }
    let (config, sources) = loadConfig()
    let host = config.listen.host.contains(":") ? "[\(config.listen.host)]" : config.listen.host
    let plan = "listen on \(host):\(config.listen.port) (\(sources.summary(threadCount: config.listen.threads)))"
        + " with \(config.mounts.count) mount(s) and \(config.subtitleSets.count) subtitle set(s)"
    guard let configFile else {
        printError("no configuration file given (--config PATH or HLS_PROXY_CONFIG): nothing to test")
        printError("without one it would \(plan): nothing is mounted, so every request but /healthz, /readyz and /metrics would answer 404")
        exit(1)
    }
    // Valid, but worth saying before it is deployed (the example config's published signing key).
    // Off loopback the example key is dropped at start, as said here (docs/signing.md).
    let (confined, exampleKeyErrors) = config.confiningPublishedExampleKey()
    for error in exampleKeyErrors { printError("error: \(error)") }
    for warning in confined.signing.publishedExampleKeyWarnings { printError("warning: \(warning)") }
    print("configuration file \(configFile) test is successful")
    print("it would \(plan)")
    print(config.limits.originExchangesSummary)
case .rewrite(let request):
    for warning in options.warnings { printError("warning: \(warning)") }
    let (config, _) = loadConfig()
    let bytes: [UInt8]
    if request.input == "-" {
        bytes = readStandardInput()
    } else if let data = FileManager.default.contents(atPath: request.input) {
        bytes = Array(data)
    } else {
        fail("cannot read \(request.input)", status: 1)
    }
    // What the command cannot do as the server would (an origin it does not ask offline) goes to stderr.
    let logger = ProxyLogger(level: .warn, accessSink: { _ in }, diagnosticSink: { line in printError(line) })
    // Resolving tracks is async (file probes go through the server's fetcher): run it, then end the process.
    Task.detached {
        do throws(ProxyError) {
            let output = try await OfflineRewrite.rewrite(
                bytes, proxyURL: request.url, config: config, subtitles: request.subtitles, defaultTrack: request.defaultTrack,
                network: request.network, logger: logger)
            do {
                try FileHandle.standardOutput.write(contentsOf: Data(output))
            } catch {
                fail("cannot write the output: \(error)", status: 1)
            }
            exit(0)
        } catch {
            fail(error.reason, status: 1)
        }
    }
    dispatchMain()
case .sign(let request):
    let (config, _) = loadConfig()
    let bytes: [UInt8]
    if request.tracks == "-" {
        bytes = readStandardInput()
    } else if let data = FileManager.default.contents(atPath: request.tracks) {
        bytes = Array(data)
    } else {
        fail("cannot read \(request.tracks)", status: 1)
    }
    switch SignCommand.playbackPath(request, tracksJSON: bytes, config: config, now: WallClockTime.currentSecond()) {
    case .success(let path):
        print(path)
    case .failure(let failure):
        for message in failure.messages { printError(message) }
        exit(failure.status)
    }
case .serve:
    // Caught before anything else: SIGHUP's default action ends the process, and one sent while the
    // config is read or the listener opens must wait in the pipe for the waiter below, not kill it.
    do {
        try ShutdownSignals.install()
        try ShutdownSignals.installReload()
    } catch {
        fail("cannot handle signals: \(error)", status: 1)
    }
    let (config, listenSources) = loadConfig()
    let level = options.logLevel ?? config.logLevel.flatMap { LogSeverity(name: $0.rawValue) } ?? .info
    let logger = ProxyLogger.standard(level: level, accessLog: options.accessLog ?? config.accessLog)
    for warning in options.warnings { logger.log(.warn, warning) }
    if let configFile {
        logger.log(.info, "loaded configuration file \(configFile)",
                   [("mounts", String(config.mounts.count)), ("subtitle_sets", String(config.subtitleSets.count))])
    } else {
        logger.log(.warn, "no configuration file given (--config PATH or HLS_PROXY_CONFIG): running on the built-in defaults")
    }
    let service = ProxyService(config: config, logger: logger)
    do {
        try service.start()
    } catch {
        fail("cannot start: \(error)", status: 1)
    }
    logger.log(.info, "hls-subtitle-proxy \(ProxyVersion.number) listening on http://\(service.address)"
               + " (\(listenSources.summary(threadCount: config.listen.threads)))", listenSources.metadata)
    for line in service.startupSummary { logger.log(.info, line) }
    for warning in service.startupWarnings { logger.log(.warn, warning) }
    let waiter = Thread {
        // SIGHUP reloads on this thread, one at a time, and the wait goes on; SIGTERM or SIGINT drains.
        var stopping: Int32?
        while stopping == nil {
            guard let number = ShutdownSignals.wait() else { return }
            guard number == ShutdownSignals.reload else {
                stopping = number
                break
            }
            guard let configFile else {
                logger.log(.warn, "SIGHUP: no configuration file given (--config PATH or HLS_PROXY_CONFIG): nothing to reload")
                continue
            }
            service.reload(file: configFile) { () throws(ConfigError) -> ProxyConfig in try readConfig().0 }
        }
        guard let number = stopping else { return }
        logger.log(.info, "signal \(number): draining")
        Task.detached {
            await service.stop()
            logger.log(.info, "stopped")
            ProxyLogger.flushStandardStreams()
            exit(0)
        }
    }
    waiter.name = "signals"
    waiter.start()
    Task.detached {
        // A server that stops without being asked to (an event loop failed) ends the process non-zero,
        // rather than leaving it running with nothing listening.
        guard let failure = await service.waitUntilStopped() else { return }
        logger.log(.error, "the server stopped: \(failure)")
        ProxyLogger.flushStandardStreams()
        exit(1)
    }
    dispatchMain()
}
