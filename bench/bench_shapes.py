"""Shapes vote against known answers (issue 19): how many characters of fonts stripped of every
mapping the vote recovers, how often it is wrong, and whether shifted ToUnicode tables are caught.

    python bench/bench_shapes.py [DIR ...] [--limit N] [--work DIR]

From the PDFs in the folders (default ../shared/corpus-pdfjs and ../shared/corpus) it takes every
Type0 font over an embedded TrueType or CID-keyed CFF CIDFont whose mapping is clean (a ToUnicode,
no reason in the `fonts` report but the CFF's meaningless cid00042 names) and writes two copies of
its file (pikepdf, fontTools):

- *stripped*: the font's ToUnicode removed, a TrueType program's cmap and glyph names removed (post
  format 3); the outlines are kept. Nothing maps its codes any more but the shapes, the widths and
  the glyph order (`--keep-cmap` keeps the cmap: only what the issue names is removed).
- *shifted*: the font's ToUnicode with every destination moved one code point up.

Shapes are learned from every file but the one under test (leave one out), and the stripped copy is
read with them (`Resolver(shapes=…)`); each glyph of page 1 is compared with the original's text.
Every shifted copy should get `tounicode_shifted` (read with the same table, and with the document's
own shapes only). Last, the clean fonts of all files are read with
the table learned from all files: none should get `mapping_contradicts_shape` or
`tounicode_shifted`. Prints the figures; writes the copies under --work (default a temp folder).
"""
from __future__ import annotations

import argparse
import hashlib
import io
import os
import re
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from pdfinspect.content.fontreports import font_reports  # noqa: E402
from pdfinspect.content.textlayout import page_glyphs  # noqa: E402
from pdfinspect.core.document import Document  # noqa: E402
from pdfinspect.fonts.font import PUBLIC_COLLECTIONS  # noqa: E402
from pdfinspect.fonts.resolve import Resolver  # noqa: E402
from pdfinspect.fonts.shapevote import ShapeTable, learn  # noqa: E402


def candidates(path: Path) -> tuple[list[int], set[str]]:
    """Object numbers and resource names of the clean Type0 fonts with a ToUnicode drawn on page 1
    (the copies are matched by name: pikepdf renumbers the objects it writes)."""
    try:
        doc = Document.open(path)
        if doc.page_count() == 0:
            return [], set()
        reports = font_reports(doc, [1])
    except Exception:
        return [], set()
    out, names = [], set()
    for rep in reports:
        f = rep.font
        if not (f.is_type0 and f.tounicode is not None and f.cid_font is not None and f.ref is not None
                and rep.codes >= 3):
            continue
        if (f.cid_font.registry, f.cid_font.ordering) in PUBLIC_COLLECTIONS:
            continue  # the CID collection maps it by the spec: stripping would leave text behind
        reasons = {r.id for r in rep.reasons}
        truetype = f.cid_font.subtype == "CIDFontType2" and f.program_key == "FontFile2" and not reasons
        # CID-keyed CFF: its charset names are cid00042 (numeric names, no meaning) and stay
        cid_cff = f.cid_font.subtype == "CIDFontType0" and f.program_key == "FontFile3" \
            and reasons <= {"numeric_glyph_names"}
        if truetype or cid_cff:
            out.append(f.ref.num)
            names.update(rep.names)
    return out, names


def strip_program(data: bytes, keep_cmap: bool = False) -> bytes:
    from fontTools.ttLib import TTFont

    tt = TTFont(io.BytesIO(data))
    if "cmap" in tt and not keep_cmap:
        del tt["cmap"]
    if "post" in tt:
        tt["post"].formatType = 3.0
    out = io.BytesIO()
    tt.save(out)
    return out.getvalue()


