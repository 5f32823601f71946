"""Write a corpus of damaged PDFs into bench/data/mutated/ (git-ignored), deterministically,
by mutating the files of ../shared/corpus-pdfjs: the stress corpus of `bench/bench_audit.py`.

Each output file is one source file with one mutation (the seed fixes which):

- truncate: cut at a random offset;
- flip: overwrite 1–64 random bytes with random values;
- splice: delete a random run of bytes, or duplicate one elsewhere;
- xref: shift every digit run after `startxref`/`xref` by one (offsets all wrong);
- lengths: replace every `/Length N` with a random length;
- nest: insert a deeply nested array (`[[[…`) after the first `obj`;
- dict: insert a dictionary with thousands of keys after the first `obj`.

Usage: `python bench/make_mutated.py [--count 3000] [--seed 1] [--max-size MB] [--source DIR]`.
"""
from __future__ import annotations

import argparse
import random
import re
import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOURCE = ROOT.parent / "shared" / "corpus-pdfjs"
OUT = ROOT / "bench" / "data" / "mutated"


def truncate(data: bytes, rng: random.Random) -> bytes:
    return data[:rng.randrange(max(1, len(data)))]


def flip(data: bytes, rng: random.Random) -> bytes:
    b = bytearray(data)
    for _ in range(rng.randint(1, 64)):
        if b:
            b[rng.randrange(len(b))] = rng.randrange(256)
    return bytes(b)


def splice(data: bytes, rng: random.Random) -> bytes:
    if len(data) < 2:
        return data
    i = rng.randrange(len(data))
    j = min(len(data), i + rng.randint(1, 4096))
    if rng.random() < 0.5:
        return data[:i] + data[j:]
    k = rng.randrange(len(data))
    return data[:k] + data[i:j] + data[k:]


def xref(data: bytes, rng: random.Random) -> bytes:
    start = max(data.rfind(b"startxref"), data.rfind(b"xref"), 0)
    tail = re.sub(rb"\d+", lambda m: str(int(m.group()) + 1).encode(), data[start:])
    return data[:start] + tail


def lengths(data: bytes, rng: random.Random) -> bytes:
    return re.sub(rb"/Length\s+\d+", lambda m: b"/Length %d" % rng.randrange(1 << 20), data)


def _after_first_obj(data: bytes, insert: bytes) -> bytes:
    i = data.find(b" obj")
    return data + insert if i < 0 else data[:i + 4] + insert + data[i + 4:]


def nest(data: bytes, rng: random.Random) -> bytes:
    depth = rng.choice((500, 5000, 50000))
    return _after_first_obj(data, b"[" * depth + b"]" * depth + b"\n")


def big_dict(data: bytes, rng: random.Random) -> bytes:
    keys = b" ".join(b"/K%d %d" % (i, i) for i in range(rng.choice((1000, 20000))))
    return _after_first_obj(data, b"<<" + keys + b">>\n")


MUTATIONS = {"truncate": truncate, "flip": flip, "splice": splice, "xref": xref, "lengths": lengths,
             "nest": nest, "dict": big_dict}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--count", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--source", type=Path, default=SOURCE, help=f"default {SOURCE}")
    ap.add_argument("--max-size", type=float, default=2.0, help="skip sources larger than this (MB)")
    args = ap.parse_args()
    if not args.source.is_dir():
        raise SystemExit(f"{args.source} is absent (--source DIR)")
    sources = [p for p in sorted(args.source.glob("*.pdf")) if p.stat().st_size <= args.max_size * (1 << 20)]
    if OUT.exists():
        shutil.rmtree(OUT)
    OUT.mkdir(parents=True)
    rng = random.Random(args.seed)
    names = sorted(MUTATIONS)
    for i in range(args.count):
        src = sources[i % len(sources)]
        op = rng.choice(names)
        data = MUTATIONS[op](src.read_bytes(), rng)
        (OUT / f"{i:05d}-{op}-{src.stem[:40]}.pdf").write_bytes(data)
    print(f"{args.count} files from {len(sources)} sources in {OUT}")


if __name__ == "__main__":
    main()
