"""Hostile input (issue 21): numbers out of range, values that overflow, characters that hide
or reorder what a terminal shows. Each file is built here, byte by byte."""
from __future__ import annotations

import json
import math

from PIL import Image

from pdfinspect.content.textlayout import page_glyphs
from pdfinspect.core.document import Document
from pdfinspect.core.numbers import finite, json_encoder
from pdfinspect.present.text import safe, safe_line
from pdfinspect.render.boxes import draw_quads


def page_pdf(content: bytes, font_extra: bytes = b"") -> bytes:
    """One page showing ``content`` with Helvetica as /F1."""
    objects = [b"<</Type/Catalog/Pages 2 0 R>>", b"<</Type/Pages/Kids[3 0 R]/Count 1>>",
               b"<</Type/Page/Parent 2 0 R/MediaBox[0 0 612 792]/Resources<</Font<</F1 5 0 R>>>>"
               b"/Contents 4 0 R>>",
               b"<</Length %d>>\nstream\n%s\nendstream" % (len(content), content),
               b"<</Type/Font/Subtype/Type1/BaseFont/Helvetica%s>>" % font_extra]
    out = bytearray(b"%PDF-1.7\n")
    offsets = []
    for i, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (i, body)
    xref = len(out)
    out += b"xref\n0 6\n0000000000 65535 f \n" + b"".join(b"%010d 00000 n \n" % o for o in offsets)
    out += b"trailer\n<</Size 6/Root 1 0 R>>\nstartxref\n%d\n%%%%EOF\n" % xref
    return bytes(out)


BIG = b"1" + b"0" * 37 + b".0"  # in range; ten of them multiplied are not


def test_an_overflowing_matrix_gives_no_box_and_draws_nothing():
    doc = Document(page_pdf((BIG + b" 0 0 " + BIG + b" 0 0 cm ") * 10 + b"BT /F1 12 Tf (Hi) Tj ET"))
    records = list(page_glyphs(doc, doc.page_ref(1)))
    assert [r.unicode for r in records] == ["H", "i"] and all(r.bbox is None for r in records)
    image = Image.new("RGB", (10, 10), "white")

    class View:
        def to_pixel(self, x, y):
            return x, y
    draw_quads(image, View(), [(math.nan,) * 8, (1e300, 0, 2e300, 0, 2e300, 5, 1e300, 5)], (255, 0, 0))
    assert image.getcolors() == [(100, (255, 255, 255))]


def test_json_never_carries_nan_or_infinity():
    encode = json_encoder(ensure_ascii=True)
    text = encode({"a": [1.5, math.inf, {"b": -math.inf, "c": math.nan}], "d": (math.nan,)})
    assert json.loads(text) == {"a": [1.5, None, {"b": None, "c": None}], "d": [None]}
    assert encode({"x": 2.5}) == '{"x": 2.5}'
    assert finite(1.0, 2) and not finite(1.0, math.nan) and not finite(10 ** 400)


def test_format_characters_are_escaped_on_a_terminal():
    hidden = ("a\u200bb\u200cc\u200dd\u200ee\u200ff\U000e0041g\u061ch\ufeffi\u202ej\u2066k\u2069l"
              "\u2060m\xadn\U000e007fo")
    shown = safe(hidden)
    assert shown == ("a\\u200bb\\u200cc\\u200dd\\u200ee\\u200ff\\U000e0041g\\u061ch\\ufeffi\\u202ej\\u2066k"
                     "\\u2069l\\u2060m\\xadn\\U000e007fo")
    assert safe("Grüße 漢字 ﬁ\tx\n") == "Grüße 漢字 ﬁ\tx\n"
    assert safe_line("a\tb\nc\x1b") == "a\\tb\\nc\\x1b"


def test_an_actualtext_span_left_open_ends_at_its_text_objects_et():
    content = (b"BT /F1 12 Tf 72 720 Td /Span <</ActualText (fi)>> BDC (f) Tj (i) Tj ET "
               b"BT /F1 12 Tf 72 700 Td (Hello) Tj ET")  # the EMC is missing
    doc = Document(page_pdf(content))
    records = list(page_glyphs(doc, doc.page_ref(1)))
    assert [r.unicode for r in records] == ["fi", "", "H", "e", "l", "l", "o"]
    balanced = content.replace(b"Tj ET BT", b"Tj ET EMC BT")
    doc = Document(page_pdf(balanced))
    assert [r.unicode for r in page_glyphs(doc, doc.page_ref(1))] == ["fi", "", "H", "e", "l", "l", "o"]
