#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/openat2.h>
#include "CSystem.h"

int csystem_accept4(int fd, struct sockaddr *addr, socklen_t *len, int flags) {
    return accept4(fd, addr, len, flags);
}

static int shutdown_pipe[2] = {-1, -1};

static void csystem_on_shutdown_signal(int number) {
    int saved = errno;
    unsigned char byte = (unsigned char)number;
    (void)!write(shutdown_pipe[1], &byte, 1);
    errno = saved;
}

// The pipe the handlers write to. Its writing end does not block: a handler that met a full pipe
// (thousands of signals no one read) would otherwise hang whichever thread it interrupted.
static int csystem_open_signal_pipe(void) {
    if (shutdown_pipe[0] >= 0) return 0;
    if (pipe2(shutdown_pipe, O_CLOEXEC) != 0) return -1;
    int flags = fcntl(shutdown_pipe[1], F_GETFL);
    if (flags < 0 || fcntl(shutdown_pipe[1], F_SETFL, flags | O_NONBLOCK) != 0) return -1;
    return 0;
}

// Routes `signal` to the pipe, restarting the calls it interrupts.
static int csystem_route_signal(int signal) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = csystem_on_shutdown_signal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    return sigaction(signal, &action, NULL);
}

int csystem_install_shutdown_signals(void) {
    if (csystem_open_signal_pipe() != 0) return -1;
    if (csystem_route_signal(SIGTERM) != 0) return -1;
    return csystem_route_signal(SIGINT);
}

int csystem_install_reload_signal(void) {
    if (csystem_open_signal_pipe() != 0) return -1;
    return csystem_route_signal(SIGHUP);
}

int csystem_wait_shutdown_signal(void) {
    unsigned char byte = 0;
    // EINTR retried here, not through SystemCall.perform: a blocking read of a pipe private to this file.
    for (;;) {
        ssize_t n = read(shutdown_pipe[0], &byte, 1);
        if (n == 1) return byte;
        if (n < 0 && errno == EINTR) continue;
        return -1;
    }
}

const int csystem_o_path = O_PATH;

#ifndef SYS_openat2
#define SYS_openat2 437
#endif

int csystem_openat2_beneath(int dirfd, const char *path, int flags) {
    struct open_how how;
    memset(&how, 0, sizeof how);
    how.flags = (unsigned long long)flags;
    how.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS;
    // EINTR retried here, not through SystemCall.perform, which would report this EAGAIN as "would block".
    // EAGAIN: a rename ran during the lookup and the kernel would not vouch for the result; a few
    // more tries, then the caller gets EAGAIN (a path under constant renames is not served).
    for (int tries = 0;; tries++) {
        long fd = syscall(SYS_openat2, dirfd, path, &how, sizeof how);
        if (fd < 0 && errno == EINTR) continue;
        if (fd < 0 && errno == EAGAIN && tries < 8) continue;
        return (int)fd;
    }
}
