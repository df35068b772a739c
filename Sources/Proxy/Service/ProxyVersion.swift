/// The program's version, defined here only: `--version`, `--help`, the start-up line and the origin
/// client's User-Agent all read it, and a test holds CHANGELOG.md's newest release and the Kubernetes
/// example's image tag to it.
public enum ProxyVersion {
    /// The release number, as `--version` prints it.
    public static let number = "0.1.0"

    /// The User-Agent sent to origins that the request does not set itself.
    public static let userAgent = "hls-subtitle-proxy/\(number)"
}
