extension ProxyService {
    /// Reads the configuration again (SIGHUP) and, when it is valid, swaps it in whole: requests that
    /// start afterwards get a new handler with empty memory caches, those already started finish on the
    /// old one, the listener and the disk cache stay. An invalid file is refused with every problem
    /// logged and the running configuration keeps serving. Logs one line either way (plus a warning
    /// naming settings that need a restart) and counts the result in `/metrics`. Returns whether it applied.
    ///
    /// `load` reads the file and applies the command line and environment over it, as start-up does.
    @discardableResult
    public func reload(file: String, loading load: () throws(ConfigError) -> ProxyConfig) -> Bool {
        reloading.withLock { _ in
            var candidate: ProxyConfig
            do throws(ConfigError) {
                candidate = try load()
            } catch {
                metrics.recordConfigReload(applied: false)
                logger.log(.error, "configuration reload refused; the running configuration keeps serving", [
                    ("file", file), ("problem_count", String(error.problems.count)),
                    ("problems", error.problems.joined(separator: "; ")),
                ])
                return false
            }
            let running = current.handler
            // The listener stays, so the example key is judged against the running host (docs/signing.md).
            var confinable = candidate
            confinable.listen.host = running.config.listen.host
            let (confined, exampleKeyErrors) = confinable.confiningPublishedExampleKey()
            for error in exampleKeyErrors { logger.log(.error, error) }
            candidate.signing = confined.signing
            let reload = ConfigReload(running: running.config, candidate: candidate)
            if !reload.keptUntilRestart.isEmpty {
                logger.log(.warn, "configuration reload kept settings that need a restart to change", [
                    ("file", file), ("kept", reload.keptUntilRestart.joined(separator: "; ")),
                ])
            }
            // Memory caches start empty: their keys name mounts and subtitle sets, whose meaning the new
            // file may have changed. The disk cache is kept, as a restart keeps it.
            current.replace(with: ProxyHandler(
                config: reload.effective, origin: origin, logger: logger, metrics: metrics, resolver: resolver,
                diskCache: running.diskCache, cacheClock: cacheClock, serverState: serverState))
            metrics.recordConfigReload(applied: true)
            logger.log(.info, "reloaded configuration file \(file)", [
                ("changed", reload.summary), ("mounts", String(reload.effective.mounts.count)),
                ("subtitle_sets", String(reload.effective.subtitleSets.count)),
            ])
            return true
        }
    }
}
