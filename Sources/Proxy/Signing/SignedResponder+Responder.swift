import HTTPServer

extension SignedResponder: Responder {
    typealias Target = SignedURL

    /// Serves what a verified token describes through the shared master and subtitle responders.
    init(context: ResponderContext, masters: MasterResponder, subtitles: SubtitleResponder) {
        self.init(config: context.config, router: context.router, metrics: context.metrics, logger: context.logger,
                  masters: masters, subtitles: subtitles)
    }
}
