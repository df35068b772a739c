"""Time webvtt-py's segmenter on a WebVTT file: parse, cut into N-second segments, serialize every segment.

Usage: python3 webvtt_py_segment.py FILE [SECONDS] [ROUNDS]
Prints the median milliseconds of the in-memory path (WebVTT.read + slice_segments + vtt._to_str for each
segment, exactly what webvtt.segment() does before writing files) and of the full webvtt.segment() call,
which also writes one file per segment and a playlist to a temporary folder.
"""
import statistics
import sys
import tempfile
import time

import webvtt
from webvtt import segmenter, vtt


def in_memory(path, seconds):
    captions_file = webvtt.WebVTT.read(path)
    segments = segmenter.slice_segments(captions_file.captions, seconds)
    metadata = ['X-TIMESTAMP-MAP=MPEGTS:126000,LOCAL:00:00:00.000']
    contents = [
        vtt._to_str(segment, captions_file.styles, [], [], metadata=metadata,
                    regions=captions_file.regions, item_comments=False).encode('utf-8')
        for segment in segments
    ]
    return len(contents), sum(len(c) for c in contents)


def median_ms(function, rounds):
    function()  # warm-up
    samples = []
    for _ in range(rounds):
        start = time.perf_counter()
        function()
        samples.append((time.perf_counter() - start) * 1000)
    return statistics.median(samples)


def main():
    path = sys.argv[1]
    seconds = int(sys.argv[2]) if len(sys.argv) > 2 else 6
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 10
    count, size = in_memory(path, seconds)
    memory = median_ms(lambda: in_memory(path, seconds), rounds)
    with tempfile.TemporaryDirectory() as folder:
        full = median_ms(lambda: webvtt.segment(path, folder, seconds, 126000), rounds)
    print(f'webvtt-py {webvtt.__version__}: {count} segments, {size} bytes; '
          f'in-memory median {memory:.2f} ms; segment() with file writes median {full:.2f} ms')


if __name__ == '__main__':
    main()
