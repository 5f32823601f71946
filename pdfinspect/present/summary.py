"""What is in this file: identity, security, structure and every diagnostic.

The app's overview and the CLI's ``info`` show the same :class:`Summary`. Every value is
terminal-safe. Revisions are numbered from 0 (the original file).
"""
from __future__ import annotations

import os
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from ..core.diagnostics import Diagnostic, Severity, warning
from ..core.objects import String
from ..core.textstrings import decode_text
from .text import Parts, Row, safe_line

if TYPE_CHECKING:  # the summary is computed in a worker: the app's first screen imports this module
    from ..core.check import CheckReport
    from ..core.signatures import SignatureReport

INFO_KEYS = ("Title", "Author", "Subject", "Creator", "Producer", "CreationDate", "ModDate")
WARN = "warning"  # the role of a fact that needs a look (others have none)


@dataclass(frozen=True, slots=True)
class Summary:
    """The facts of a document, its revisions (one line each, from 0), its permissions (one
    line each) and every diagnostic met so far, repairs first."""

    facts: tuple[Row, ...]
    revisions: tuple[str, ...]
    security: tuple[str, ...]
    repairs: tuple[Diagnostic, ...]
    warnings: tuple[Diagnostic, ...]

    @property
    def diagnostics(self) -> tuple[Diagnostic, ...]:
        return self.repairs + self.warnings


def info_text(doc, key: str) -> str | None:
    """The document information entry ``key`` as terminal-safe text, ``None`` if absent."""
    v = doc.resolve(doc.info.get(key))
    return safe_line(decode_text(v.value)) if isinstance(v, String) else None


def encryption_text(doc) -> str:
    """The security handler as declared, and whether a password opened it (read without one)."""
    facts = doc.encryption
    if facts is None:
        return "none"
    if doc.security is not None:
        how = f"opened with the {doc.security.authenticated_as} password"
    else:
        how = "locked: no password given opens it; strings and streams stay encrypted"
    return safe_line(f"{facts.describe()}; {how}")


def security_lines(doc) -> tuple[str, ...]:
    """The /P value, then each permission it grants or denies (7.6.4.2), read without the password."""
    if doc.encryption is None:
        return ()
    return (f"permissions: /P {doc.encryption.permissions}",
            *(f"permission: {safe_line(p)}" for p in doc.encryption.permission_flags()))


def revision_lines(doc) -> tuple[str, ...]:
    lines = []
    for r in doc.revisions:
        kinds = "+".join(s.kind for s in r.sections) or "reconstructed"
        lines.append(f"{r.index}: startxref {r.startxref}, {kinds}, {len(r.entries)} entries")
    return tuple(lines)


def document_summary(doc, numbers: list[int] | None = None) -> Summary:
    """The summary of ``doc``; ``numbers`` are its in-use object numbers (``None`` while
    they are being counted)."""
    from ..core.signatures import signature_report

    facts = [Row("File", safe_line(os.path.basename(doc.path or "(memory)"))),
             Row("Size", f"{doc.size:,} bytes")]
    version = doc.header_version or "unknown"
    if doc.version != doc.header_version:
        version += f" (catalog /Version {doc.version})"
    facts.append(Row("Version", safe_line(version)))
    for key in INFO_KEYS:
        text = info_text(doc, key)
        if text is not None:
            facts.append(Row(key, text))
    facts.append(Row("Encryption", encryption_text(doc), WARN if doc.locked else ""))
    facts.append(Row("Pages", str(doc.page_count())))
    linearized = " (linearized: first-page and main sections form revision 0)" if doc.linearized else ""
    facts.append(Row("Revisions", f"{len(doc.revisions)}{linearized}"))
    facts.append(objects_row(doc, numbers))
    report = signature_report(doc)
    repairs = tuple(d for d in doc.diagnostics if d.repair)
    warnings = tuple(d for d in doc.diagnostics if not d.repair) + appended_warnings(report)
    errors = sum(d.severity is Severity.ERROR for d in warnings)
    counts = ", ".join(f"{n} {what}{'s' if n != 1 else ''}" for n, what in
                       ((len(repairs), "repair"), (errors, "error"), (len(warnings) - errors, "warning")) if n)
    if doc.repaired and not repairs:
        counts = "the cross-reference table was rebuilt" + (f"; {counts}" if counts else "")
    facts.append(Row("Damage", counts or "none found", WARN if counts else ""))
    if report.signatures or report.appended:
        facts.append(signature_row(report))
    return Summary(tuple(facts), revision_lines(doc), security_lines(doc), repairs, warnings)