def shift_cmap(data: bytes) -> bytes:
    """Every UTF-16 destination of bfchar/bfrange one code point up: the second string of each
    bfchar pair, the third of each bfrange triple (each string of a destination array); a
    destination of one UTF-16 unit (4 hex digits) outside the surrogates only."""
    def bump(token: bytes) -> bytes:
        m = re.fullmatch(rb"<([0-9A-Fa-f]{4})>", token)
        if m is None:
            return token
        value = int(m.group(1), 16)
        return b"<%04X>" % (value + 1) if value < 0xD7FF or 0xE000 <= value < 0xFFFF else token

    def block(m: re.Match) -> bytes:
        kind, body = m.group(1), m.group(2)
        tokens = re.findall(rb"<[0-9A-Fa-f\s]*>|\[[^\]]*\]", body)
        out, step = [], 2 if kind == b"char" else 3
        for i, tok in enumerate(tokens):
            if i % step == step - 1:
                tok = re.sub(rb"<[0-9A-Fa-f]{4}>", lambda t: bump(t.group(0)), tok) if tok.startswith(b"[") \
                    else bump(tok)
            out.append(tok)
        lines = [b" ".join(out[i:i + step]) for i in range(0, len(out), step)]
        return b"beginbf" + kind + b"\n" + b"\n".join(lines) + b"\nendbf" + kind

    return re.sub(rb"beginbf(char|range)(.*?)endbf(?:char|range)", block, data, flags=re.S)


def write_copies(path: Path, nums: list[int], work: Path, keep_cmap: bool = False) -> tuple[Path, Path]:
    import pikepdf

    stripped, shifted = work / f"{path.stem}.stripped.pdf", work / f"{path.stem}.shifted.pdf"
    with pikepdf.open(path) as pdf:
        for num in nums:
            font = pdf.get_object((num, 0))
            del font["/ToUnicode"]
            desc = font.DescendantFonts[0].FontDescriptor
            if "/FontFile2" in desc:
                desc.FontFile2 = pdf.make_stream(strip_program(desc.FontFile2.read_bytes(), keep_cmap))
        pdf.save(stripped)
    with pikepdf.open(path) as pdf:
        for num in nums:
            font = pdf.get_object((num, 0))
            font.ToUnicode = pdf.make_stream(shift_cmap(font.ToUnicode.read_bytes()))
        pdf.save(shifted)
    return stripped, shifted


