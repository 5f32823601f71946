"""The hand-built samples in sample_pdfs/: reproducible from their generator, and what
sample_pdfs/README.md says they are — checked with qpdf/pikepdf, fontTools, pdfminer.six
and poppler, not with pdfinspect."""

from __future__ import annotations

import importlib.util
import io
import re
import shutil
import subprocess
import zlib
from decimal import Decimal
from pathlib import Path
from types import ModuleType

import pytest

pikepdf = pytest.importorskip("pikepdf")

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "sample_pdfs"
README = (SAMPLES / "README.md").read_text(encoding="utf-8")
KINDS = dict(re.findall(r"^- `([^`]+\.pdf)` \((sound|damaged|tolerated|hostile)\):", README, re.M))
ALL_FILTERS = pikepdf.StreamDecodeLevel.all


def _load(path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


make_samples = _load(SAMPLES / "make_samples.py")


def _data(name: str) -> bytes:
    return (SAMPLES / name).read_bytes()


def _open(name: str):
    return pikepdf.open(SAMPLES / name)


def _xref_sections(data: bytes) -> list[dict[int, tuple[int, int, str]]]:
    """Classic xref sections in file order, each {num: (offset or next free, gen, n|f)}."""
    sections = []
    for match in re.finditer(rb"(?m)^xref\r?\n(.*?)^trailer", data, re.S):
        entries, num = {}, 0
        for line in match.group(1).splitlines():
            fields = line.split()
            if len(fields) == 2:
                num = int(fields[0])
                continue
            entries[num] = (int(fields[0]), int(fields[1]), fields[2].decode())
            num += 1
        sections.append(entries)
    return sections


# --- the set of samples and their reproducibility ------------------------------------------


def test_readme_describes_exactly_the_committed_samples():
    committed = {path.name for path in SAMPLES.glob("*.pdf")}
    assert set(KINDS) == committed == set(make_samples.SAMPLES)


def test_rebuild_is_byte_identical(tmp_path):
    """Regenerating gives the committed bytes. encrypted-aes256.pdf is exempt: qpdf draws a
    random file key and random AES IVs for R6 and pikepdf offers no static-IV switch."""
    make_samples.write_all(tmp_path)
    drifted = [
        name
        for name in make_samples.SAMPLES
        if name not in make_samples.NONDETERMINISTIC and (tmp_path / name).read_bytes() != _data(name)
    ]
    assert drifted == []


def test_samples_stay_small():
    assert {name: size for name in KINDS if (size := len(_data(name))) >= 50_000} == {}


# --- qpdf and pikepdf agree with the README ------------------------------------------------


@pytest.mark.parametrize("name", sorted(KINDS))
def test_qpdf_check_matches_readme(name):
    if shutil.which("qpdf") is None:
        pytest.skip("qpdf not installed")
    result = subprocess.run(["qpdf", "--check", str(SAMPLES / name)], capture_output=True, timeout=120)
    if KINDS[name] == "damaged":
        assert result.returncode in (2, 3), result.stdout  # 2 errors, 3 warnings
    else:
        assert result.returncode == 0, result.stdout + result.stderr


def _read_everything(name: str, decode: bool) -> list[str]:
    """Open with pikepdf, walk the page tree, decode every stream; qpdf's warnings."""
    with _open(name) as pdf:
        len(pdf.pages)
        for obj in pdf.objects:
            if decode and isinstance(obj, pikepdf.Stream):
                obj.read_bytes(decode_level=ALL_FILTERS)
        return list(pdf.get_warnings())


@pytest.mark.parametrize("name", sorted(KINDS))
def test_pikepdf_reads_sound_samples_cleanly_and_reports_damage(name):
    if KINDS[name] == "damaged":
        try:
            warnings = _read_everything(name, decode=True)
        except pikepdf.PdfError as exc:
            warnings = [str(exc)]
        assert warnings
    else:
        assert _read_everything(name, decode=KINDS[name] != "hostile") == []


# --- lexical.pdf ---------------------------------------------------------------------------


def test_lexical_rules_read_as_iso_32000_says():
    with _open("lexical.pdf") as pdf:
        obj = pdf.Root.Lexical
        assert [bytes(s) for s in obj.Octal] == [b"\x05", b"\x05", b"\x05", b"\x053"]
        assert bytes(obj.Escapes) == b"\n\r\t\b\f()\\"
        assert bytes(obj.Continuation) == b"abcdefghi"
        assert bytes(obj.BareCR) == b"one\ntwo"
        assert bytes(obj.CRLF) == b"three\nfour"
        assert bytes(obj.Nested) == b"a (b (c) b) a"
        assert bytes(obj.OddHex) == b"A@"
        assert bytes(obj.SpacedHex) == b"Hello"
        assert bytes(obj["/A B"]).startswith(b"key is A") and "/AB" in obj
        assert list(obj.Numbers)[:4] == [Decimal("-0.24"), 4, 17, Decimal("0.5")]
        assert list(obj.Commented) == [1, 2, 3]
        assert bytes(obj.NotAComment) == b"100% inside a string"
    raw = _data("lexical.pdf")
    assert b"(one\rtwo)" in raw and b"(three\r\nfour)" in raw and b"bare CR\r3]" in raw


def test_info_carries_terminal_escapes_and_markup():
    with _open("lexical.pdf") as pdf:
        title = bytes(pdf.trailer.Info.Title)
        subject = bytes(pdf.trailer.Info.Subject)
        author = bytes(pdf.trailer.Info.Author)
    for sequence in (b"\x1b[31m", b"\x07", b"\x9b2J", b"\x1b]0;pwned\x07"):
        assert sequence in title
    assert b"\x1b[2J" in subject and b"\x9bJ" in subject
    assert b"[/foo]" in author
    assert b"\x1b[31m" in _data("lexical.pdf")  # raw bytes in the file, not only escapes


# --- cross-reference structure --------------------------------------------------------------


def test_xref_subsections_free_list_and_generation():
    (section,) = _xref_sections(_data("xref-subsections.pdf"))
    assert set(section) == {0, 1, 2, 3, 4, 6, 7, 9, 10}
    chain, num = [], section[0][0]
    while num:
        kind = section[num][2]
        assert kind == "f"
        chain.append(num)
        num = section[num][0]
    assert chain == [6, 7, 9]
    assert {num: section[num][1] for num in chain} == {6: 1, 7: 3, 9: 1}
    with _open("xref-subsections.pdf") as pdf:
        assert pdf.get_object((10, 2)).BaseFont == "/Helvetica"


def test_incremental_revisions_chain_and_override():
    data = _data("incremental.pdf")
    sections = _xref_sections(data)
    trailers = re.findall(rb"trailer\n<< /Size (\d+)(?: /Prev (\d+))?", data)
    assert [int(size) for size, _ in trailers] == [7, 8, 9]
    starts = [m.start() for m in re.finditer(rb"(?m)^xref\n", data)]
    assert [int(prev) for _, prev in trailers[1:]] == starts[:2]
    assert data.count(b"%%EOF") == 3
    assert sections[1][4][2] == "n" and sections[1][7][2] == "n"
    assert sections[2][7] == (0, 1, "f") and sections[2][0][0] == 7
    with _open("incremental.pdf") as pdf:
        assert b"Revision 2: object 4 changed" in pdf.pages[0].Contents.read_bytes()
        assert pdf.get_object((7, 0)) is None
        assert str(pdf.docinfo.Title) == "Revision 3"


def _show_xref(name: str) -> str:
    if shutil.which("qpdf") is None:
        pytest.skip("qpdf not installed")
    return subprocess.run(["qpdf", "--show-xref", str(SAMPLES / name)], capture_output=True,
                          text=True, check=True).stdout


def test_xref_stream_and_object_streams():
    listing = _show_xref("xref-stream.pdf")
    for num, stm in ((1, 10), (2, 10), (5, 10), (3, 11), (6, 11)):
        assert f"{num}/0: compressed; stream = {stm}," in listing
    with _open("xref-stream.pdf") as pdf:
        xref = pdf.get_object((12, 0))
        assert list(xref.W) == [1, 3, 1] and list(xref.Index) == [0, 7, 10, 3]
        assert xref.DecodeParms.Predictor == 12
        assert pdf.get_object((11, 0)).Extends.objgen == (10, 0)
        assert pdf.pages[0].Resources.Font.F1.BaseFont == "/Helvetica"


def test_hybrid_font_only_reachable_through_xrefstm():
    (section,) = _xref_sections(_data("hybrid.pdf"))
    assert 5 not in section
    assert "5/0: compressed; stream = 6, index = 0" in _show_xref("hybrid.pdf")
    with _open("hybrid.pdf") as pdf:
        assert pdf.pages[0].Resources.Font.F1.BaseFont == "/Helvetica"


def test_indirect_lengths_are_defined_after_their_streams():
    data = _data("indirect-length.pdf")
    assert b"/Length 5 0 R" in data and b"/Length 7 0 R" in data
    assert data.index(b"\n5 0 obj") > data.index(b"\n4 0 obj")
    assert data.index(b"\n7 0 obj") > data.index(b"\n6 0 obj")
    with _open("indirect-length.pdf") as pdf:
        assert b"Flate, /Length 7 0 R" in pdf.get_object((6, 0)).read_bytes()


@pytest.mark.parametrize(("name", "revision", "method"), [
    ("encrypted-rc4.pdf", 3, None),
    ("encrypted-aes256.pdf", 6, "aesv3"),
])
def test_encrypted_samples_open_with_empty_user_password(name, revision, method):
    assert b"Encrypted title string" not in _data(name)
    with _open(name) as pdf:
        assert pdf.is_encrypted and pdf.encryption.R == revision
        if method:
            assert pdf.encryption.stream_method.name == method
        assert str(pdf.docinfo.Title) == "Encrypted title string"
    with pikepdf.open(SAMPLES / name, password="owner") as pdf:
        assert pdf.owner_password_matched


# --- fonts ------------------------------------------------------------------------------------


def test_kappa_font_program_parses_with_builtin_encoding(tmp_path):
    from fontTools.t1Lib import T1Font

    with _open("kappa.pdf") as pdf:
        font = pdf.pages[0].Resources.Font.F4
        assert "/Encoding" not in font
        program = font.FontDescriptor.FontFile.read_bytes()
        tounicode = font.ToUnicode.read_bytes()
        content = pdf.pages[0].Contents.read_bytes()
    path = tmp_path / "kappa.pfa"
    path.write_bytes(program)
    t1 = T1Font(str(path))
    t1.parse()
    encoding = t1.font["Encoding"]
    assert (encoding[0x14], encoding[0x20], encoding[0x5B], encoding[0x5D]) == ("kappa", "space", "flat", "musicsharp")
    assert {"kappa", "space", "flat", "musicsharp", ".notdef"} <= set(t1.font["CharStrings"].keys())

    from pdfminer.cmapdb import CMapParser, FileUnicodeMap

    cmap = FileUnicodeMap()
    CMapParser(cmap, io.BytesIO(tounicode)).run()
    assert cmap.cid2unichr == {0x5D: "\u266f"}
    assert content == rb"BT /F4 12 Tf 72 700 Td [(\024)]TJ ( ) Tj (\133) Tj (\135) Tj ET"


def test_poppler_falls_back_to_the_embedded_encoding():
    if shutil.which("pdftotext") is None:
        pytest.skip("pdftotext not installed")
    text = subprocess.run(["pdftotext", str(SAMPLES / "kappa.pdf"), "-"], capture_output=True,
                          text=True, check=True).stdout
    assert "κ" in text and "♯" in text and "\x14" not in text


def test_cid_fonts_resolve_through_ucs2_and_tounicode():
    from pdfminer.high_level import extract_text

    text = extract_text(str(SAMPLES / "cid-identity.pdf"))
    assert "日本語 ABC" in text
    assert "Hi!\U0001f600ffi039ffi" in text
    with _open("cid-identity.pdf") as pdf:
        fonts = pdf.pages[0].Resources.Font
        assert "/ToUnicode" not in fonts.F1 and fonts.F1.Encoding == "/Identity-H"
        assert fonts.F1.DescendantFonts[0].CIDSystemInfo.Ordering == "Japan1"


# --- content streams and filters -------------------------------------------------------------


def test_content_operators_forms_and_inline_image():
    with _open("content.pdf") as pdf:
        page = pdf.pages[0]
        instructions = pikepdf.parse_content_stream(page)
        operators = {str(inst.operator) for inst in instructions}
        assert {"q", "Q", "cm", "rg", "RG", "k", "K", "cs", "scn", "BDC", "EMC", "TJ", "'", '"',
                "Tz", "Ts", "Tr", "TL", "Tc", "Tw", "Do", "BX", "EX", "unknownInsideBX",
                "unknownOutside", "INLINE IMAGE"} <= operators
        cm = next(inst for inst in instructions if str(inst.operator) == "cm")
        assert Decimal("-0.24") in list(cm.operands)
        image = next(inst for inst in instructions if isinstance(inst, pikepdf.ContentStreamInlineImage))
        if hasattr(image.iimage, "read_raw_bytes"):  # not in pikepdf 10.13, the last for Python 3.10
            assert image.iimage.read_raw_bytes().startswith(b"\x00 EI Q \xff")
        bdc = next(inst for inst in instructions if str(inst.operator) == "BDC")
        assert bytes(bdc.operands[1].ActualText) == b"Hello"
        xobjects = page.Resources.XObject
        assert xobjects.Fm1.Resources.Font.F2.BaseFont == "/Times-Roman"
        assert xobjects.Loop.Resources.XObject.Self.objgen == xobjects.Loop.objgen


def test_each_filtered_stream_names_its_filters():
    with _open("filters.pdf") as pdf:
        contents = list(pdf.pages[0].Contents)
        decoded = [stream.read_bytes(decode_level=ALL_FILTERS) for stream in contents]
        for stream, text in zip(contents, decoded):
            filters = stream.Filter if isinstance(stream.Filter, pikepdf.Array) else [stream.Filter]
            for name in filters:
                assert str(name)[1:].encode() in text
        assert contents[4].DecodeParms.Predictor == 15
        assert b"(Hello, split" not in decoded[0]
        assert b"(Hello, split across streams)" in decoded[0] + decoded[1]
        image = pdf.pages[0].Resources.XObject.Im1
        assert image.Filter == "/DCTDecode"
        jpeg = image.read_raw_bytes()
    assert jpeg.startswith(b"\xff\xd8") and jpeg.endswith(b"\xff\xd9")
    pil = pytest.importorskip("PIL.Image")
    assert pil.open(io.BytesIO(jpeg)).size == (16, 16)


def test_pages_inherit_through_the_tree():
    from pdfminer.high_level import extract_text
    from pdfminer.pdfpage import PDFPage
    from pdfminer.pdftypes import resolve1

    with open(SAMPLES / "pages.pdf", "rb") as handle:
        pages = list(PDFPage.get_pages(handle))
        assert [page.rotate for page in pages] == [0, 90, 90, 0, 180]
        assert [tuple(page.mediabox) for page in pages] == [
            (0, 0, 612, 792), (0, 0, 595, 842), (0, 0, 595, 842), (0, 0, 595, 842), (0, 0, 300, 300)]
        assert tuple(pages[3].cropbox) == (0, 0, 400, 400)
        fonts = [resolve1(page.resources["Font"]["F1"])["BaseFont"].name for page in pages]
        assert fonts == ["Helvetica", "Helvetica", "Times-Roman", "Times-Roman", "Helvetica"]
    for number in range(5):  # rotated pages come out one glyph per line
        text = extract_text(str(SAMPLES / "pages.pdf"), page_numbers=[number])
        assert f"Page{number + 1}" in "".join(text.split())


# --- the damage is really there -----------------------------------------------------------------


def test_damage_is_in_the_bytes():
    assert b"startxref" not in _data("damaged-no-xref.pdf")
    assert b"\nxref\n" not in _data("damaged-no-xref.pdf")
    assert b"trailer" in _data("damaged-no-xref.pdf")
    truncated = _data("damaged-truncated.pdf")
    assert b"%%EOF" not in truncated and b"endstream" not in truncated
    garbage = _data("damaged-garbage.pdf")
    assert not garbage.startswith(b"%PDF-") and garbage.rstrip().split(b"%%EOF")[-1]
    assert b"\n6 0 obj\n<< /Title (Unterminated dictionary) /Producer (make_samples.py)\nendobj" in (
        _data("damaged-broken-object.pdf"))


def test_bad_offsets_are_all_off_by_seven():
    data = _data("damaged-bad-offsets.pdf")
    (section,) = _xref_sections(data)
    for num, (offset, gen, kind) in section.items():
        if kind == "n":
            assert not data.startswith(b"%d %d obj" % (num, gen), offset)
            assert data.startswith(b"%d %d obj" % (num, gen), offset - 7)


def test_bad_lengths_are_short_and_long():
    with _open("damaged-bad-length.pdf") as pdf:
        short, long = pdf.get_object((4, 0)), pdf.get_object((6, 0))
        assert short.read_bytes().rstrip().endswith(b"too short) Tj ET")
        assert long.read_bytes().rstrip().endswith(b"too long) Tj ET")
    data = _data("damaged-bad-length.pdf")
    declared = [int(n) for n in re.findall(rb"/Length (\d+) >>\nstream", data)]
    actual = [len(b"BT /F1 18 Tf 72 720 Td (/Length 10 bytes too short) Tj ET"),
              len(b"BT /F1 18 Tf 72 690 Td (/Length 25 bytes too long) Tj ET")]
    assert [d - a for d, a in zip(declared, actual)] == [-10, 25]


def test_loop_sample_has_page_cycle_and_self_length():
    data = _data("damaged-loop.pdf")
    assert b"4 0 obj\n<< /Length 4 0 R >>" in data
    with pikepdf.open(SAMPLES / "damaged-loop.pdf", inherit_page_attributes=False) as pdf:
        assert pdf.get_object((6, 0)).Kids[0].objgen == (2, 0)
        with pytest.raises(pikepdf.PdfError, match="[Ll]oop"):
            len(pdf.pages)


def test_bomb_inflates_past_300_mb_from_under_2_kb():
    with _open("damaged-bomb.pdf") as pdf:
        form = pdf.pages[0].Resources.XObject.Bomb
        assert list(form.Filter) == ["/FlateDecode", "/FlateDecode"]
        raw = form.read_raw_bytes()
    assert len(raw) < 2_000
    inner, total, inflate = zlib.decompress(raw), 0, zlib.decompressobj()
    while inner:
        total += len(inflate.decompress(inner, 1 << 22))
        inner = inflate.unconsumed_tail
    assert total > 300_000_000


# --- bench/make_large.py ------------------------------------------------------------------------


def test_bench_generator_pages_and_dense_page():
    make_large = _load(ROOT / "bench" / "make_large.py")
    with pikepdf.open(io.BytesIO(make_large.many_pages(3))) as pdf:
        assert len(pdf.pages) == 3
        assert b"Page 3 of 3" in pdf.pages[2].Contents.read_bytes()
    with pikepdf.open(io.BytesIO(make_large.dense_page(100_000))) as pdf:
        assert len(pikepdf.parse_content_stream(pdf.pages[0])) >= 100_000
