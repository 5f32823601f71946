"""Fuzzing the parsing layers with Hypothesis (issue 21): ``Document`` on bytes, the content
tokenizer and the CMap parser never raise, stay within their bounds and yield only finite
numbers, on mutated files and on soups of the tokens hostile files are made of. Deterministic
(``derandomize``) and bounded by example counts, never by time, so it runs in CI. A
coverage-guided target for the same three entry points is ``bench/fuzz_atheris.py``."""
from __future__ import annotations

import math

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pdfinspect.content.tokenizer import iter_operations
from pdfinspect.core.diagnostics import PdfError
from pdfinspect.core.document import Document
from pdfinspect.core.objects import Array, Dict
from pdfinspect.fonts.cmap import parse_cmap

FUZZ = settings(max_examples=120, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

# Pieces of PDF syntax, hostile ones included: huge numbers, delimiter runs, keywords that
# end objects, stream framing.
TOKENS = [b"<<", b">>", b"[", b"]", b"(", b")", b"<", b">", b"{", b"}", b"/", b"%", b"\n", b"\r", b" ",
          b"1", b"0", b"-", b".", b"9" * 400, b"9" * 5000, b"9" * 400 + b".5", b"R", b"obj", b"endobj",
          b"stream\r\n", b"endstream", b"xref", b"trailer", b"startxref", b"%%EOF", b"/Type", b"/Page",
          b"/Pages", b"/Kids", b"/Count", b"/Length", b"/Root", b"/Filter", b"/FlateDecode", b"BT", b"ET",
          b"Tf", b"Tj", b"TJ", b"cm", b"BDC", b"EMC", b"BI", b"ID", b"EI", b"\\", b"#", b"<4142>", b"(a\\)b)"]
soup = st.lists(st.sampled_from(TOKENS), max_size=60).map(b"".join)
CMAP_TOKENS = TOKENS + [b"begincodespacerange", b"endcodespacerange", b"beginbfchar", b"endbfchar",
                        b"beginbfrange", b"endbfrange", b"begincidrange", b"endcidrange", b"endcmap",
                        b"usecmap", b"def", b"<00>", b"<FFFF>", b"<0041>", b"<d83d>", b"2"]
cmap_soup = st.lists(st.sampled_from(CMAP_TOKENS), max_size=60).map(b" ".join)

def _seed() -> bytes:
    """A valid one-page file, its xref offsets computed."""
    bodies = [b"<</Type/Catalog/Pages 2 0 R>>", b"<</Type/Pages/Kids[3 0 R]/Count 1>>",
              b"<</Type/Page/Parent 2 0 R/MediaBox[0 0 612 792]/Contents 4 0 R/Resources<</Font<</F1 5 0 R>>>>>>",
              b"<</Length 44>>stream\nBT /F1 12 Tf 1 0 0 1 72 720 Tm (Hello) Tj ET\nendstream",
              b"<</Type/Font/Subtype/Type1/BaseFont/Helvetica>>"]
    out, offsets = bytearray(b"%PDF-1.7\n"), []
    for num, body in enumerate(bodies, 1):
        offsets.append(len(out))
        out += b"%d 0 obj%s endobj\n" % (num, body)
    xref = len(out)
    out += b"xref\n0 6\n0000000000 65535 f \n" + b"".join(b"%010d 00000 n \n" % o for o in offsets)
    return bytes(out + b"trailer<</Size 6/Root 1 0 R>>\nstartxref\n%d\n%%%%EOF\n" % xref)


SEED = _seed()


def _finite(value) -> bool:
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, (Array, list, tuple)):
        return all(_finite(v) for v in value)
    if isinstance(value, Dict):
        return all(_finite(v) for v in value.values())
    return True


def _mutate(data: bytes, edits) -> bytes:
    buf = bytearray(data)
    for pos, cut, insert in edits:
        pos %= len(buf) + 1
        buf[pos:pos + cut] = insert
    return bytes(buf)


edits = st.lists(st.tuples(st.integers(0, len(SEED)), st.integers(0, 40), soup), max_size=4)


def _exercise(data: bytes) -> None:
    from pdfinspect.content.textlayout import page_glyphs
    try:
        doc = Document(data)
    except PdfError:
        return
    for obj in doc.iter_objects():
        assert _finite(obj.value)
    for n in range(1, min(doc.page_count(), 2) + 1):
        for record in page_glyphs(doc, doc.page_ref(n)):
            assert record.bbox is None or all(math.isfinite(v) for v in record.bbox.page)


@FUZZ
@given(edits)
def test_document_survives_mutated_files(changes):
    _exercise(_mutate(SEED, changes))


@FUZZ
@given(soup)
def test_document_survives_token_soup(data):
    _exercise(b"%PDF-1.7\n" + data)


@FUZZ
@given(st.one_of(soup, st.binary(max_size=300)))
def test_content_tokenizer_is_total_and_finite(data):
    prev = 0
    for op in iter_operations(data):
        assert prev <= op.start <= op.end <= len(data)
        assert _finite(op.operands) and len(op.diagnostics) <= 51
        prev = op.start


@FUZZ
@given(st.one_of(cmap_soup, st.binary(max_size=300)))
def test_cmap_parser_is_total(data):
    cmap = parse_cmap(data)
    for code in (b"\x00", b"A", b"\x00A", b"\xff\xff"):
        cmap.lookup_unicode(code)
        cmap.lookup_cid(code)
    cmap.split_codes(b"\x00A\xff\xfe")
