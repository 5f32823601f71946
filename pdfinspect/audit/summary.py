"""What an audit found, counted from its shards: per reason, per producer, per font, and the
worst files. Plain data; the CLI lays it out."""
from __future__ import annotations

import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from .shards import read_manifest, read_records

_SUBSET = re.compile(r"^[A-Z]{6}\+")


@dataclass
class Summary:
    out: str
    format: str
    files: int = 0
    ok: int = 0
    failed: int = 0
    pages: int = 0
    fonts: int = 0
    fonts_with_reasons: int = 0
    errors: list[tuple[str, int]] = field(default_factory=list)  # error class, files
    programs: int = 0  # distinct embedded font programs (program_sha256)
    # id, fonts, files, codes, distinct programs, their share of all programs, share of the files audited
    reasons: list[tuple[str, int, int, int, int, str, str]] = field(default_factory=list)
    producers: list[tuple[str, int, int, int]] = field(default_factory=list)  # producer, files, failed, fonts w/ reasons
    base_fonts: list[tuple[str, int, int]] = field(default_factory=list)  # base font, fonts, with reasons
    worst: list[tuple[str, int, int, str]] = field(default_factory=list)  # path, fonts w/ reasons, codes, reasons
    failures: list[tuple[str, str, str]] = field(default_factory=list)  # path, error class, message

    def explore(self) -> list[str]:
        """Commands that load the shards for a closer look."""
        ext = "jsonl" if self.format == "jsonl" else "parquet"
        reader = "read_json_auto" if self.format == "jsonl" else "read_parquet"
        pandas = (f"pd.concat(pd.read_json(p, lines=True) for p in glob.glob('{self.out}/fonts-*.jsonl'))"
                  if self.format == "jsonl" else f"pd.read_parquet(glob.glob('{self.out}/fonts-*.parquet'))")
        return [f"duckdb -c \"SELECT r.id, count(*) AS fonts FROM {reader}('{self.out}/fonts-*.{ext}') AS f, "
                f"unnest(f.reasons) AS t(r) GROUP BY 1 ORDER BY 2 DESC\"",
                f"python -c \"import glob, pandas as pd; df = {pandas}; print(df.explode('reasons')"
                f"['reasons'].str['id'].value_counts())\""]


def _font_name(base_font: str | None) -> str:
    return _SUBSET.sub("", base_font or "") or "(no /BaseFont)"


def summarize(out: str | Path, top: int = 10) -> Summary:
    """Count what the audit in ``out`` recorded; ``top`` rows per table."""
    out = Path(out)
    s = Summary(str(out), read_manifest(out)["format"])
    errors: Counter = Counter()
    producers: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    producer_of: dict[str, str] = {}
    for f in read_records(out, "files"):
        s.files += 1
        producer = (f["producer"] or "(none)").strip() or "(none)"
        producer_of[f["path"]] = producer
        row = producers[producer]
        row[0] += 1
        if f["status"] == "ok":
            s.ok += 1
            s.pages += f["pages_audited"] or 0
        else:
            s.failed += 1
            row[1] += 1
            errors[f["error_class"]] += 1
            s.failures.append((f["path"], f["error_class"], f["error"] or ""))
    by_reason: dict[str, list] = defaultdict(lambda: [0, set(), 0, set()])
    programs: set[str] = set()
    fonts: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    files_bad: dict[str, list] = defaultdict(lambda: [0, 0, set()])
    for font in read_records(out, "fonts"):
        s.fonts += 1
        program = font.get("program_sha256")
        if program:
            programs.add(program)
        name = fonts[_font_name(font["base_font"])]
        name[0] += 1
        reasons = font["reasons"] or []
        if not reasons:
            continue
        s.fonts_with_reasons += 1
        name[1] += 1
        producers[producer_of.get(font["path"], "(none)")][2] += 1
        bad = files_bad[font["path"]]
        bad[0] += 1
        for r in reasons:
            agg = by_reason[r["id"]]
            agg[0] += 1
            agg[1].add(font["path"])
            agg[2] += r["count"] or 0
            if program:
                agg[3].add(program)
            bad[1] += r["count"] or 0
            bad[2].add(r["id"])
    s.errors = errors.most_common()
    s.programs = len(programs)
    s.reasons = sorted(((k, v[0], len(v[1]), v[2], len(v[3]), _share(len(v[3]), len(programs)),
                         _share(len(v[1]), s.ok)) for k, v in by_reason.items()), key=lambda r: (-r[1], r[0]))
    s.producers = sorted(((k, *v) for k, v in producers.items()), key=lambda r: (-r[3], -r[1], r[0]))[:top]
    s.base_fonts = sorted(((k, *v) for k, v in fonts.items()), key=lambda r: (-r[2], -r[1], r[0]))[:top]
    s.worst = sorted(((p, v[0], v[1], ", ".join(sorted(v[2]))) for p, v in files_bad.items()),
                     key=lambda r: (-r[1], -r[2], r[0]))[:top]
    s.failures = s.failures[:top]
    return s


def _share(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}%" if whole else "–"
