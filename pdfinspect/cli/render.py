"""CLI commands that write files: ``render`` (a page as PNG with our glyph boxes drawn over
pdfium's rendering) and ``extract`` (a stream's bytes, a font program, an image).

Both write through :mod:`pdfinspect.core.atomic`: never the input file, never into a folder
that does not exist, and a file appears only complete.
"""
from __future__ import annotations

from pathlib import Path

from .common import err, add_common_options, open_document, page_of
from ..content.geometry import union
from ..content.textlayout import page_glyphs
from ..core.atomic import atomic_path
from ..core.diagnostics import PdfError, error
from ..present.export import guard
from ..present.text import safe_line

BOX_KINDS = ("op", "font", "all")
# One colour per font for --boxes font (Tableau 10).
PALETTE = [(31, 119, 180), (255, 127, 14), (44, 160, 44), (214, 39, 40), (148, 103, 189),
           (140, 86, 75), (227, 119, 194), (127, 127, 127), (188, 189, 34), (23, 190, 207)]


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
                                          "flag is written in the format OUT's suffix names: .png, or "
                                          ".jpg/.jp2 for JPEG/JPEG 2000 data as stored (no suffix: the "
                                          "image's own). extract FILE --font N -o DIR writes the program of "
                                          "font N (a font, descriptor or font file object) into folder DIR "
                                          "as .pfb/.ttf/.cff/.otf. No folder is ever created.")
    s.add_argument("file")
    s.add_argument("num", type=int, nargs="?", help="stream object number")
    s.add_argument("--font", type=int, metavar="N", help="font, font descriptor or font file object N")
    how = s.add_mutually_exclusive_group()
    how.add_argument("--raw", action="store_true", help="the stream's bytes as stored (decrypted, not decoded)")
    how.add_argument("--decoded", action="store_true", help="the stream's bytes after its filters")
    s.add_argument("-o", "--output", required=True,
                   help="file to write (with --font, a folder that exists or a file name)")
    add_common_options(s)


# -- render --------------------------------------------------------------------------------------
def box_layers(records, kind: str) -> list[tuple[tuple[int, int, int], list]]:
    """(colour, page quads) to draw for ``--boxes kind`` over the records of a page."""
    from ..render.boxes import OPERATOR, OTHER

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
    from ..render.boxes import draw_quads
    from ..render.page import RenderError, Renderer, View

    doc = open_document(args)
    ref = page_of(doc, args.page)
    if not 0 < args.scale <= 20:
        raise PdfError(error("scale-bad", f"--scale {args.scale} is not between 0 and 20"))
    target = guard(doc, args.output)
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
    with atomic_path(target, [doc.path]) as tmp:
        image.save(tmp, "PNG")
    out.line(f"{safe_line(str(target))}: page {args.page}, {image.width}×{image.height} pixels"
             + (f", {count} {args.boxes} boxes" if args.boxes else ""))
    return 0


# -- extract -------------------------------------------------------------------------------------
def cmd_extract(args, out) -> int:
    from ..present.export import AUTO, DECODED, RAW, export_font, export_stream, font_file_name

    doc = open_document(args)
    if args.font is not None:
        target = Path(args.output)
        name = font_file_name(doc, args.font)  # (says first when there is no program to write)
        if target.is_dir():
            target = target / name
        elif not target.suffix:  # meant as a folder: pdfinspect creates none
            raise PdfError(error("output-dir-missing", f"folder {target} does not exist (pdfinspect creates no "
                                                       "folders); give a folder that exists or a file name"))
        done = export_font(doc, args.font, target)
    elif args.num is None:
        raise PdfError(error("usage", "extract needs an object number N or --font N"))
    else:
        done = export_stream(doc, args.num, Path(args.output), RAW if args.raw else DECODED if args.decoded else AUTO)
    if done.error:
        err(done.error)
    out.line(done.summary)
    return 1 if done.error else 0
