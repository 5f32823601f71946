"""Render a page, or the part of it around a box, with pdfium (through pypdfium2).

A :class:`View` maps page coordinates (default user space, y up) to the pixels of one
rendering: the page's displayed box (CropBox within MediaBox), its ``/Rotate``, the region
shown (in display points, y down) and the scale. :class:`Renderer` keeps one pdfium
document per file, renders under a lock (pdfium is not thread-safe) and keeps the last
pictures in a small cache, so stepping with the preview open renders nothing new.

pdfium runs in a child process of its own (one per Renderer, started on first use and kept
for the next pictures) under an address-space limit (:data:`RENDER_MEMORY`) and a time limit
per call (:data:`RENDER_TIMEOUT`): a page that makes it abort (forms that fan out, 10^6
annotations: SIGABRT at 24 GB), allocate without end or never finish costs that child, which
is killed and replaced, and the caller gets a one-line :class:`RenderError`.
"""
from __future__ import annotations

import math
import os
import subprocess
import sys
import threading
from collections import OrderedDict
from dataclasses import dataclass

MAX_PIXELS = 40_000_000  # a rendering larger than this is refused: pdfium would allocate it whole
FULL_PAGE_PIXELS = 12_000_000  # a zoomed view is cut from the whole page rendered up to this size
CACHE_PIXELS = 40_000_000  # pictures kept, oldest dropped first (3 bytes a pixel)
RENDER_TIMEOUT = 30.0  # seconds pdfium may take for one call before its process is killed
RENDER_MEMORY = 3 * 1024 ** 3  # address space of pdfium's process (bytes)
Rect = tuple[float, float, float, float]  # left, bottom, right, top in page space


class RenderError(Exception):
    """A page pdfium cannot open or render (the message says why)."""


@dataclass(frozen=True, slots=True)
class Page:
    """A page's displayed box (page space) and rotation, as pdfium renders it."""

    box: Rect
    rotation: int  # 0, 90, 180, 270: clockwise

    @property
    def size(self) -> tuple[float, float]:
        """Width and height as displayed (after rotation), in points."""
        w, h = self.box[2] - self.box[0], self.box[3] - self.box[1]
        return (h, w) if self.rotation in (90, 270) else (w, h)

    def to_display(self, x: float, y: float) -> tuple[float, float]:
        """A page point in display points: origin top-left, y down."""
        x0, y0, x1, y1 = self.box
        r = self.rotation
        if r == 90:
            return y - y0, x - x0
        if r == 180:
            return x1 - x, y - y0
        if r == 270:
            return y1 - y, x1 - x
        return x - x0, y1 - y

    def display_rect(self, rect: Rect) -> tuple[float, float, float, float]:
        """A page rectangle in display points: (left, top, right, bottom)."""
        (ax, ay), (bx, by) = self.to_display(rect[0], rect[1]), self.to_display(rect[2], rect[3])
        return min(ax, bx), min(ay, by), max(ax, bx), max(ay, by)


@dataclass(frozen=True, slots=True)
class View:
    """The region of a page a picture shows, and at what scale (pixels per point)."""

    page: Page
    region: tuple[float, float, float, float]  # display points: left, top, right, bottom
    scale: float

    @property
    def pixels(self) -> tuple[int, int]:
        l, t, r, b = self.region
        return max(1, round((r - l) * self.scale)), max(1, round((b - t) * self.scale))

    def to_pixel(self, x: float, y: float) -> tuple[float, float]:
        dx, dy = self.page.to_display(x, y)
        return (dx - self.region[0]) * self.scale, (dy - self.region[1]) * self.scale

    def contains(self, rect: Rect) -> bool:
        l, t, r, b = self.page.display_rect(rect)
        L, T, R, B = self.region
        return l >= L and r <= R and t >= T and b <= B


def fit_scale(region_size: tuple[float, float], pixels: tuple[int, int]) -> float:
    """The largest scale at which a region fits ``pixels`` (width, height)."""
    w, h = region_size
    return max(1e-3, min(pixels[0] / max(w, 1e-3), pixels[1] / max(h, 1e-3)))


def around(page: Page, rect: Rect, pixels: tuple[int, int], ems: float = 6.0) -> tuple[float, float, float, float]:
    """A display region centred on ``rect``, ``ems`` times its height tall (at least 24 pt),
    shaped like ``pixels`` and kept on the page where it can be."""
    l, t, r, b = page.display_rect(rect)
    height = max(24.0, (b - t) * ems, (r - l) * ems * pixels[1] / max(pixels[0], 1) / 2)
    width = height * pixels[0] / max(pixels[1], 1)
    cx, cy = (l + r) / 2, (t + b) / 2
    pw, ph = page.size
    left = min(max(0.0, cx - width / 2), max(0.0, pw - width))
    top = min(max(0.0, cy - height / 2), max(0.0, ph - height))
    return left, top, left + width, top + height