def page_texts(path: Path, names: set[str], resolver_factory) -> list[tuple[str, str]]:
    """(text, winning method) of each glyph page 1 draws in the fonts named."""
    doc = Document.open(path)
    resolver = resolver_factory(doc)
    return [(r.unicode, r.method) for r in page_glyphs(doc, doc.page_ref(1), resolver, annots=False)
            if r.step.gstate.text.font_name in names]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dirs", nargs="*", default=[str(HERE.parent.parent / "shared" / "corpus-pdfjs"),
                                                  str(HERE.parent.parent / "shared" / "corpus")])
    ap.add_argument("--limit", type=int, default=0, help="files at most (0: all)")
    ap.add_argument("--work", help="folder for the copies (default: a temporary one)")
    ap.add_argument("--cache", default=os.path.expanduser("~/.cache/pdfinspect-bench-shapes"),
                    help="where each file's learned table is kept between runs")
    ap.add_argument("--learn-from", nargs="+", metavar="DIR",
                    help="learn the shapes from these folders' files only (a held-out check: test on DIRs, "
                         "learn on others); default: every file tested but the one under test")
    ap.add_argument("--keep-cmap", action="store_true",
                    help="strip only what the issue names (ToUnicode and glyph names), keeping a TrueType "
                         "program's cmap: its FontProgram step then reads the glyphs by the spec")
    ap.add_argument("--no-flagged", action="store_true", help="skip the check of the clean fonts")
    ap.add_argument("--confusions", type=int, default=20, help="most frequent wrong readings listed")
    args = ap.parse_args()
    files = sorted(p for d in args.dirs for p in Path(d).glob("*.pdf"))
    if args.limit:
        files = files[:args.limit]
    learn_files = sorted(p for d in args.learn_from for p in Path(d).glob("*.pdf")) if args.learn_from else files
    work = Path(args.work or tempfile.mkdtemp(prefix="bench-shapes-"))
    work.mkdir(parents=True, exist_ok=True)
    tables: dict[Path, ShapeTable] = {}
    cache = Path(args.cache)
    cache.mkdir(parents=True, exist_ok=True)
    # a table learned by other code (another fingerprint, another judgement) is not reused
    code = hashlib.sha1(b"".join((HERE.parent / "pdfinspect" / "fonts" / f).read_bytes() for f in
                                 ("shapes.py", "shapevote.py", "resolve.py", "plausibility.py"))).hexdigest()[:8]
    for i, path in enumerate(learn_files, 1):
        key = cache / (hashlib.sha1(path.read_bytes()).hexdigest()[:16] + f"-{code}.json")
        try:
            if key.exists():
                tables[path] = ShapeTable.load(key)
                continue
            doc = Document.open(path)
            tables[path] = learn(doc, Resolver(doc))
            tables[path].save(key)
        except Exception:
            continue
        if i % 50 == 0:
            print(f"learned {i}/{len(learn_files)}", file=sys.stderr)
    total = ShapeTable()
    for t in tables.values():
        total.merge(t)
    print(f"{len(files)} files tested, {len(tables)} of {len(learn_files)} learned, {len(total)} outlines in the table")

    recovered = wrong = left = 0
    by_method: dict[str, list[int]] = {}  # method → [right, wrong] characters of the stripped copies
    confusions: dict[tuple[str, str, str], int] = {}  # (truth, read, method) → characters
    shifted_flagged = shifted_own = shifted_total = 0
    worst = []
    for path in files:
        nums, names = candidates(path)
        if not nums:
            continue
        try:
            stripped, shifted = write_copies(path, nums, work, args.keep_cmap)
        except Exception as e:
            print(f"  {path.name}: copies not written ({type(e).__name__}: {e})", file=sys.stderr)
            continue
        others = ShapeTable()
        for p, t in tables.items():
            if p != path:
                others.merge(t)
        truth = [t for t, _ in page_texts(path, names, lambda doc: Resolver(doc))]
        got = page_texts(stripped, names, lambda doc: Resolver(doc, shapes=others))
        ok = bad = 0
        for a, (b, method) in zip(truth, got):
            if not b:
                continue
            ok += a == b
            bad += a != b
            tally = by_method.setdefault(method, [0, 0])
            tally[a != b] += 1
            if a != b:
                confusions[(a, b, method)] = confusions.get((a, b, method), 0) + 1
        recovered += ok
        wrong += bad
        left += len(truth) - ok - bad
        worst.append((len(truth) - ok, path.name, ok, bad, len(truth)))
        doc = Document.open(shifted)
        own = {rep.ref: rep.reason("tounicode_shifted") is not None for rep in font_reports(doc, [1])
               if set(rep.names) & names}
        doc = Document.open(shifted)
        for rep in font_reports(doc, [1], Resolver(doc, shapes=others)):
            if set(rep.names) & names:
                shifted_total += 1
                shifted_flagged += rep.reason("tounicode_shifted") is not None
                shifted_own += own.get(rep.ref, False)
                if rep.reason("tounicode_shifted") is None:
                    print(f"  not flagged: {path.name} {rep.base_font} ({rep.codes} codes)", file=sys.stderr)
    n = recovered + wrong + left
    if n:
        print(f"stripped fonts: {recovered} of {n} characters recovered ({100 * recovered / n:.2f}%), "
              f"{wrong} wrong ({100 * wrong / n:.2f}%), {left} left unread")
        for method, (right, bad) in sorted(by_method.items(), key=lambda kv: -sum(kv[1])):
            print(f"  {method}: {right} right, {bad} wrong")
        for (a, b, method), k in sorted(confusions.items(), key=lambda kv: -kv[1])[:args.confusions]:
            print(f"    {k:5d}  {a!r} read as {b!r} by {method}")
    print(f"shifted copies: {shifted_flagged} of {shifted_total} fonts flagged tounicode_shifted with the learned "
          f"shapes, {shifted_own} with the document's own")
    for missed, name, ok, bad, count in sorted(worst, reverse=True)[:8]:
        if missed:
            print(f"  {name}: {ok} of {count} recovered, {bad} wrong")
    flagged = []
    for path in [] if args.no_flagged else files:
        try:
            doc = Document.open(path)
            if doc.page_count() == 0:
                continue
            for rep in font_reports(doc, [1], Resolver(doc, shapes=total)):
                for rid in ("mapping_contradicts_shape", "tounicode_shifted"):
                    if rep.reason(rid):
                        flagged.append((path.name, rep.base_font, rid, rep.reason(rid).detail))
        except Exception:
            continue
    print(f"fonts of the corpora flagged: {len(flagged)}")
    for row in flagged:
        print("  " + "  ".join(row))
    if not args.work:
        for p in work.iterdir():
            os.unlink(p)
        os.rmdir(work)


if __name__ == "__main__":
    main()
