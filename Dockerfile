# Build: the official Swift 6 image, static Swift runtime.
FROM swift:6.3-bookworm AS build
WORKDIR /src
COPY Package.swift ./
COPY Sources ./Sources
RUN swift build -c release --static-swift-stdlib --product hls-subtitle-proxy \
 && install -D "$(swift build -c release --show-bin-path)/hls-subtitle-proxy" /out/hls-subtitle-proxy \
 && strip /out/hls-subtitle-proxy

# Run: nothing beyond glibc is linked; libssl3 is opened at run time for https origins, which verify
# against ca-certificates. curl is for the HEALTHCHECK only.
FROM debian:bookworm-slim
RUN apt-get update && apt-get install -y --no-install-recommends libssl3 ca-certificates curl \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --uid 10001 --home-dir /srv proxy
COPY --from=build /out/hls-subtitle-proxy /usr/local/bin/hls-subtitle-proxy
COPY config.example.json /etc/hls-subtitle-proxy/config.json
COPY Examples /etc/hls-subtitle-proxy/Examples
USER proxy
ENV HLS_PROXY_CONFIG=/etc/hls-subtitle-proxy/config.json HLS_PROXY_HOST=0.0.0.0 HLS_PROXY_PORT=8080
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=2s --retries=3 CMD curl -fsS http://127.0.0.1:8080/healthz || exit 1
ENTRYPOINT ["/usr/local/bin/hls-subtitle-proxy"]
