"""Writing what a PDF holds to files: a stream's bytes (decoded or as stored), an image
XObject as PNG (JPEG and JPEG 2000 as stored), a font program with the suffix of its kind.
The CLI's ``extract`` and the app's save prompt both call these. The input file is never
written: a target that is the input file raises :class:`PdfError` before anything is written.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from ..core.diagnostics import PdfError, error
from ..core.objects import Dict, Name, Ref, Stream
from .fix import same_file
from .text import safe_line

FONT_SUFFIX = {"FontFile": ".pfb", "FontFile2": ".ttf", "Type1C": ".cff", "CIDFontType0C": ".cff",
               "OpenType": ".otf"}
RAW, DECODED, AUTO = "raw", "decoded", "auto"  # how a stream is written (AUTO: images as pictures)


@dataclass(frozen=True, slots=True)
class Exported:
    """What was written where; ``error`` says why the data is partial (it is written all the same)."""

    path: Path
    summary: str  # one terminal-safe line: "<path>: 1,234 bytes (decoded)"
    error: str | None = None


def guard(doc, target: Path) -> None:
    """Refuse to write over the input file."""
    if doc.path and same_file(str(doc.path), str(target)):
        raise PdfError(error("output-is-input", f"{target} is the input file; it is never written"))


def export_stream(doc, num: int, target: Path, how: str = AUTO) -> Exported:
    """Write stream object ``num``: ``RAW`` as stored (decrypted), ``DECODED`` after its filters,
    ``AUTO`` decoded, or an image XObject as PNG (JPEG / JPEG 2000 as stored, with its suffix)."""
    from ..render.image import ImageError, is_image, picture, stored_file

    obj = doc.get(num)
    if obj is None or not isinstance(obj.value, Stream):
        raise PdfError(error("not-a-stream", f"object {num} is " + ("not in the file" if obj is None else "not a stream")))
    guard(doc, target)
    res = doc.stream_data(obj, decode_filters=how != RAW)
    if is_image(obj.value) and how == AUTO:
        suffix = stored_file(res.image_filter)
        if suffix is not None:  # JPEG and JPEG 2000 are files already: passed through
            target = _with_suffix(doc, target, suffix)
            target.write_bytes(res.data)
            return Exported(target, f"{safe_line(str(target))}: {res.image_filter} image, {len(res.data)} bytes as stored")
        try:
            image = picture(doc, obj.value.dict, res.data, res.image_filter)
        except ImageError as e:
            raise PdfError(error("image-unreadable", f"object {num}: {e}")) from None
        target = _with_suffix(doc, target, ".png")
        image.save(target, "PNG")
        return Exported(target, f"{safe_line(str(target))}: {image.width}×{image.height} {image.mode} PNG")
    target.write_bytes(res.data)
    problem = f"object {num}: {res.error}; the partial data is written" if res.error else None
    return Exported(target, f"{safe_line(str(target))}: {len(res.data)} bytes "
                            f"({'as stored' if how == RAW else 'decoded'})", problem)


def _with_suffix(doc, target: Path, suffix: str) -> Path:
    target = target if target.suffix.lower() == suffix else target.with_suffix(suffix)
    guard(doc, target)
    return target


def font_program(doc, num: int) -> tuple[Ref, str, str]:
    """(font file reference, /FontFile key, program subtype) for object ``num``: a font (its
    descriptor, or its descendant's), a font descriptor or the font file stream itself."""
    value = doc.resolve(Ref(num, 0))
    d = value.dict if isinstance(value, Stream) else value
    if isinstance(value, Stream):
        sub = doc.resolve(d.get("Subtype"))
        key = "FontFile3" if isinstance(sub, Name) else ("FontFile" if "Length2" in d else "FontFile2")
        return Ref(num, 0), key, str(sub) if isinstance(sub, Name) else ""
    if isinstance(d, Dict) and d.get("Type") == "Font":
        kids = doc.resolve(d.get("DescendantFonts"))
        if kids:
            d = doc.resolve(kids[0])
        d = doc.resolve(d.get("FontDescriptor")) if isinstance(d, Dict) else None
    if not isinstance(d, Dict):
        raise PdfError(error("not-a-font", f"object {num} is not a font, a font descriptor or a font file"))
    for key in ("FontFile", "FontFile2", "FontFile3"):
        ref = d.get(key)
        stream = doc.resolve(ref)
        if isinstance(ref, Ref) and isinstance(stream, Stream):
            sub = doc.resolve(stream.dict.get("Subtype"))
            return ref, key, str(sub) if isinstance(sub, Name) else ""
    raise PdfError(error("font-not-embedded", f"object {num}: the font has no embedded program"))


def font_file_name(doc, num: int) -> str:
    """The file name (without folder) the program of font ``num`` is written under."""
    ref, key, subtype = font_program(doc, num)
    return (_font_name(doc, num) or f"font-{ref.num}") + FONT_SUFFIX.get(subtype if key == "FontFile3" else key, ".bin")


def export_font(doc, num: int, target: Path) -> Exported:
    """Write the program of font ``num`` to file ``target`` (see :func:`font_file_name`):
    a Type 1 program segmented as PFB by fontTools, others as stored after decoding."""
    ref, key, subtype = font_program(doc, num)
    guard(doc, target)
    res = doc.stream_data(doc.get(ref.num, ref.gen))
    problems = [f"font file {ref}: {res.error}; the partial data is written"] if res.error else []
    if target.suffix == ".pfb":
        from fontTools.t1Lib import writePFB

        data = res.data
        if b"cleartomark" not in data[-1024:]:  # /Length3 0: the trailer PDF lets writers drop (9.9)
            data = data.rstrip(b"\x00") + b"\n" + (b"0" * 64 + b"\n") * 8 + b"cleartomark\n"
        try:
            writePFB(str(target), data)
        except Exception as e:  # no eexec section: not a Type 1 program fontTools can segment
            target = _with_suffix(doc, target, ".pfa")
            target.write_bytes(res.data)
            problems.append(f"font file {ref}: not segmentable as PFB ({e}); written as stored")
    else:
        target.write_bytes(res.data)
    return Exported(target, f"{safe_line(str(target))}: /{key}{' /' + subtype if subtype else ''} {ref}, "
                            f"{len(res.data)} bytes", "; ".join(problems) or None)


def _font_name(doc, num: int) -> str | None:
    """The /BaseFont or /FontName of object ``num``, safe as a file name."""
    value = doc.resolve(Ref(num, 0))
    d = value.dict if isinstance(value, Stream) else value
    name = doc.resolve(d.get("BaseFont") or d.get("FontName")) if isinstance(d, Dict) else None
    if not isinstance(name, Name):
        return None
    return re.sub(r"[^A-Za-z0-9+._-]", "_", str(name))[:100] or None


FONT, STREAM = "font", "stream"


@dataclass(frozen=True, slots=True)
class Proposal:
    """What exporting object ``num`` writes: ``kind`` FONT (its program) or STREAM (``how``),
    a terminal-safe description and a default file name."""

    num: int
    kind: str
    how: str
    what: str
    name: str


def propose(doc, num: int, raw: bool = False) -> Proposal:
    """What the app's save prompt offers for object ``num``: a font's (or descriptor's) program,
    an image XObject as a picture (as stored with ``raw``), any other stream decoded (as stored
    with ``raw``). Raises :class:`PdfError` for an object there is nothing to write of."""
    from ..render.image import is_image

    stem = Path(str(doc.path or "document.pdf")).stem
    obj = doc.get(num)
    value = obj.value if obj is not None else None
    d = value.dict if isinstance(value, Stream) else value
    if isinstance(d, Dict) and (d.get("Type") in ("Font", "FontDescriptor") or "Length1" in d or "Length2" in d
                                or d.get("Subtype") in ("Type1C", "CIDFontType0C", "OpenType")):
        ref, key, subtype = font_program(doc, num)
        return Proposal(num, FONT, AUTO, f"the font program /{key}{' /' + subtype if subtype else ''} {ref}",
                        font_file_name(doc, num))
    if not isinstance(value, Stream):
        raise PdfError(error("nothing-to-export", f"object {num} is neither a stream nor a font: nothing to write"))
    if is_image(value) and not raw:  # export_stream gives JPEG and JPEG 2000 their own suffix
        return Proposal(num, STREAM, AUTO, "the image as PNG (JPEG / JPEG 2000 as stored)", f"{stem}-{num}.png")
    how = RAW if raw else DECODED
    return Proposal(num, STREAM, how, f"the stream's bytes {'as stored' if raw else 'decoded'}", f"{stem}-{num}.bin")


def export(doc, proposal: Proposal, target: Path) -> Exported:
    """Write what ``proposal`` says to ``target``."""
    if proposal.kind == FONT:
        return export_font(doc, proposal.num, target)
    return export_stream(doc, proposal.num, target, proposal.how)
