"""A file over 256 MiB read on demand (core/source.py) beside the memory map it replaced.

    python bench/bench_source.py [--repeat K]

Builds ``bench/data/big-source3.pdf`` once: l3kernel's ``source3.pdf`` (126,639 objects)
with a 300 MB stream of random bytes added (so the file is read on demand), then times whole
processes, the two ways interleaved: (a) open + page count + one object, (b) a full scan
(parse every object, decode every stream but the big one, whose raw bytes are read). The
map is the code before issue 21 (``mmap.mmap(fd, 0, access=ACCESS_READ)``), put back by
replacing ``document._read`` in the child. Prints median wall time and peak RSS.
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

SOURCE3 = Path("/usr/share/doc/texlive-doc/latex/l3kernel/source3.pdf")
BIG = Path(__file__).resolve().parent / "data" / "big-source3.pdf"
ROOT = Path(__file__).resolve().parent.parent

MAPPED = """
import mmap, os
from pdfinspect.core import document
def _read(path):
    fd = os.open(path, os.O_RDONLY)
    try:
        return mmap.mmap(fd, 0, access=mmap.ACCESS_READ), document._identity(os.fstat(fd))
    finally:
        os.close(fd)
document._read = _read
"""
OPEN = """
import sys
from pdfinspect.core.document import Document
doc = Document.open(sys.argv[1])
print(doc.page_count(), type(doc.buf).__name__, doc.get(1000))
"""
SCAN = """
import sys
from pdfinspect.core.document import Document
from pdfinspect.core.objects import Stream
doc = Document.open(sys.argv[1])
n = 0
for obj in doc.iter_objects(cache=False):
    n += 1
    if isinstance(obj.value, Stream):
        doc.stream_data(obj, decode_filters=obj.value.raw_length < 100_000_000)
print(n, type(doc.buf).__name__)
"""
PEAK = "\nimport resource; print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)\n"


def build() -> None:
    import pikepdf

    BIG.parent.mkdir(exist_ok=True)
    with pikepdf.open(SOURCE3) as pdf:
        pdf.Root.Junk = pdf.make_stream(os.urandom(300_000_000))
        pdf.save(BIG.with_suffix(".tmp"), compress_streams=False, stream_decode_level=pikepdf.StreamDecodeLevel.none)
    BIG.with_suffix(".tmp").rename(BIG)


def run(code: str) -> tuple[float, float, str]:
    """Wall seconds, the child's peak RSS in MB, its first line of output."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    t = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", code + PEAK, str(BIG)], capture_output=True, text=True, env=env,
                         check=True)
    wall = time.perf_counter() - t
    *lines, rss = out.stdout.split()
    return wall, int(rss) / 1024, " ".join(lines)[:60]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    if not BIG.exists():
        if not SOURCE3.exists():
            sys.exit(f"{SOURCE3} is needed (Debian texlive-latex-base-doc)")
        build()
    print(f"{BIG.name}: {BIG.stat().st_size:,} bytes")
    for name, code in (("open + page count + one object", OPEN), ("full scan", SCAN)):
        times: dict[str, list[float]] = {"on demand": [], "mapped": []}
        peak: dict[str, float] = {"on demand": 0.0, "mapped": 0.0}
        said: dict[str, str] = {}
        for _ in range(args.repeat):
            for way, prefix in (("on demand", ""), ("mapped", MAPPED)):
                wall, rss, out = run(prefix + code)
                times[way].append(wall)
                peak[way], said[way] = max(peak[way], rss), out
        a, b = statistics.median(times["on demand"]), statistics.median(times["mapped"])
        print(f"{name}: on demand {a:.2f} s, mapped {b:.2f} s ({a / b:.2f}×); "
              f"peak RSS {peak['on demand']:.0f} / {peak['mapped']:.0f} MB ({said['on demand']} / {said['mapped']})")


if __name__ == "__main__":
    main()