def objects_row(doc, numbers: list[int] | None) -> Row:
    """How many objects are in use (``numbers``; ``None`` while they are being counted) beside /Size."""
    size = doc.trailer.get("Size")
    declared = f"/Size {safe_line(str(size))}" if size is not None else "no /Size in the trailer"
    return Row("Objects", f"{len(numbers):,} in use ({declared})" if numbers is not None else f"counting… ({declared})")


def with_objects(summary: Summary, doc, numbers: list[int] | None) -> Summary:
    """``summary`` with its object count from ``numbers`` (the rest as it was: no page tree walked again)."""
    row = objects_row(doc, numbers)
    return replace(summary, facts=tuple(row if f.label == row.label else f for f in summary.facts))


def signature_row(report: SignatureReport) -> Row:
    """One line on the signatures (``pdfinspect signatures`` has the details) and on objects
    appended outside every xref section."""
    parts = [f"{len(report.signatures)}: " + ", ".join(
        f"{s.verdict.value} (revision {s.revision})" if s.revision is not None else s.verdict.value
        for s in report.signatures)] if report.signatures else []
    if report.appended:
        nums = ", ".join(str(o.num) for o in report.appended[:8])
        parts.append(f"{len(report.appended)} objects after the last xref outside any xref section "
                     f"(objects {nums})")
    return Row("Signatures", safe_line("; ".join(parts)), "" if report.ok else WARN)


def appended_warnings(report: SignatureReport) -> tuple[Diagnostic, ...]:
    """A warning for the objects no xref section lists after the last one (what scanning
    readers show instead of what the xref leads to)."""
    if not report.appended:
        return ()
    first = report.appended[0]
    redefined = [o for o in report.appended if o.redefines]
    return (warning("objects-after-xref", f"{len(report.appended)} object(s) after the last xref section are "
                    f"listed by no xref section; {len(redefined)} redefine existing objects (readers that "
                    "scan the file show them): see pdfinspect signatures", offset=first.offset,
                    clause="7.5.6"),)


def check_rows(report: CheckReport) -> tuple[Row, ...]:
    """The counts of a whole-file check (:func:`pdfinspect.core.check.check`), as ``pdfinspect
    check`` prints them and the app's overview shows them; the verdict row last."""
    objects = f"{report.objects} parsed, {report.streams} stream(s) decoded"
    if report.streams_failed:
        objects += f", {report.streams_failed} failed"
    return (Row("PDF version", safe_line(report.version or "?")),
            Row("Encryption", safe_line(report.encryption)),
            Row("Pages", str(report.pages), "" if report.pages else WARN),
            Row("Objects", objects, WARN if report.streams_failed else ""),
            Row("Verdict", report.verdict(), WARN if report.status else ""))


def diagnostic_parts(d: Diagnostic) -> Parts:
    """``(text, role)`` pieces of one diagnostic; roles are the severity value, ``code``,
    ``message``, ``where`` and ``repair``; every text is terminal-safe."""
    parts = [(f"{d.severity.value:<8}", d.severity.value), (f"{safe_line(d.code)}  ", "code"),
             (safe_line(d.message), "message")]
    if d.ref is not None:
        parts.append((f"  object {d.ref[0]} {d.ref[1]}", "where"))
    if d.offset is not None:
        parts.append((f"  @{d.offset}", "where"))
    if d.clause:
        parts.append((f"  §{safe_line(d.clause)}", "where"))
    if d.repair:
        parts.append(("\n        repaired: ", "repair"))
        parts.append((safe_line(d.repair), "message"))
    return parts
