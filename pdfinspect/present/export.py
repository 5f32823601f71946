"""Writing what a PDF holds to files: a stream's bytes (decoded or as stored), an image
XObject as PNG (JPEG and JPEG 2000 as stored), a font program with the suffix of its kind.
The CLI's ``extract`` and the app's save prompt both call these.

Every write goes through :mod:`pdfinspect.core.atomic`: the input file, a folder or a
missing folder is refused with :class:`PdfError` before anything is written, and a file
appears only complete. An image is written in the format its target's suffix names
(``.png`` decoded, ``.jpg``/``.jp2`` as stored when the data is JPEG/JPEG 2000), or
refused (``format-unsupported``) saying which suffixes work; with no suffix it gets one.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from ..core.atomic import atomic_path, check_target, write_bytes
from ..core.diagnostics import PdfError, error
from ..core.objects import Array, Dict, Name, Ref, Stream
from .text import safe_line

FONT_SUFFIX = {"FontFile": ".pfb", "FontFile2": ".ttf", "Type1C": ".cff", "CIDFontType0C": ".cff",
               "OpenType": ".otf"}
RAW, DECODED, AUTO = "raw", "decoded", "auto"  # how a stream is written (AUTO: images as pictures)
STORED_SUFFIXES = {"DCTDecode": (".jpg", ".jpeg"), "JPXDecode": (".jp2", ".jpx", ".j2k", ".jpf")}
PNG_MODES = ("1", "L", "LA", "P", "RGB", "RGBA", "I", "I;16")


@dataclass(frozen=True, slots=True)
class Exported:
    """What was written where; ``error`` says why the data is partial (it is written all the same)."""

    path: Path
    summary: str  # one terminal-safe line: "<path>: 1,234 bytes (decoded)"
    error: str | None = None


def guard(doc, target: Path | str) -> Path:
    """``target`` if it may be written (:func:`pdfinspect.core.atomic.check_target`, the
    document's file as the input); else :class:`PdfError`."""
    return check_target(target, inputs=[doc.path])


def export_stream(doc, num: int, target: Path, how: str = AUTO) -> Exported:
    """Write stream object ``num``: ``RAW`` as stored (decrypted), ``DECODED`` after its filters,
    ``AUTO`` decoded, or an image XObject as PNG (JPEG / JPEG 2000 as stored, with its suffix)."""
    from ..render.image import ImageError, is_image, picture, stored_file

    obj = doc.get(num)
    if obj is None or not isinstance(obj.value, Stream):
        raise PdfError(error("not-a-stream", f"object {num} is "
                             + ("not in the file" if obj is None else "not a stream")))
    target = guard(doc, target)
    res = doc.stream_data(obj, decode_filters=how != RAW)
    if is_image(obj.value) and how == AUTO:
        stored = stored_file(res.image_filter)
        if not target.suffix:
            target = guard(doc, target.with_suffix(stored or ".png"))
        suffix = target.suffix.lower()
        if suffix in STORED_SUFFIXES.get(res.image_filter or "", ()):  # JPEG, JPEG 2000: files already
            write_bytes(target, res.data, [doc.path])
            return Exported(target, f"{safe_line(str(target))}: {res.image_filter} image, "
                                    f"{len(res.data)} bytes as stored")
        if suffix != ".png":
            kinds = ".png" + (f" or {' '.join(STORED_SUFFIXES[res.image_filter])} (as stored)" if stored else "")
            kind = f"a {res.image_filter}" if stored else "an"
            raise PdfError(error("format-unsupported", f"object {num} is {kind} image: it is written as {kinds}, "
                                 f"not {target.suffix} (--raw or --decoded write its bytes)"))
        try:
            image = picture(doc, obj.value.dict, res.data, res.image_filter)
        except ImageError as e:
            raise PdfError(error("image-unreadable", f"object {num}: {e}")) from None
        if image.mode not in PNG_MODES:
            image = image.convert("RGB")  # CMYK JPEG: PNG has no CMYK
        with atomic_path(target, [doc.path]) as tmp:
            image.save(tmp, "PNG")
        return Exported(target, f"{safe_line(str(target))}: {image.width}×{image.height} {image.mode} PNG")
    write_bytes(target, res.data, [doc.path])
    problem = f"object {num}: {res.error}; the partial data is written" if res.error else None
    return Exported(target, f"{safe_line(str(target))}: {len(res.data)} bytes "
                            f"({'as stored' if how == RAW else 'decoded'})", problem)


def _stored_image_filter(doc, stream: Stream) -> str | None:
    """``DCTDecode`` or ``JPXDecode`` when the image's filter chain ends with one (its data is a
    JPEG / JPEG 2000 file once the filters before are undone)."""
    filters = doc.resolve(stream.dict.get("Filter"))
    last = filters[-1] if isinstance(filters, Array) and filters else filters
    return str(last) if isinstance(last, Name) and str(last) in STORED_SUFFIXES else None


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
    target = guard(doc, target)
    res = doc.stream_data(doc.get(ref.num, ref.gen))
    problems = [f"font file {ref}: {res.error}; the partial data is written"] if res.error else []
    if target.suffix == ".pfb":
        from fontTools.t1Lib import writePFB

        data = res.data
        if b"cleartomark" not in data[-1024:]:  # /Length3 0: the trailer PDF lets writers drop (9.9)
            data = data.rstrip(b"\x00") + b"\n" + (b"0" * 64 + b"\n") * 8 + b"cleartomark\n"
        try:
            with atomic_path(target, [doc.path]) as tmp:
                writePFB(str(tmp), data)
        except PdfError:
            raise
        except Exception as e:  # no eexec section: not a Type 1 program fontTools can segment
            target = write_bytes(target.with_suffix(".pfa"), res.data, [doc.path])
            problems.append(f"font file {ref}: not segmentable as PFB ({e}); written as stored")
    else:
        write_bytes(target, res.data, [doc.path])
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
    if is_image(value) and not raw:
        stored = _stored_image_filter(doc, value)
        if stored is not None:
            return Proposal(num, STREAM, AUTO, f"the {stored} image as stored (.png to convert it)",
                            f"{stem}-{num}{STORED_SUFFIXES[stored][0]}")
        return Proposal(num, STREAM, AUTO, "the image as PNG", f"{stem}-{num}.png")
    how = RAW if raw else DECODED
    return Proposal(num, STREAM, how, f"the stream's bytes {'as stored' if raw else 'decoded'}", f"{stem}-{num}.bin")


def export(doc, proposal: Proposal, target: Path) -> Exported:
    """Write what ``proposal`` says to ``target``."""
    if proposal.kind == FONT:
        return export_font(doc, proposal.num, target)
    return export_stream(doc, proposal.num, target, proposal.how)
