import HTTPServer

/// `serve(_:request:)` is the responder's own; an `immediate(_:request:)` declared on the type (a cached
/// playlist or file) is picked up by the dispatch table with no other change.
extension SubtitleResponder: Responder {
    typealias Target = SubtitleURL

    init(context: ResponderContext) {
        let timelines = VideoTimelineReader(
            config: context.config, fetcher: context.fetcher, timelines: context.caches.timelines,
            timestamps: context.caches.timestamps, logger: context.logger)
        self.init(
            config: context.config, router: context.router, resolver: context.tracks,
            cues: SubtitleCueLoader(
                config: context.config, documents: context.caches.subtitles, loads: context.caches.subtitleLoads,
                fetcher: context.fetcher, timelines: timelines, logger: context.logger, metrics: context.metrics),
            timelines: timelines, cacheControl: "max-age=\(ConfigSeconds.maxAge(context.config.cache.subtitleTTL))")
    }
}
