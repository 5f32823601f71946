"""The catalogue of every stable code, gathered from the registries of each layer and
written as Markdown (``pdfinspect codes``, ``docs/codes.md``)."""
from __future__ import annotations

from ..fonts.codes import FLAGS, METHODS, STEPS, VALUES
from ..fonts.reasons import REASONS
from ..spec.codes import DIAGNOSTICS, CodeDoc, Registry

REGISTRIES: tuple[Registry, ...] = (DIAGNOSTICS, FLAGS, STEPS, REASONS, METHODS, VALUES)


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def _row(doc: CodeDoc) -> str:
    clause = doc.clause if doc.clause is None or doc.clause.startswith("Annex") else f"§{doc.clause}"
    return f"| `{doc.code}` | {_cell(doc.meaning)} | {clause or '—'} |"


def catalogue_markdown() -> str:
    """Every code of every registry, as Markdown tables grouped as the registries group them."""
    lines = ["# Codes", "",
             "Every code pdfinspect reports, generated from the registries in the source (`pdfinspect codes` "
             "prints this page; `tests/test_codes.py` fails when it is stale). A code is stable; the message "
             "shown beside it is for people and may change. Clauses are those of ISO 32000-1:2008.", ""]
    for reg in REGISTRIES:
        lines += [f"## {reg.title}", "", reg.intro, ""]
        group = None
        for doc in reg:
            if doc.group != group:
                group = doc.group
                if group:
                    lines += ([""] if lines[-1] else []) + [f"### {group}", ""]
                lines += ["| code | meaning | clause |", "|---|---|---|"]
            lines.append(_row(doc))
        lines.append("")
    return "\n".join(lines)


def catalogue_json() -> dict[str, list[dict]]:
    """``{kind: [{"code", "meaning", "clause", "group"}, …]}`` for every registry."""
    return {reg.kind: [{"code": d.code, "meaning": d.meaning, "clause": d.clause, "group": d.group} for d in reg]
            for reg in REGISTRIES}
