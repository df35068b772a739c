import Foundation
import HTTPServer
import Proxy

// The thin executable: arguments and environment in, a running proxy (or one offline action) out.


func fail(_ message: String, status: Int32) -> Never {
    try? FileHandle.standardError.write(contentsOf: Data("hls-subtitle-proxy: \(message)\n".utf8))
    exit(status)
}

let environment = ProcessInfo.processInfo.environment
let options: CommandLineOptions
do {
    options = try CommandLineOptions.parse(Array(CommandLine.arguments.dropFirst()), environment: environment)
} catch {
    fail(error.description, status: 2)
}

func loadConfig() -> ProxyConfig {
    do {
        var config: ProxyConfig
        if let path = options.configPath {
            config = try ProxyConfig.load(contentsOf: path, environment: environment)
        } else {
            config = try ProxyConfig.decode(Array("{}".utf8), environment: environment)
        }
        if let host = options.host { config.listen.host = host }
        if let port = options.port { config.listen.port = port }
        if let threads = options.threads { config.listen.threads = threads }
        return config
    } catch {
        let where_ = options.configPath.map { " in \($0)" } ?? ""
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
    print("hls-subtitle-proxy \(CommandLineOptions.version)")
case .checkConfig:
    let config = loadConfig()
    print("config OK: \(config.mounts.count) mount(s), \(config.subtitleSets.count) subtitle set(s)")
    print(config.limits.originExchangesSummary)
case .rewrite(let url, let input):
    let config = loadConfig()
    let bytes: [UInt8]
    if input == "-" {
        bytes = Array(FileHandle.standardInput.readDataToEndOfFile())
    } else if let data = FileManager.default.contents(atPath: input) {
        bytes = Array(data)
    } else {
        fail("cannot read \(input)", status: 1)
    }
    do {
        let output = try OfflineRewrite.rewrite(bytes, proxyURL: url, config: config)
        do {
            try FileHandle.standardOutput.write(contentsOf: Data(output))
        } catch {
            fail("cannot write the output: \(error)", status: 1)
        }
    } catch {
        fail(error.reason, status: 1)
    }
case .serve:
    let config = loadConfig()
    let level = options.logLevel ?? config.logLevel.flatMap { LogSeverity(name: $0.rawValue) } ?? .info
    let logger = ProxyLogger.standard(level: level, accessLog: options.accessLog ?? config.accessLog)
    let service = ProxyService(config: config, logger: logger)
    do {
        try service.start()
    } catch {
        fail("cannot start: \(error)", status: 1)
    }
    let loops = config.listen.threads == 1 ? "" : " (\(config.listen.threads) event loop threads)"
    logger.log(.info, "hls-subtitle-proxy \(CommandLineOptions.version) listening on http://\(service.address)\(loops)")
    for line in service.startupSummary { logger.log(.info, line) }
    for warning in service.startupWarnings { logger.log(.warn, warning) }
    do {
        try ShutdownSignals.install()
    } catch {
        fail("cannot handle signals: \(error)", status: 1)
    }
    let waiter = Thread {
        guard let number = ShutdownSignals.wait() else { return }
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
    dispatchMain()
}
