# Build: the official Swift 6 image, static Swift runtime.
FROM swift:6.3-bookworm AS build
WORKDIR /src
# SwiftPM checks that every target Package.swift declares has its folder, test targets included, even
# when building one product: Tests/ comes along (Tests/Fixtures stays out, see .dockerignore), and only
# the executable and its dependencies are compiled. `.ci/deploy-check.sh` rebuilds this stage from exactly
# these COPY lines in an empty directory and runs this RUN line there, so the output path stays relative.
COPY Package.swift ./
COPY Sources ./Sources
COPY Tests ./Tests
RUN swift build -c release --static-swift-stdlib --product hls-subtitle-proxy \
 && install -D "$(swift build -c release --show-bin-path)/hls-subtitle-proxy" out/hls-subtitle-proxy \
 && strip out/hls-subtitle-proxy

# Run: nothing beyond glibc and libstdc++ is linked; libssl3 is opened at run time for https origins,
# which verify against ca-certificates. curl is for the HEALTHCHECK only.
FROM debian:bookworm-slim
# Versions are not pinned (DL3008): bookworm's security updates replace them, and a pinned version that
# left the archive breaks the build; the base image tag fixes the release. Debian's base already has a
# user named "proxy" (uid 13), so ours is hlsproxy, uid and gid 10001.
# hadolint ignore=DL3008
RUN apt-get update \
 && apt-get install -y --no-install-recommends libssl3 ca-certificates curl \
 && rm -rf /var/lib/apt/lists/* \
 && groupadd --system --gid 10001 hlsproxy \
 && useradd --system --uid 10001 --gid 10001 --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin hlsproxy
COPY --from=build /src/out/hls-subtitle-proxy /usr/local/bin/hls-subtitle-proxy
COPY config.example.json /etc/hls-subtitle-proxy/config.json
COPY Examples /etc/hls-subtitle-proxy/Examples
# Numeric: Kubernetes' runAsNonRoot can verify a UID but not a name.
USER 10001:10001
# These win over a mounted config's listen section (flags > environment > file > defaults); set one to
# the empty string to take the file's value. Start-up logs where the host and the port came from.
ENV HLS_PROXY_CONFIG=/etc/hls-subtitle-proxy/config.json HLS_PROXY_HOST=0.0.0.0 HLS_PROXY_PORT=8080
EXPOSE 8080
# Through sh so the probe follows HLS_PROXY_PORT; any non-zero exit counts as a failed probe.
HEALTHCHECK --interval=10s --timeout=2s --retries=3 \
  CMD ["sh", "-c", "curl -fsS -o /dev/null http://127.0.0.1:${HLS_PROXY_PORT:-8080}/healthz"]
ENTRYPOINT ["/usr/local/bin/hls-subtitle-proxy"]
