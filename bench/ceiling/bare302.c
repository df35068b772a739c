// The ceiling for the redirect test on this machine: an edge-triggered epoll loop that answers every
// request head in what it reads with one fixed 302 and parses nothing else. No HTTP server does less
// per request; bench/run.sh's "ceiling" test compares it with nginx's `return 302` in the same run.
//   cc -O2 -o bare302 bare302.c && ./bare302 PORT LOCATION
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

int main(int argc, char **argv) {
    if (argc < 3) { fprintf(stderr, "usage: bare302 PORT LOCATION\n"); return 2; }
    char response[1024];
    int length = snprintf(response, sizeof response,
        "HTTP/1.1 302 Found\r\nLocation: %s\r\nCache-Control: no-store\r\nServer: bare302\r\n"
        "Date: Mon, 30 Nov 2026 00:00:00 GMT\r\nContent-Length: 0\r\n\r\n", argv[2]);
    if (length <= 0 || length >= (int)sizeof response) return 2;
    int listener = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0), one = 1;
    setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    struct sockaddr_in address = { .sin_family = AF_INET, .sin_port = htons(atoi(argv[1])),
                                   .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
    if (bind(listener, (struct sockaddr *)&address, sizeof address) || listen(listener, 1024)) { perror("bind"); return 1; }
    int poller = epoll_create1(0);
    struct epoll_event event = { .events = EPOLLIN, .data.fd = listener };
    epoll_ctl(poller, EPOLL_CTL_ADD, listener, &event);
    struct epoll_event ready[256];
    static char input[65536];
    for (;;) {
        int count = epoll_wait(poller, ready, 256, -1);
        for (int i = 0; i < count; i++) {
            int fd = ready[i].data.fd;
            if (fd == listener) {
                int client;
                while ((client = accept4(listener, NULL, NULL, SOCK_NONBLOCK)) >= 0) {
                    setsockopt(client, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
                    struct epoll_event watch = { .events = EPOLLIN | EPOLLET, .data.fd = client };
                    epoll_ctl(poller, EPOLL_CTL_ADD, client, &watch);
                }
                continue;
            }
            ssize_t got = read(fd, input, sizeof input);
            if (got <= 0) { close(fd); continue; }
            for (ssize_t k = 3; k < got; k++) {
                if (input[k] == '\n' && input[k - 1] == '\r' && input[k - 2] == '\n' && input[k - 3] == '\r') {
                    if (write(fd, response, (size_t)length) != length) { close(fd); break; }
                }
            }
        }
    }
}
