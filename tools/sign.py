#!/usr/bin/env python3
"""Signs an hls-subtitle-proxy playback URL (docs/signing.md), with the standard library only.

    tools/sign.py --key-id k1 --key "$HLS_PROXY_SIGNING_KEY" --master /sample/master.m3u8 \
        --tracks tracks.json [--expires-in 3600 | --exp UNIX_SECONDS] [--subtitles en,fr] [--default fr]

prints /_hls-proxy/v1/signed/{token}/master.m3u8. The proxy's test suite runs it against the worked
example in docs/signing.md, so the two cannot drift apart.
"""
import argparse
import base64
import hashlib
import hmac
import json
import sys
import time


def b64url(data: bytes) -> str:
    # RFC 4648 section 5, without "=" padding.
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def sign(key_id: str, key: str, payload: dict) -> str:
    # 1. The payload as compact JSON: no spaces, keys sorted, UTF-8.
    payload_bytes = json.dumps(payload, separators=(",", ":"), sort_keys=True, ensure_ascii=False).encode("utf-8")
    # 2. The signed part: key id, ".", base64url of the payload.
    signed = key_id + "." + b64url(payload_bytes)
    # 3. HMAC-SHA256 over those ASCII bytes, keyed with the key string's UTF-8 bytes.
    mac = hmac.new(key.encode("utf-8"), signed.encode("ascii"), hashlib.sha256).digest()
    # 4. The token: signed part, ".", base64url of the MAC.
    return signed + "." + b64url(mac)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--key-id", required=True)
    parser.add_argument("--key", required=True)
    parser.add_argument("--master", required=True, help="a proxy path with its query, e.g. /sample/master.m3u8")
    parser.add_argument("--tracks", required=True, help="a JSON file of track objects (array or {\"tracks\": [...]}), - for stdin")
    parser.add_argument("--expires-in", type=int, default=3600)
    parser.add_argument("--exp", type=int, help="the expiry in unix seconds (instead of --expires-in)")
    parser.add_argument("--subtitles", help="languages or ids to list, comma separated")
    parser.add_argument("--default", help="the language or id of the DEFAULT track")
    args = parser.parse_args()
    with (sys.stdin if args.tracks == "-" else open(args.tracks, encoding="utf-8")) as source:
        tracks = json.load(source)
    if isinstance(tracks, dict):
        tracks = tracks["tracks"]
    payload = {
        "exp": args.exp if args.exp is not None else int(time.time()) + args.expires_in,
        "master": args.master,
        "tracks": tracks,
    }
    if args.subtitles:
        payload["subtitles"] = args.subtitles.split(",")
    if args.default:
        payload["default"] = args.default
    print("/_hls-proxy/v1/signed/" + sign(args.key_id, args.key, payload) + "/master.m3u8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
