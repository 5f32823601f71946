"""The page preview: pdfium's picture of the page (or of the region around a glyph) with our
glyph boxes drawn over it, rendered in a worker and shown as half-block cells or, with the
optional ``textual-image`` package, as a sharper picture (see :mod:`..graphics`).

:class:`PagePreview` shows what it is asked to (a page with box layers and an optional
focus, or a picture) and renders in a thread worker; a newer request makes an older result
stale. Half-blocks (``▀``, upper pixel as foreground, lower as background) work in every
terminal, in tmux and in Textual's web mode; with ``app.images`` set to ``kitty`` or
``sixel`` (chosen before the app starts, ``--images``) the same picture goes to a
textual-image widget inside the pane instead.

:class:`PreviewHost` is the screen side: ``i`` shows or hides the pane, ``Z`` zooms to
the selected glyph and back to the page, ``O`` numbers the page's lines in a reading order
(:mod:`pdfinspect.present.readingorder`); the screen says what to draw by
``preview_request()``.
"""
from __future__ import annotations

import textwrap
import threading

from rich.segment import Segment
from rich.style import Style
from textual import work
from textual.binding import Binding
from textual.color import Color
from textual.strip import Strip
from textual.widget import Widget

from pdfinspect.content.geometry import bounds, union
from pdfinspect.fonts.resolve import Resolver
from pdfinspect.present.readingorder import CYCLE, NOTES, OFF, ReadingOrders, number_ranges, reading_orders
from pdfinspect.render.boxes import HIDDEN, OPERATOR, OTHER, SELECTED, draw_labels, draw_quads
from pdfinspect.render.halfblock import UPPER_HALF, cell_rows
from pdfinspect.render.page import RenderError, Renderer

from ..graphics import HALFBLOCK, NONE, SHARPER, cell_pixels, picture_widget

NUMBER_STYLE = Style(color="black", bgcolor="yellow", bold=True)  # a line's number over the half-blocks
NUMBER_INK = (160, 90, 0)  # …and drawn into a sharper picture


def renderer_of(app) -> Renderer:
    """The app's one renderer (pdfium document and picture cache), made on first use."""
    renderer = getattr(app, "_preview_renderer", None)
    if renderer is None:
        doc = app.doc
        source = doc.path if doc.path else bytes(doc.buf)
        renderer = app._preview_renderer = Renderer(source, getattr(app, "password", None) or None)
    return renderer


