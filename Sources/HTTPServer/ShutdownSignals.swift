import CSystem
import Glibc

/// SIGTERM and SIGINT (and, once `installReload()` is called, SIGHUP) as an event a thread can wait for.
///
/// A real handler is installed (it writes the signal number to a pipe), so the signal is caught on
/// whichever thread the kernel delivers it to; a dispatch source or sigwait depends on every thread's
/// signal mask, which libdispatch changes on its own threads.
public enum ShutdownSignals {
    /// The signal that asks for the configuration to be read again (nginx's habit), not for a stop.
    public static let reload: Int32 = SIGHUP

    /// Makes a write to a peer that has gone return EPIPE instead of ending the process (SIGPIPE ignored).
    static func ignoreBrokenPipe() {
        signal(SIGPIPE, SIG_IGN)
    }

    /// Installs the handlers; call once, before serving.
    public static func install() throws(HTTPServerError) {
        guard csystem_install_shutdown_signals() == 0 else {
            throw HTTPServerError.system("sigaction(SIGTERM, SIGINT)", errno: errno)
        }
    }

    /// Catches SIGHUP too (its default action ends the process): `wait()` then returns `reload` for it.
    public static func installReload() throws(HTTPServerError) {
        guard csystem_install_reload_signal() == 0 else {
            throw HTTPServerError.system("sigaction(SIGHUP)", errno: errno)
        }
    }

    /// Blocks the calling thread until a caught signal arrives; returns its number (nil if the pipe failed).
    public static func wait() -> Int32? {
        let number = csystem_wait_shutdown_signal()
        return number < 0 ? nil : number
    }
}
