#ifndef CSYSTEM_H
#define CSYSTEM_H
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>

/// accept4(2) needs _GNU_SOURCE, which Swift's Glibc module does not define.
int csystem_accept4(int fd, struct sockaddr *addr, socklen_t *len, int flags);

/// Installs handlers for SIGTERM and SIGINT that write the signal number to a pipe (write(2) is
/// async-signal-safe), whichever thread the kernel picks. Returns 0, or -1 with errno set.
int csystem_install_shutdown_signals(void);

/// Installs a handler that writes SIGHUP's number to the same pipe, so the waiter sees reloads too.
int csystem_install_reload_signal(void);

/// Blocks until a shutdown signal arrives and returns its number, or -1 if the pipe failed.
int csystem_wait_shutdown_signal(void);

/// O_PATH, which <fcntl.h> defines only under _GNU_SOURCE.
extern const int csystem_o_path;

/// openat2(2) with RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS: opens `path` relative to `dirfd` only if
/// every step of its resolution (symlinks included) stays beneath `dirfd`. Glibc has no wrapper, so
/// this goes through syscall(2). Returns the descriptor, or -1 with errno set (ENOSYS or EPERM where
/// the kernel or a seccomp profile does not offer it; EXDEV or ELOOP for a path that would escape).
int csystem_openat2_beneath(int dirfd, const char *path, int flags);

#endif
