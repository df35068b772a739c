#ifndef CSYSTEM_H
#define CSYSTEM_H
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>

/// accept4(2) needs _GNU_SOURCE, which Swift's Glibc module does not define.
int csystem_accept4(int fd, struct sockaddr *addr, socklen_t *len, int flags);

#endif