class Renderer:
    """pdfium pictures of one file's pages, cached. ``source`` is a path or the file's bytes."""

    def __init__(self, source, password: str | bytes | None = None):
        self.source = source
        self.password = password.decode("latin-1") if isinstance(password, bytes) else password
        self._lock = threading.Lock()
        self._cache: OrderedDict = OrderedDict()
        self._pages: dict[int, Page] = {}
        self._child = None  # (process, send, receive) running pdfium

    def _call(self, *request):
        """Run ``request`` in pdfium's process (started when needed); its answer, or
        :class:`RenderError` when pdfium fails, dies or runs out of time (the process is then
        killed and the next call starts another)."""
        if self._child is None:
            self._child = _start(self.source, self.password)
        proc, send, recv = self._child
        try:
            send.send(request)
            if not recv.poll(RENDER_TIMEOUT):
                self._stop()
                raise RenderError(f"pdfium did not finish page {request[1] + 1} in {RENDER_TIMEOUT:g} s; stopped")
            status, value = recv.recv()
        except (EOFError, OSError):
            try:
                code = proc.wait(2)
            except subprocess.TimeoutExpired:
                code = None
            self._stop()
            how = f"signal {-code}" if code is not None and code < 0 else f"exit status {code}"
            raise RenderError(f"pdfium crashed on page {request[1] + 1} ({how}); the app goes on") from None
        if status != "ok":
            raise RenderError(value)
        return value

    def _stop(self) -> None:
        if self._child is not None:
            proc, send, recv = self._child
            self._child = None
            send.close()
            recv.close()
            if proc.poll() is None:
                proc.kill()
            proc.wait()

    def page(self, index: int) -> Page:
        """Page ``index`` (0-based) as pdfium displays it."""
        with self._lock:
            return self._page(index)

    def _page(self, index: int) -> Page:
        if index not in self._pages:
            box, rotation = self._call("page", index)
            self._pages[index] = Page(box, rotation)
        return self._pages[index]

    def view(self, index: int, pixels: tuple[int, int], focus: Rect | None = None,
             page: Page | None = None) -> View:
        """The view of page ``index`` that fits ``pixels``: the whole page, or around ``focus``."""
        page = page or self.page(index)
        if focus is None:
            region = (0.0, 0.0) + page.size
            return View(page, region, fit_scale((region[2] - region[0], region[3] - region[1]), pixels))
        region = around(page, focus, pixels)
        scale = fit_scale((region[2] - region[0], region[3] - region[1]), pixels)
        scale = 2 ** (math.floor(math.log2(scale) * 2) / 2)  # steps of √2: glyphs of one size share it
        cx, cy = (region[0] + region[2]) / 2, (region[1] + region[3]) / 2
        w, h = pixels[0] / scale, pixels[1] / scale
        pw, ph = page.size
        l, t = min(max(0.0, cx - w / 2), max(0.0, pw - w)), min(max(0.0, cy - h / 2), max(0.0, ph - h))
        return View(page, (l, t, l + w, t + h), scale)

    @staticmethod
    def _key(index: int, view: View) -> tuple:
        l, t, r, b = view.region
        return index, round(l, 2), round(t, 2), round(r, 2), round(b, 2), round(view.scale, 4)

    def cached(self, index: int, view: View):
        """The picture of ``view`` if it is in the cache and no rendering holds the lock, else
        ``None``: what a UI thread may ask without waiting for pdfium."""
        if not self._lock.acquire(blocking=False):
            return None
        try:
            image = self._cache.get(self._key(index, view))
            if image is None and self._by_crop(view):
                full = self._cache.get(self._key(index, self._full_view(view)))
                image = self._crop(full, view) if full is not None else None
            return image
        finally:
            self._lock.release()

    @staticmethod
    def _full_view(view: View) -> View:
        return View(view.page, (0.0, 0.0) + view.page.size, view.scale)

    def _by_crop(self, view: View) -> bool:
        """Whether a region is cut from the whole page rendered at its scale (small enough to
        keep): zooming then steps from glyph to glyph without calling pdfium again."""
        w, h = self._full_view(view).pixels
        return view.region != (0.0, 0.0) + view.page.size and w * h <= FULL_PAGE_PIXELS

    @staticmethod
    def _crop(full, view: View):
        from PIL import Image

        l, t, _r, _b = view.region
        x, y = round(l * view.scale), round(t * view.scale)
        w, h = view.pixels
        if x >= 0 and y >= 0 and x + w <= full.width and y + h <= full.height:
            return full.crop((x, y, x + w, y + h))
        canvas = Image.new("RGB", (w, h), (255, 255, 255))  # beyond the page: paper, not black
        canvas.paste(full, (-x, -y))
        return canvas

    def known_page(self, index: int) -> Page | None:
        """Page ``index`` if it was read already (no pdfium call), else ``None``."""
        return self._pages.get(index)

    def render(self, index: int, view: View):
        """A Pillow RGB image of ``view`` (cached)."""
        if self._by_crop(view):
            return self._crop(self.render(index, self._full_view(view)), view)
        key = self._key(index, view)
        l, t, r, b = view.region
        with self._lock:
            image = self._cache.get(key)
            if image is not None:
                self._cache.move_to_end(key)
                return image
            w, h = view.pixels
            if w * h > MAX_PIXELS:
                raise RenderError(f"{w}×{h} pixels is more than the {MAX_PIXELS:,} a rendering may have; "
                                  "use a smaller scale")
            pw, ph = view.page.size
            crop = tuple(max(0.0, c) for c in (l, ph - b, pw - r, t))  # pdfium crops from each edge
            from PIL import Image

            size, pixels = self._call("render", index, view.scale, crop)
            image = Image.frombytes("RGB", size, pixels)
            self._cache[key] = image
            while len(self._cache) > 1 and sum(i.width * i.height for i in self._cache.values()) > CACHE_PIXELS:
                self._cache.popitem(last=False)
            return image

    def close(self) -> None:
        with self._lock:
            self._stop()
            self._cache.clear()


