"""CLI commands that write files: ``render`` (a page as PNG with our glyph boxes drawn over
pdfium's rendering) and ``extract`` (a stream's bytes, a font program, an image).

Neither ever writes the input file: an output path that is the input is refused.
"""
from __future__ import annotations

import re
from pathlib import Path

from .cli import _err, add_common_options, open_document, page_of
from .content.geometry import union
from .content.textlayout import page_glyphs
from .core.diagnostics import PdfError, error
from .core.objects import Dict, Name, Ref, Stream
from .present.fix import same_file
from .present.text import safe_line

BOX_KINDS = ("op", "font", "all")
# One colour per font for --boxes font (Tableau 10).
PALETTE = [(31, 119, 180), (255, 127, 14), (44, 160, 44), (214, 39, 40), (148, 103, 189),
           (140, 86, 75), (227, 119, 194), (127, 127, 127), (188, 189, 34), (23, 190, 207)]
FONT_SUFFIX = {"FontFile": ".pfb", "FontFile2": ".ttf", "Type1C": ".cff", "CIDFontType0C": ".cff",
               "OpenType": ".otf"}


def register(subparsers) -> None:
    s = subparsers.add_parser("render", help="write page N as a PNG (pdfium), with glyph boxes drawn",
                              description="Render page N with pdfium and draw the glyph boxes our "
                                          "interpreter computes: --boxes all (every glyph), op (one box per "
                                          "text-showing operator), font (every glyph, one colour per font).")
    s.add_argument("file")
    s.add_argument("-p", "--page", type=int, default=1, help="page number, 1-based (default 1)")
    s.add_argument("-o", "--output", required=True, help="PNG file to write")
    s.add_argument("--boxes", choices=BOX_KINDS, help="draw glyph boxes (default: none)")
    s.add_argument("--scale", type=float, default=2.0, help="pixels per point (default 2: 144 dpi)")
    add_common_options(s)

    s = subparsers.add_parser("extract", help="write a stream's bytes, a font program or an image to a file",
                              description="extract FILE N -o OUT writes stream N decoded (--decoded, the "
                                          "default) or as stored (--raw); an image XObject without either "
                                          "flag is written as PNG, or as stored when it is JPEG/JPEG 2000. "
                                          "extract FILE --font N -o DIR writes the program of font N (a font, "
                                          "descriptor or font file object) as .pfb/.ttf/.cff/.otf.")
    s.add_argument("file")
    s.add_argument("num", type=int, nargs="?", help="stream object number")
    s.add_argument("--font", type=int, metavar="N", help="font, font descriptor or font file object N")
    how = s.add_mutually_exclusive_group()
    how.add_argument("--raw", action="store_true", help="the stream's bytes as stored (decrypted, not decoded)")
    how.add_argument("--decoded", action="store_true", help="the stream's bytes after its filters")
    s.add_argument("-o", "--output", required=True, help="file to write (a directory with --font)")
    add_common_options(s)


def _guard(args, target: Path) -> None:
    """Refuse to write over the input file."""
    if same_file(args.file, str(target)):
        raise PdfError(error("output-is-input", f"{target} is the input file; it is never written"))


# -- render --------------------------------------------------------------------------------------
def box_layers(records, kind: str) -> list[tuple[tuple[int, int, int], list]]:
    """(colour, page quads) to draw for ``--boxes kind`` over the records of a page."""
    from .render.boxes import OPERATOR, OTHER

    records = [r for r in records if r.bbox is not None]
    if kind == "all":
        return [(OTHER, [r.bbox.page for r in records])]
    if kind == "font":
        colours: dict = {}
        layers: dict = {}
        for r in records:
            c = colours.setdefault(r.step.font, PALETTE[len(colours) % len(PALETTE)])
            layers.setdefault(c, []).append(r.bbox.page)
        return list(layers.items())
    by_step: dict = {}
    for r in records:
        by_step.setdefault(id(r.step), []).append(r.bbox.rect)
    quads = []
    for rects in by_step.values():
        x0, y0, x1, y1 = union(rects)
        quads.append((x0, y0, x1, y0, x1, y1, x0, y1))
    return [(OPERATOR, quads)]


