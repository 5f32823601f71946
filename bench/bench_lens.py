"""Word-bag F1 of `text --as X` against the real extractor X, in one process.

The same figure as ../shared/tools/lens_agree.py (page N, words as multisets, precision,
recall and F1 micro-averaged over the files, the real outputs read from its cache
~/.cache/pdfinspect-lens, which lens_agree.py fills), but every emulation runs in this
process over one glyph pass per file instead of one `pdfinspect` process per file and
extractor: a minute instead of an hour on a busy 2-core machine. Files whose real output
is not cached are skipped (run lens_agree.py once first), unless ``--fill``: then the real
extractor runs for them (``pdfinspect.extractors.oracle.run``, the same commands and 60 s
timeout as lens_agree.py) and its output is cached; a failed run is cached as empty output,
which is skipped. The held-out set: ``python bench/bench_lens.py "$(python bench/heldout.py)" --fill``.

With several folders it prints each folder's figures, then all of them together.

usage: python bench/bench_lens.py [DIR ...] [--page N] [--only pdfminer,pypdf,…] [--worst K] [--fill]
"""
from __future__ import annotations

import argparse
import collections
import hashlib
import os
import signal
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pdfinspect.content.textlayout import page_glyphs  # noqa: E402
from pdfinspect.core.document import Document  # noqa: E402
from pdfinspect.extractors import emulate, oracle, page_frame  # noqa: E402

SHARED = Path(__file__).resolve().parents[2] / "shared"
CACHE = Path.home() / ".cache" / "pdfinspect-lens"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dirs", nargs="*", default=[str(SHARED / "corpus-pdfjs"), str(SHARED / "corpus")])
    ap.add_argument("--page", type=int, default=1)
    ap.add_argument("--only", default="pdfminer,pypdf,pdfium,poppler,mupdf")
    ap.add_argument("--worst", type=int, default=5)
    ap.add_argument("--fill", action="store_true", help="run the real extractor where its output is not cached")
    a = ap.parse_args()
    a.dirs = [os.path.normpath(d) for d in a.dirs]
    names = a.only.split(",")
    files = sorted(os.path.join(d, f) for d in a.dirs for f in os.listdir(d) if f.lower().endswith(".pdf"))
    # (folder or "" for all of them, extractor) → [common words, real words, our words, [(words differ, file)]]
    stats = {(d, x): [0, 0, 0, []] for d in [*(a.dirs if len(a.dirs) > 1 else []), ""] for x in names}

    def timeout(*_):
        raise TimeoutError

    signal.signal(signal.SIGALRM, timeout)
    for f in files:
        digest = hashlib.sha1(Path(f).read_bytes()).hexdigest()[:16]
        refs = {}
        for x in names:
            cached = CACHE / f"{x}-{digest}-p{a.page}.txt"
            if not cached.exists() and a.fill and x in oracle.REAL:
                CACHE.mkdir(parents=True, exist_ok=True)
                tmp = cached.with_suffix(".part")
                tmp.write_text(oracle.run(x, f, a.page).text or "", encoding="utf-8")
                tmp.replace(cached)
            if cached.exists():
                text = cached.read_text(encoding="utf-8", errors="replace")
                if text.split():
                    refs[x] = text
        if not refs:
            continue
        signal.alarm(60)
        try:
            doc = Document.open(f)
            ref = doc.page_ref(a.page)
            records = list(page_glyphs(doc, ref))
            frame = page_frame(doc, ref)
            ours = {x: emulate(x, records, frame).text for x in refs}
        except Exception:  # as lens_agree.py: a failed run outputs nothing
            ours = dict.fromkeys(refs, "")
        finally:
            signal.alarm(0)
        for x, text in refs.items():
            real, mine = collections.Counter(text.split()), collections.Counter(ours[x].split())
            common = sum((real & mine).values())
            for key in {(os.path.dirname(f), x), ("", x)} & stats.keys():
                s = stats[key]
                s[0] += common
                s[1] += sum(real.values())
                s[2] += sum(mine.values())
                s[3].append((sum(real.values()) + sum(mine.values()) - 2 * common, os.path.basename(f)))
    for (d, x), (common, real_n, our_n, worst) in stats.items():
        p = common / our_n if our_n else 0.0
        r = common / real_n if real_n else 0.0
        f1 = 2 * p * r / (p + r) if p + r else 0.0
        print(f"{os.path.basename(d) + ' ' if d else 'together ' if len(a.dirs) > 1 else ''}"
              f"{x}: precision {p:.4f} recall {r:.4f} F1 {f1:.4f} over {len(worst)} pages; worst: "
              + ", ".join(f"{n} ({d} words differ)" for d, n in sorted(worst, reverse=True)[:a.worst]))


if __name__ == "__main__":
    main()