def _start(source, password: str | None):
    """pdfium's process, as a fresh interpreter (not a fork of a threaded app, and not
    multiprocessing's spawn, which would run the caller's main module again), with a pipe
    each way; the first message gives it the file and its limits."""
    from multiprocessing.connection import Connection  # here: the app imports this module at start

    down_r, down_w = os.pipe()
    up_r, up_w = os.pipe()
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")])))
    try:
        proc = subprocess.Popen([sys.executable, "-c", "from pdfinspect.render.page import _serve; _serve()",
                                 str(down_r), str(up_w)], pass_fds=(down_r, up_w), env=env,
                                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    finally:
        os.close(down_r)
        os.close(up_w)
    send, recv = Connection(down_w, readable=False), Connection(up_r, writable=False)
    send.send((source, password, RENDER_MEMORY))
    return proc, send, recv


def _serve() -> None:
    """pdfium's process: answer ``("page", index)`` with the page's box and rotation and
    ``("render", index, scale, crop)`` with ``(size, RGB bytes)``, until the pipe closes.
    The page rendered last stays loaded (zooming or stepping renders one page again)."""
    import resource
    from multiprocessing.connection import Connection

    recv, conn = Connection(int(sys.argv[1]), writable=False), Connection(int(sys.argv[2]), readable=False)
    try:
        source, password, memory = recv.recv()
    except (EOFError, OSError):
        return
    if memory:
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    import pypdfium2 as pdfium

    pdf = None
    loaded: tuple[int, object] | None = None

    def load(index: int):
        nonlocal pdf, loaded
        if pdf is None:
            try:
                pdf = pdfium.PdfDocument(source, password=password or None)
            except pdfium.PdfiumError as e:
                raise RenderError(f"pdfium cannot open the file: {e}") from None
        if loaded is not None and loaded[0] == index:
            return loaded[1]
        if not 0 <= index < len(pdf):
            raise RenderError(f"pdfium sees {len(pdf)} pages, not page {index + 1}")
        if loaded is not None:
            loaded[1].close()
            loaded = None
        try:
            page = pdf[index]
        except Exception as e:  # pdfium's own errors (a page it cannot load): say so
            raise RenderError(f"pdfium cannot load page {index + 1}: {e}") from None
        loaded = (index, page)
        return page

    while True:
        try:
            request = recv.recv()
        except (EOFError, OSError):
            return
        try:
            page = load(request[1])
            if request[0] == "page":
                value: object = (tuple(page.get_bbox()), page.get_rotation() % 360)
            else:
                _, index, scale, crop = request
                try:
                    image = page.render(scale=scale, crop=crop, may_draw_forms=True).to_pil().convert("RGB")
                except MemoryError:
                    raise RenderError(f"pdfium ran out of memory on page {index + 1} (limit "
                                      f"{(memory or 0) >> 20} MB)") from None
                except Exception as e:  # pdfium's own errors: say so, the app goes on
                    raise RenderError(f"pdfium could not render page {index + 1}: {e}") from None
                value = (image.size, image.tobytes())
            conn.send(("ok", value))
        except RenderError as e:
            conn.send(("error", str(e)))
        except MemoryError:
            conn.send(("error", f"pdfium ran out of memory on page {request[1] + 1}"))