def cmd_render(args, out) -> int:
    from .render.boxes import draw_quads
    from .render.page import RenderError, Renderer, View

    doc = open_document(args)
    ref = page_of(doc, args.page)
    if not 0 < args.scale <= 20:
        raise PdfError(error("scale-bad", f"--scale {args.scale} is not between 0 and 20"))
    target = Path(args.output)
    _guard(args, target)
    renderer = Renderer(args.file, args.password or None)
    try:
        page = renderer.page(args.page - 1)
        view = View(page, (0.0, 0.0) + page.size, args.scale)
        image = renderer.render(args.page - 1, view).copy()
    except RenderError as e:
        raise PdfError(error("render-failed", str(e))) from None
    finally:
        renderer.close()
    count = 0
    if args.boxes:
        for colour, quads in box_layers(page_glyphs(doc, ref), args.boxes):
            draw_quads(image, view, quads, colour)
            count += len(quads)
    image.save(target, "PNG")
    out.line(f"{safe_line(str(target))}: page {args.page}, {image.width}×{image.height} pixels"
             + (f", {count} {args.boxes} boxes" if args.boxes else ""))
    return 0


# -- extract -------------------------------------------------------------------------------------
def cmd_extract(args, out) -> int:
    doc = open_document(args)
    if args.font is not None:
        return _extract_font(doc, args, out)
    if args.num is None:
        raise PdfError(error("usage", "extract needs an object number N or --font N"))
    obj = doc.get(args.num)
    if obj is None or not isinstance(obj.value, Stream):
        raise PdfError(error("not-a-stream", f"object {args.num} is "
                             + ("not in the file" if obj is None else "not a stream")))
    target = Path(args.output)
    _guard(args, target)
    res = doc.stream_data(obj, decode_filters=not args.raw)
    from .render.image import ImageError, is_image, picture, stored_file

    if is_image(obj.value) and not (args.raw or args.decoded):
        suffix = stored_file(res.image_filter)
        if suffix is not None:  # JPEG and JPEG 2000 are files already: passed through
            target = target.with_suffix(suffix) if target.suffix.lower() != suffix else target
            _guard(args, target)
            target.write_bytes(res.data)
            out.line(f"{safe_line(str(target))}: {res.image_filter} image, {len(res.data)} bytes as stored")
            return 0
        try:
            image = picture(doc, obj.value.dict, res.data, res.image_filter)
        except ImageError as e:
            raise PdfError(error("image-unreadable", f"object {args.num}: {e}")) from None
        target = target.with_suffix(".png") if target.suffix.lower() != ".png" else target
        _guard(args, target)
        image.save(target, "PNG")
        out.line(f"{safe_line(str(target))}: {image.width}×{image.height} {image.mode} PNG")
        return 0
    if res.error:
        _err(f"object {args.num}: {res.error}; the partial data is written")
    target.write_bytes(res.data)
    out.line(f"{safe_line(str(target))}: {len(res.data)} bytes ({'as stored' if args.raw else 'decoded'})")
    return 1 if res.error else 0


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


def _extract_font(doc, args, out) -> int:
    ref, key, subtype = font_program(doc, args.font)
    obj = doc.get(ref.num, ref.gen)
    res = doc.stream_data(obj)
    if res.error:
        _err(f"font file {ref}: {res.error}; the partial data is written")
    folder = Path(args.output)
    folder.mkdir(parents=True, exist_ok=True)
    suffix = FONT_SUFFIX.get(subtype if key == "FontFile3" else key, ".bin")
    name = _font_name(doc, args.font) or f"font-{ref.num}"
    target = folder / (name + suffix)
    _guard(args, target)
    if suffix == ".pfb":
        from fontTools.t1Lib import writePFB

        data = res.data
        if b"cleartomark" not in data[-1024:]:  # /Length3 0: the trailer PDF lets writers drop (9.9)
            data = data.rstrip(b"\x00") + b"\n" + (b"0" * 64 + b"\n") * 8 + b"cleartomark\n"
        try:
            writePFB(str(target), data)
        except Exception as e:  # no eexec section: not a Type 1 program fontTools can segment
            target = target.with_suffix(".pfa")
            _guard(args, target)
            target.write_bytes(res.data)
            _err(f"font file {ref}: not segmentable as PFB ({e}); written as stored")
    else:
        target.write_bytes(res.data)
    out.line(f"{safe_line(str(target))}: /{key}{' /' + subtype if subtype else ''} {ref}, "
             f"{len(res.data)} bytes")
    return 1 if res.error else 0


def _font_name(doc, num: int) -> str | None:
    """The /BaseFont or /FontName of object ``num``, safe as a file name."""
    value = doc.resolve(Ref(num, 0))
    d = value.dict if isinstance(value, Stream) else value
    name = doc.resolve(d.get("BaseFont") or d.get("FontName")) if isinstance(d, Dict) else None
    if not isinstance(name, Name):
        return None
    return re.sub(r"[^A-Za-z0-9+._-]", "_", str(name))[:100] or None

