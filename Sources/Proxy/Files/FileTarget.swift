import HTTPServer

/// A file of a directory mount: its path under the mount and the mount.
struct FileTarget: Sendable {
    let path: String
    let mount: Mount?
}
