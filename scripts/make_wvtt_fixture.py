#!/usr/bin/env python3
"""Writes Tests/Fixtures/subtitles/mp4-with-wvtt.mp4: a non-fragmented MP4 with one WebVTT track
(ISO/IEC 14496-30 `wvtt` sample entry) holding the cues of mp4-with-wvtt.vtt, next to it.

ffmpeg 5.1 reads wvtt but cannot write it, and GPAC is not packaged here, so the boxes are written by
hand. Check the result independently with: ffmpeg -i mp4-with-wvtt.mp4 -f webvtt -
Samples follow ISO/IEC 14496-30: time is cut at every cue start and end; a sample holds one `vttc` per
cue active in it (a cue spanning several samples is repeated), or one `vtte` where none is.
"""
import struct, pathlib

here = pathlib.Path(__file__).resolve().parent.parent / "Tests/Fixtures/subtitles"

# (start ms, end ms, id, settings, payload) -- the cues of mp4-with-wvtt.vtt.
CUES = [
    (1000, 2500, "intro", "align:start line:10%", "Hello <b>world</b> &amp; co"),
    (2000, 4000, "", "", "Overlapping\nsecond line"),
    (5250, 6000, "", "position:20%", "<i>Last</i> one"),
    (6000, 7125, "after", "", "Straight after, with --&gt; inside"),
]

def box(kind, payload=b""):
    return struct.pack(">I4s", 8 + len(payload), kind) + payload

def full(kind, version, flags, payload):
    return box(kind, struct.pack(">I", version << 24 | flags) + payload)

def samples():
    cuts = sorted({0} | {c[0] for c in CUES} | {c[1] for c in CUES})
    out = []
    for begin, end in zip(cuts, cuts[1:]):
        active = [c for c in CUES if c[0] <= begin and c[1] >= end]
        if not active:
            out.append((end - begin, box(b"vtte")))
            continue
        data = b""
        for _, _, ident, settings, text in active:
            inner = b""
            if ident: inner += box(b"iden", ident.encode())
            if settings: inner += box(b"sttg", settings.encode())
            inner += box(b"payl", text.encode())
            data += box(b"vttc", inner)
        if begin == 2500:
            data += box(b"vtta", b"a comment, ignored")
        out.append((end - begin, data))
    return out

def build():
    sample_list = samples()
    mdat_payload = b"".join(s[1] for s in sample_list)
    total = sum(s[0] for s in sample_list)
    matrix = struct.pack(">9I", 0x10000, 0, 0, 0, 0x10000, 0, 0, 0, 0x40000000)
    ftyp = box(b"ftyp", b"isom" + struct.pack(">I", 0x200) + b"isomiso6mp41")
    mvhd = full(b"mvhd", 0, 0, struct.pack(">IIII", 0, 0, 1000, total) + struct.pack(">IH", 0x10000, 0x100)
                + b"\0" * 10 + matrix + b"\0" * 24 + struct.pack(">I", 2))
    tkhd = full(b"tkhd", 0, 3, struct.pack(">IIIII", 0, 0, 1, 0, total) + b"\0" * 8 + struct.pack(">hhhh", 0, 0, 0, 0)
                + matrix + struct.pack(">II", 0, 0))
    # language "eng": three 5-bit letters minus 0x60.
    lang = (ord("e") - 0x60) << 10 | (ord("n") - 0x60) << 5 | (ord("g") - 0x60)
    mdhd = full(b"mdhd", 0, 0, struct.pack(">IIIIHH", 0, 0, 1000, total, lang, 0))
    hdlr = full(b"hdlr", 0, 0, struct.pack(">I", 0) + b"text" + b"\0" * 12 + b"WebVTT\0")
    dinf = box(b"dinf", full(b"dref", 0, 0, struct.pack(">I", 1) + full(b"url ", 0, 1, b"")))
    wvtt = box(b"wvtt", b"\0" * 6 + struct.pack(">H", 1) + box(b"vttC", b"WEBVTT") + box(b"vlab", b"en"))
    stsd = full(b"stsd", 0, 0, struct.pack(">I", 1) + wvtt)
    stts = full(b"stts", 0, 0, struct.pack(">I", len(sample_list)) + b"".join(struct.pack(">II", 1, s[0]) for s in sample_list))
    stsc = full(b"stsc", 0, 0, struct.pack(">IIII", 1, 1, len(sample_list), 1))
    stsz = full(b"stsz", 0, 0, struct.pack(">II", 0, len(sample_list)) + b"".join(struct.pack(">I", len(s[1])) for s in sample_list))
    def moov(offset):
        stco = full(b"stco", 0, 0, struct.pack(">II", 1, offset))
        stbl = box(b"stbl", stsd + stts + stsc + stsz + stco)
        minf = box(b"minf", full(b"nmhd", 0, 0, b"") + dinf + stbl)
        return box(b"moov", mvhd + box(b"trak", tkhd + box(b"mdia", mdhd + hdlr + minf)))
    offset = len(ftyp) + len(moov(0)) + 8
    return ftyp + moov(offset) + box(b"mdat", mdat_payload)

def vtt():
    lines = ["WEBVTT", ""]
    for start, end, ident, settings, text in CUES:
        stamp = lambda ms: "%02d:%02d:%02d.%03d" % (ms // 3600000, ms // 60000 % 60, ms // 1000 % 60, ms % 1000)
        if ident: lines.append(ident)
        lines.append(f"{stamp(start)} --> {stamp(end)}" + (f" {settings}" if settings else ""))
        lines += text.split("\n") + [""]
    return "\n".join(lines)

(here / "mp4-with-wvtt.mp4").write_bytes(build())
(here / "mp4-with-wvtt.vtt").write_text(vtt())
