import HTTPServer

extension FileResponder: ImmediateResponder {
    typealias Target = FileTarget

    init(context: ResponderContext) {
        self.init(
            mountDirectories: context.mountDirectories,
            relocation: MasterRelocation(router: context.router, mounts: context.config.mounts),
            maxPlaylistBytes: context.config.limits.maxPlaylistBytes,
            relocatedFiles: context.caches.files)
    }

    /// Always answered on the loop thread (`serve(_:mount:)` never blocks).
    func answer(_ file: FileTarget, request: HTTPRequest) -> RouteResponse {
        serve(file.path, mount: file.mount)
    }
}