class PagePreview(Widget, can_focus=False):
    """A picture as half-block cells; ``show(...)`` asks for one, rendered in a worker."""

    DEFAULT_CSS = """
    PagePreview { display: none; width: 40%; height: 1fr; min-width: 20; border-left: vkey $primary-muted; }
    PagePreview.-below { width: 1fr; height: 14; border-left: none; border-top: hkey $primary-muted; }
    PagePreview.-numbered { border-top: hkey $primary-muted; border-title-color: $text; }
    """

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.rows: list[list] = []
        self.message = "…"
        self.request: tuple | None = None
        self._generation = 0
        self._lock = threading.Lock()
        self._styles: dict = {}
        self.picture = None  # the picture shown (Pillow), whichever way it is drawn
        self.numbers: dict[int, list[tuple[int, str]]] = {}  # half-block row → [(column, text)] written over it
        self.sharp = None  # the textual-image widget drawing it, with --images kitty or sixel

    def on_mount(self) -> None:
        how = getattr(self.app, "images", HALFBLOCK)
        if how in SHARPER:
            self.sharp = picture_widget(how)(id="preview-picture")
            self.sharp.styles.width, self.sharp.styles.height = "100%", "100%"
            self.mount(self.sharp)

    # -- asking ------------------------------------------------------------------------------
    def show(self, page_index: int, layers: list, focus=None, labels=()) -> None:
        """Page ``page_index`` (0-based) with ``layers`` [(colour, page quads)], around ``focus``
        (a page rectangle) or whole, and ``labels`` [(x, y, text)]: text written just left of
        a page point (a line's number)."""
        self._ask(("page", page_index, tuple((c, tuple(q)) for c, q in layers), focus, tuple(labels)))

    def show_picture(self, image, caption: str = "") -> None:
        """A ready picture (an image XObject), fitted to the pane."""
        self._ask(("picture", image, caption))

    def show_image(self, picture) -> None:
        """Show a picture or the reason there is none (from :func:`image_preview`); hide the
        pane for ``None``."""
        self.display = picture is not None
        if isinstance(picture, str):
            self.show_message(picture)
        elif picture is not None:
            self.show_picture(picture)

    def show_message(self, text: str) -> None:
        self._generation += 1
        self.request, self.rows, self.message, self.picture, self.numbers = None, [], text, None, {}
        if self.sharp is not None:
            self.sharp.image = None
        self.refresh()

    def _ask(self, request: tuple) -> None:
        if request == self.request and self.rows:
            return
        self.request = request
        self._generation += 1
        w, h = self.content_region.width, self.content_region.height
        if w < 2 or h < 2:  # not laid out yet: on_resize asks again
            return
        composed = self._composed(request, self._pixels())
        if composed is not None:  # the page picture is cached: boxes are drawn here, no worker
            image, numbers = composed
            image = self._framed(image, self._pixels())
            self._shown(self._generation, self._cells(image), "", image, numbers)
        else:
            self._render(self._generation, request, self._pixels())

    def on_unmount(self) -> None:
        """Close pdfium's document and page when the app ends (a renderer used again reopens)."""
        renderer = getattr(self.app, "_preview_renderer", None)
        if renderer is not None:
            renderer.close()

    @work(thread=True, group="preview-warm", exit_on_error=False)
    def prefetch(self, page_index: int) -> None:
        """Open the file in pdfium and render the page once, small, before the first ``i``:
        opening a big file and loading a page's fonts take longest."""
        try:
            renderer = renderer_of(self.app)
            renderer.render(page_index, renderer.view(page_index, (16, 16)))
        except Exception:  # the first real request reports it
            pass

    def _composed(self, request: tuple, pixels: tuple[int, int]):
        """The picture with its boxes and labels (:meth:`_labelled`) when the page picture is
        cached already, else ``None``."""
        if request[0] != "page":
            return None
        _, index, layers, focus, labels = request
        renderer = renderer_of(self.app)
        page = renderer.known_page(index)
        if page is None:
            return None
        view = renderer.view(index, pixels, focus, page)
        image = renderer.cached(index, view)
        if image is None:
            return None
        image = image.copy()
        for colour, quads in layers:
            draw_quads(image, view, quads, colour)
        return image, self._labelled(image, view, labels)

    def _labelled(self, image, view, labels) -> dict[int, list[tuple[int, str]]]:
        """Write ``labels`` into ``image`` for a textual-image widget; for half-blocks give
        them as cells (row → [(column, text)]), text the half-blocks cannot draw legibly."""
        if self.sharp is not None:
            draw_labels(image, view, labels, NUMBER_INK, left_of=True)
            return {}
        rows = (image.height + 1) // 2
        anchors: dict[int, list[tuple[int, str]]] = {}  # row → (column the label ends at, text)
        for x, y, text in labels:
            px, py = view.to_pixel(x, y)
            if 0 <= py < 2 * rows and -1 <= px <= image.width:
                anchors.setdefault(int(py) // 2, []).append((max(int(px), 0), text))
        return {row: merged_labels(found) for row, found in anchors.items()}

    def on_resize(self) -> None:
        if self.request is not None:
            self._generation += 1
            self._render(self._generation, self.request, self._pixels())

    @work(thread=True, group="preview", exit_on_error=False)
    def _render(self, generation: int, request: tuple, pixels: tuple[int, int]) -> None:
        with self._lock:  # one rendering at a time; a stale request is dropped unrendered
            if generation != self._generation:
                return
            image, numbers = None, {}
            try:
                image, numbers = self._picture(request, pixels)
                image = self._framed(image, pixels)
                rows, message = self._cells(image), ""
            except RenderError as e:
                rows, message = [], str(e)
            except Exception as e:  # pdfium or Pillow on a damaged page: say so, keep the app
                rows, message = [], f"preview failed: {e}"
        self.app.call_from_thread(self._shown, generation, rows, message, image, numbers)

    def _pixels(self) -> tuple[int, int]:
        """The picture's size: two pixels a cell for half-blocks, the terminal's cell size in
        pixels for a textual-image widget (so it is drawn without scaling)."""
        w, h = self.content_region.width, self.content_region.height
        if self.sharp is None:
            return w, h * 2
        cw, ch = cell_pixels()
        return w * cw, h * ch

    def _cells(self, image) -> list:
        """Half-block cells of ``image`` (none when a textual-image widget draws it)."""
        return [] if self.sharp is not None else cell_rows(image)

    def _framed(self, image, pixels: tuple[int, int]):
        """For a textual-image widget, ``image`` on a white frame of the pane's size in pixels,
        so the widget fills the pane without scaling (and blurring) the boxes."""
        if self.sharp is None or image.size == pixels:
            return image
        from PIL import Image

        frame = Image.new("RGB", pixels, (255, 255, 255))
        frame.paste(image, (0, 0))
        return frame

    def _picture(self, request: tuple, pixels: tuple[int, int]):
        if request[0] == "picture":
            image = request[1].convert("RGB")
            scale = min(pixels[0] / image.width, pixels[1] / image.height)
            size = (max(1, round(image.width * scale)), max(1, round(image.height * scale)))
            return image.resize(size), {}
        _, index, layers, focus, labels = request
        renderer = renderer_of(self.app)
        view = renderer.view(index, pixels, focus)
        image = renderer.render(index, view).copy()
        for colour, quads in layers:
            draw_quads(image, view, quads, colour)
        return image, self._labelled(image, view, labels)

    def _shown(self, generation: int, rows: list, message: str, image=None, numbers=None) -> None:
        if generation == self._generation:
            self.rows, self.message, self.picture = rows, message, image if not message else None
            self.numbers = numbers or {}
            if self.sharp is not None:
                self.sharp.image = self.picture
            self.refresh()

    # -- drawing -----------------------------------------------------------------------------
    def _style(self, fg, bg) -> Style:
        key = (fg, bg)
        style = self._styles.get(key)
        if style is None:
            if len(self._styles) > 50_000:
                self._styles.clear()
            style = self._styles[key] = Style(color=Color(*fg).rich_color, bgcolor=Color(*bg).rich_color)
        return style

    def render_line(self, y: int) -> Strip:
        width = self.size.width
        if not self.rows:  # the message wraps ("image not shown: …" is read whole)
            lines = textwrap.wrap(self.message, max(width, 1)) if self.picture is None else []
            return Strip([Segment((lines[y] if y < len(lines) else "").ljust(width))])
        if y >= len(self.rows):
            return Strip.blank(width)
        cells = self.rows[y][:width]
        written: dict[int, str] = {}  # column → a character of a line's number
        for column, text in self.numbers.get(y, ()):
            for i, ch in enumerate(text[:max(len(cells) - column, 0)]):
                written[column + i] = ch
        segments, run, count = [], None, 0
        for x, cell in enumerate(cells):  # runs of one colour pair make one segment
            if cell != run or x in written:
                if count:
                    segments.append(Segment(UPPER_HALF * count, self._style(*run)))
                run, count = cell, 0
            if x in written:
                segments.append(Segment(written[x], NUMBER_STYLE))
                run = None
                continue
            count += 1
        if count:
            segments.append(Segment(UPPER_HALF * count, self._style(*run)))
        return Strip(segments).extend_cell_length(width)


def merged_labels(anchors: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """Labels of one row of cells, each written to end just before its anchor column, as
    (first column, text): labels that would overlap are written as one, ending before the
    leftmost anchor (line numbers joined as ``2-4,7``), and so are labels that touch."""
    groups: list[tuple[int, list[str]]] = []  # (anchor column, texts)

    def text(texts: list[str]) -> str:
        return number_ranges(sorted(int(t) for t in texts)) if all(t.isdigit() for t in texts) else ",".join(texts)

    for column, label in sorted(anchors, key=lambda a: a[0]):
        if groups and column - len(label) <= groups[-1][0]:  # touching: "1" "7" would read 17
            groups[-1][1].append(label)
        else:
            groups.append((column, [label]))
        while len(groups) > 1 and groups[-1][0] - len(text(groups[-1][1])) <= groups[-2][0]:
            _, texts = groups.pop()
            groups[-1][1].extend(texts)
    return [(max(column - len(text(texts)), 0), text(texts)) for column, texts in groups]


def image_preview(doc, obj, result, kind: str | None = None):
    """For the browser: the picture of an image XObject from its decoded ``result``, or of the
    first inline image of a content stream (``kind`` "content"), the reason it cannot be
    shown (a string), or ``None`` for a stream that has no image."""
    from pdfinspect.content.tokenizer import inline_images
    from pdfinspect.render.image import ImageError, inline_picture, is_image, picture

    if obj is None or result is None:
        return None
    try:
        if is_image(obj.value):
            return picture(doc, obj.value.dict, result.data, result.image_filter)
        if kind == "content":
            first = next(inline_images(result.data), None)
            if first is not None:
                return inline_picture(doc, first.operands[0], first.operands[1], doc.decode_limit)
    except ImageError as e:
        return f"image not shown: {e}"
    return None


def step_request(page_index: int, steps, i: int, glyphs, selected: int):
    """A preview request for step ``i`` of ``steps``: an image it draws (``BI``, or a ``Do``
    that does not enter a form) boxed where it lands, the unit square through the CTM
    (8.9.4); else its ``glyphs`` boxed and the ``selected``-th highlighted."""
    step = steps[i] if 0 <= i < len(steps) else None
    form = step is not None and i + 1 < len(steps) and steps[i + 1].depth > step.depth
    if step is not None and (step.op == "BI" or step.op == "Do" and not form):
        a, b, c, d, e, f = step.gstate.ctm
        quad = (e, f, a + e, b + f, a + c + e, b + d + f, c + e, d + f)
        return page_index, [(OPERATOR, [quad])], bounds(quad)
    chosen = [glyphs[selected]] if 0 <= selected < len(glyphs) else []
    return glyph_layers(page_index, glyphs, chosen)


def glyph_layers(page_index: int, boxed, highlighted, others=(), hidden=()):
    """A preview request: ``others`` (records) in green, ``boxed`` in blue, ``hidden`` (glyphs
    a reader cannot see) in magenta over them, ``highlighted`` in red, and the rectangle to
    zoom to (around the highlighted glyphs, else the boxed ones)."""
    def quads(records):
        return [r.bbox.page for r in records if r is not None and r.bbox is not None]

    layers = [(OTHER, quads(others)), (OPERATOR, quads(boxed)), (HIDDEN, quads(hidden)),
              (SELECTED, quads(highlighted))]
    focus = union(r.bbox.rect for r in (highlighted or boxed) if r is not None and r.bbox is not None)
    return page_index, [layer for layer in layers if layer[1]], focus


class PreviewHost:
    """Screen mixin: ``i`` toggles the preview pane ``#preview``, ``Z`` zooms to the selected
    glyph and back, ``O`` cycles the reading order the page's lines are numbered in (none,
    content, structure, columns: :mod:`pdfinspect.present.readingorder`, read in a worker
    once a page). The screen defines ``preview_request() -> (page index, layers, focus
    rectangle)`` and ``page`` (1-based), and calls ``update_preview()`` when what it shows
    changes."""

    PREVIEW_BINDINGS = [
        Binding("i", "preview", "Preview", id="toggle-preview",
                tooltip="Show or hide the page preview (our glyph boxes over pdfium's rendering)"),
        Binding("Z", "zoom", "Zoom", show=False, id="zoom-preview",
                tooltip="Preview: zoom to the selected glyph, or back to the whole page"),
        Binding("O", "line_order", "Line order", show=False, id="preview-line-order",
                tooltip="Preview: number the page's lines in a reading order (cycles none, content, "
                        "structure, columns)"),
    ]
    zoomed = False
    _prefetched: int | None = None  # the page warmed in pdfium while the pane was hidden
    line_order = OFF  # the reading order the preview numbers the lines in (OFF: none)
    reading: ReadingOrders | None = None  # the page's lines in every order, once read
    _reading_asked: int | None = None  # the page a worker reads the orders of, for update_preview

    @property
    def preview(self) -> PagePreview:
        return self.query_one("#preview", PagePreview)

    def action_preview(self) -> None:
        pane = self.preview
        if getattr(self.app, "images", HALFBLOCK) == NONE:
            self.notify("the preview is off (--images=none)", severity="warning")
            return
        pane.display = not pane.display
        self.set_class(pane.display, "-previewing")  # the panes share the width meanwhile (app.tcss)
        if pane.display:
            self.update_preview()

    def action_zoom(self) -> None:
        self.zoomed = not self.zoomed
        if not self.preview.display:
            self.action_preview()
        else:
            self.update_preview()

    def action_line_order(self) -> None:
        """The next reading order (``OFF`` after columns); the page's orders are read first."""
        page = getattr(self, "page", None)
        if page is None:
            return
        if self.reading is None or self.reading.page != page:
            self.read_orders(page, True)  # (a failure is reported by the app; O asks again)
            return
        self._step_order()

    def _step_order(self, again: bool = False) -> None:
        """On to the next order (``again``: stay on the current one if the page has it)."""
        reading = self.reading
        if again and self.line_order in reading.numberings:
            self.update_preview()
            return
        order = reading.next_order(self.line_order)
        k = CYCLE.index(self.line_order)
        while CYCLE[k := (k + 1) % len(CYCLE)] != order:  # the orders passed over: say why
            self.notify(NOTES[reading.missing[CYCLE[k]]], severity="warning", markup=False)
        self.line_order = order
        if not self.preview.display and order != OFF:
            self.action_preview()
        else:
            self.update_preview()

    @work(thread=True, exclusive=True, group="reading-orders", exit_on_error=False)
    def read_orders(self, page: int, step: bool) -> None:
        """Read the page's lines in every order; then ``step`` to the next order, or keep it."""
        doc = self.app.worker_doc()
        orders = reading_orders(doc, page, doc.page_ref(page), Resolver.of(doc))
        self.app.call_from_thread(self.orders_read, orders, step)

    def orders_read(self, orders: ReadingOrders, step: bool) -> None:
        self._reading_asked = None
        if orders.page == getattr(self, "page", None):
            self.reading = orders
            self._step_order(again=not step)

    def line_labels(self) -> list[tuple[float, float, str]]:
        """The line numbers to draw: (x, y, number) of each line in the chosen order."""
        reading = self.reading
        if self.line_order == OFF or reading is None or reading.page != getattr(self, "page", None):
            return []
        return [(*line.start, str(line.number)) for line in reading.numberings[self.line_order].lines]

    def preview_title(self) -> str:
        """The pane's title: the order its numbers follow, and what to know about it."""
        reading = self.reading
        if self.line_order == OFF or reading is None or reading.page != getattr(self, "page", None):
            return ""
        numbering = reading.numberings[self.line_order]
        count = len(numbering.lines)
        title = f"{self.line_order} order: {count} line{'s' if count != 1 else ''} (O)"
        return f"{title}: {NOTES[numbering.note]}" if numbering.note else title

    def update_preview(self) -> None:
        pane = self.preview
        if not pane.display:
            page = getattr(self, "page", None)
            if page is not None and page != self._prefetched and getattr(self.app, "images", HALFBLOCK) != NONE:
                self._prefetched = page
                pane.prefetch(page - 1)
            return
        page = getattr(self, "page", None)
        if self.line_order != OFF and page is not None and (self.reading is None or self.reading.page != page) \
                and self._reading_asked != page:  # another page: its lines, numbered in the same order
            self._reading_asked = page
            self.read_orders(page, False)
        title = self.preview_title()
        pane.border_title = title or None
        pane.set_class(bool(title), "-numbered")
        request = self.preview_request()
        if request is None:
            pane.show_message("nothing to preview yet")
            return
        index, layers, focus = request
        pane.show(index, layers, focus if self.zoomed else None, self.line_labels())

    def preview_request(self):  # pragma: no cover - every host defines it
        raise NotImplementedError
