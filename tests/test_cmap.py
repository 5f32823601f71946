"""CMaps (ISO 32000-1 9.7.5, 9.7.6.2, 9.10.3) and predefined CMap data."""
from __future__ import annotations

import io
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pdfinspect.fonts.cmap import CMap, CodespaceRange, identity_cmap, parse_cmap
from pdfinspect.fonts.predefined import cid_to_unicode, predefined_cmap, ucs2_source_name

CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpus"
POPPLER_CMAPS = Path("/usr/share/poppler/cMap")

TOUNICODE = b"""/CIDInit /ProcSet findresource begin
12 dict begin
begincmap
/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def
/CMapName /Adobe-Identity-UCS def
/CMapType 2 def
1 begincodespacerange
<0000> <FFFF>
endcodespacerange
4 beginbfchar
<0003> <0020>
<0010> <D83DDE00>
<0011> <00660066006C>
<0012> <03BA>
endbfchar
3 beginbfrange
<0020> <0022> <0041>
<0030> <0032> [<0061> <0062> <D835DC00>]
<0040> <0042> <00FF>
endbfrange
endcmap
CMapName currentdict /CMap defineresource pop
end
end
"""


def pdfminer_tounicode(data: bytes) -> dict[int, str]:
    from pdfminer.cmapdb import CMapParser, FileUnicodeMap

    umap = FileUnicodeMap()
    CMapParser(umap, io.BytesIO(data)).run()
    return umap.cid2unichr


def test_tounicode_header_and_lookups():
    cmap = parse_cmap(TOUNICODE)
    assert cmap.diagnostics == []
    assert (cmap.name, cmap.cmap_type, cmap.wmode) == ("Adobe-Identity-UCS", 2, 0)
    assert cmap.cid_system_info == {"Registry": "Adobe", "Ordering": "UCS", "Supplement": 0}
    assert cmap.codespace == [CodespaceRange(b"\x00\x00", b"\xff\xff")]
    expected = {0x03: " ", 0x10: "😀", 0x11: "ffl", 0x12: "κ", 0x20: "A", 0x22: "C",
                0x30: "a", 0x32: "\U0001d400", 0x40: "ÿ", 0x41: "Ā", 0x42: "ā"}
    for code, text in expected.items():
        assert cmap.lookup_unicode(code.to_bytes(2, "big"))[0] == text, hex(code)
    assert cmap.lookup_unicode(b"\x00\x99") == (None, None)


def test_tounicode_agrees_with_pdfminer():
    cmap = parse_cmap(TOUNICODE)
    theirs = pdfminer_tounicode(TOUNICODE)
    assert theirs
    for code, text in theirs.items():
        assert cmap.lookup_unicode(code.to_bytes(2, "big"))[0] == text, hex(code)


def test_entries_remember_kind_line_and_offset():
    cmap = parse_cmap(TOUNICODE)
    _text, entry = cmap.lookup_unicode(b"\x00\x11")
    assert entry.kind == "bfchar"
    assert entry.offset == TOUNICODE.index(b"<0011>")
    assert entry.line == TOUNICODE[:entry.offset].count(b"\n") + 1
    _text, entry = cmap.lookup_unicode(b"\x00\x31")
    assert (entry.kind, entry.low, entry.high) == ("bfrange", b"\x00\x30", b"\x00\x32")
    assert entry.offset == TOUNICODE.index(b"<0030> <0032>")
    assert entry.dest == ("a", "b", "\U0001d400")


def test_later_definition_wins():
    data = (b"1 begincodespacerange <00> <FF> endcodespacerange\n"
            b"1 beginbfrange <41> <45> <0061> endbfrange\n"
            b"1 beginbfchar <43> <0058> endbfchar\n"
            b"1 beginbfrange <44> <44> <0059> endbfrange\n")
    cmap = parse_cmap(data)
    assert [cmap.lookup_unicode(bytes([c]))[0] for c in b"ABCDE"] == list("abXYe")


def test_token_path_handles_comments_names_and_split_hex():
    data = (b"1 begincodespacerange <00> <FF> endcodespacerange\n"
            b"3 beginbfchar % a comment inside the block\n"
            b"<41> /kappa\n<42> <00 4 2>\n(C) <0043>\nendbfchar\n")
    cmap = parse_cmap(data)
    assert [cmap.lookup_unicode(c)[0] for c in (b"A", b"B", b"C")] == ["κ", "B", "C"]
    assert cmap.diagnostics == []


def test_usecmap_chain():
    parent = parse_cmap(b"/CMapName /Parent def 1 begincodespacerange <00> <80> endcodespacerange\n"
                        b"2 begincidchar <41> 10 <42> 11 endcidchar\n")
    child_data = (b"/Parent usecmap\n/CMapName /Child def\n"
                  b"1 begincodespacerange <8140> <9FFC> endcodespacerange\n"
                  b"1 begincidchar <42> 99 endcidchar\n1 begincidrange <8140> <8142> 500 endcidrange\n")
    seen = []
    child = parse_cmap(child_data, lambda name: seen.append(name) or parent)
    assert seen == ["Parent"] and child.usecmap == "Parent" and child.parent is parent
    assert child.lookup_cid(b"A")[0] == 10          # inherited
    assert child.lookup_cid(b"B")[0] == 99          # overridden
    assert child.lookup_cid(b"\x81\x42")[0] == 502
    assert [c.code for c in child.split_codes(b"A\x81\x40")] == [b"A", b"\x81\x40"]
    unresolved = parse_cmap(child_data)
    diag = [d for d in unresolved.diagnostics if d.code == "usecmap-unresolved"]
    assert diag and diag[0].offset == 0
    assert unresolved.lookup_cid(b"A") == (None, None)


def test_split_codes_mixed_lengths():
    cmap = parse_cmap(b"2 begincodespacerange <00> <80> <8140> <9FFC> endcodespacerange")
    diags: list = []
    codes = cmap.split_codes(b"A\x81\x40\x9f\xfc\x80\xa0\x81\x20\x81", diags)
    assert [(c.code, c.offset, c.matched) for c in codes] == [
        (b"A", 0, True), (b"\x81\x40", 1, True), (b"\x9f\xfc", 3, True), (b"\x80", 5, True),
        (b"\xa0", 6, False),        # no range starts with A0: shortest length
        (b"\x81\x20", 7, False),    # 81 starts a two-byte range: partial match
        (b"\x81", 9, False)]        # truncated at the end of the string
    assert [(d.code, d.offset) for d in diags] == [("code-not-in-codespace", 6),
                                                   ("code-not-in-codespace", 7),
                                                   ("code-not-in-codespace", 9)]


def test_cid_kinds_and_notdef():
    data = (b"1 begincodespacerange <0000> <FFFF> endcodespacerange\n"
            b"1 beginnotdefrange <0000> <001F> 1 endnotdefrange\n"
            b"1 beginnotdefchar <0100> 2 endnotdefchar\n"
            b"1 begincidrange <0020> <007E> 1 endcidrange\n"
            b"1 begincidchar <3042> 843 endcidchar\n")
    cmap = parse_cmap(data)
    assert cmap.diagnostics == []
    assert cmap.lookup_cid(b"\x00\x41")[0] == 0x41 - 0x20 + 1
    cid, entry = cmap.lookup_cid(b"\x30\x42")
    assert (cid, entry.kind) == (843, "cidchar")
    cid, entry = cmap.lookup_cid(b"\x00\x05")
    assert (cid, entry.kind) == (1, "notdefrange")
    assert cmap.lookup_cid(b"\x01\x00")[0] == 2
    assert cmap.lookup_cid(b"\x02\x00") == (None, None)


def test_identity():
    cmap = identity_cmap()
    assert cmap.lookup_cid(b"\x0b\x45")[0] == 0x0B45
    assert [c.matched for c in cmap.split_codes(b"\x0b\x45\x01")] == [True, False]
    assert identity_cmap(vertical=True).wmode == 1
    assert predefined_cmap("Identity-H").lookup_cid(b"\x00\x07")[0] == 7


DEFECTS = b"""begincmap
1 begincodespacerange <00> <80> <8140> <9FFC> <0> <1234> endcodespacerange
2 beginbfchar
<41> <0041>
<42> <D800>
<43> <004>
<44> <41>
endbfchar
beginbfrange
<00FF> <0102> <0041>
<10> <1010> <0041>
<20> <22> [<0061>]
<30> <2F> <0061>
endbfrange
1 beginbfchar <123456> <0041> endbfchar
1 beginbfchar <45> 17 <46> <0046> endbfchar
1 begincidchar <47> 3 endbfchar
1 beginbfchar <48> <0048>
endcmap
"""


def test_each_defect_reported_at_its_offset():
    cmap = parse_cmap(DEFECTS)
    found = {(d.code, d.offset) for d in cmap.diagnostics}
    at = DEFECTS.index
    expected = {
        ("cmap-count-mismatch", at(b"begincodespacerange")),
        ("codespace-length-mismatch", at(b"<0> <1234>")),
        ("cmap-dest-not-utf16", at(b"<D800>")),
        ("cmap-odd-hex", at(b"<004>")),
        ("cmap-dest-not-utf16", at(b"<41>\nendbfchar")),
        ("cmap-count-mismatch", at(b"beginbfchar")),
        ("cmap-count-missing", at(b"beginbfrange")),
        ("cmap-range-crosses-byte", at(b"<00FF>")),
        ("cmap-range-length-mismatch", at(b"<10> <1010>")),
        ("cmap-range-array-size", at(b"[<0061>]")),
        ("cmap-range-reversed", at(b"<30> <2F>")),
        ("code-length-outside-codespace", at(b"<123456>")),
        ("cmap-bad-entry", at(b"17 <46>")),
        ("cmap-end-mismatch", at(b"endbfchar\n1 beginbfchar <48>")),
        ("cmap-block-unterminated", at(b"beginbfchar <48>")),
    }
    assert expected <= found, expected - found
    # The damaged entries that could be read still map.
    assert cmap.lookup_unicode(b"\x41")[0] == "A"
    assert cmap.lookup_unicode(b"\x44")[0] == "A"        # one-byte destination as a code
    assert cmap.lookup_unicode(b"\x42")[0] == "\ufffd"
    assert cmap.lookup_unicode(b"\x46")[0] == "F"
    assert cmap.lookup_unicode(b"\x48")[0] == "H"        # block closed at endcmap
    assert cmap.lookup_cid(b"\x47")[0] == 3
    # <00FF> <0102> is read numerically, as pdf.js and pdfminer do.
    assert [cmap.lookup_unicode(c)[0] for c in (b"\x00\xff", b"\x01\x00", b"\x01\x02")] == list("ABD")


def test_missing_codespace_inferred_from_mappings():
    cmap = parse_cmap(b"1 beginbfchar <0041> <0041> endbfchar")
    assert [d.code for d in cmap.diagnostics] == ["codespace-missing"]
    assert [c.code for c in cmap.split_codes(b"\x00A\x00B")] == [b"\x00A", b"\x00B"]


def test_ten_thousand_entries():
    lines = [b"1 begincodespacerange <0000> <FFFF> endcodespacerange"]
    for block in range(100):
        lines.append(b"100 beginbfchar")
        lines += [b"<%04X> <%04X>" % (n, n + 0x4E00) for n in range(block * 100, block * 100 + 100)]
        lines.append(b"endbfchar")
    lines.append(b"1 beginbfrange <3000> <30FF> <0041> endbfrange")
    cmap = parse_cmap(b"\n".join(lines))
    assert len(cmap.entries) == 10001 and cmap.diagnostics == []
    assert cmap.lookup_unicode(b"\x12\x34")[0] == chr(0x1234 + 0x4E00)
    assert cmap.lookup_unicode(b"\x30\x02")[0] == "C"


# -- corpus: ToUnicode CMaps written by real producers, checked against pdfminer -------------

@pytest.mark.parametrize("name", ["pdflatex-cm-tounicode.pdf", "libreoffice-ru-el-ja-tagged-pdfa2b.pdf",
                                  "uplatex-dvipdfmx-ja-noto-tounicode.pdf",
                                  "platex-dvipdfmx-ja-ipa-cidtype2.pdf"])
def test_corpus_tounicode_agrees_with_pdfminer(name):
    pikepdf = pytest.importorskip("pikepdf")
    path = CORPUS / name
    if not path.is_file():
        pytest.skip("corpus not available")
    pdf = pikepdf.open(path)
    streams = [obj.ToUnicode.read_bytes() for obj in pdf.objects
               if isinstance(obj, pikepdf.Dictionary) and "/ToUnicode" in obj]
    assert streams
    for data in streams:
        cmap = parse_cmap(data)
        assert not [d for d in cmap.diagnostics if d.severity.value == "error"]
        width = len(cmap.codespace[0].low)
        for code, text in pdfminer_tounicode(data).items():
            assert cmap.lookup_unicode(code.to_bytes(width, "big"))[0] == text


# -- predefined CMaps and UCS2 maps -------------------------------------------------------

def test_90ms_rksj_h_from_shift_jis_bytes_to_unicode():
    cmap = predefined_cmap("90ms-RKSJ-H")
    text = "あ日本語テキストA1"
    data = text.encode("cp932")  # Python's codec, independent of the CMap data
    codes = cmap.split_codes(data)
    assert all(c.matched for c in codes) and len(codes) == len(text)
    to_unicode = cid_to_unicode("Adobe", "Japan1")
    assert "".join(to_unicode(cmap.lookup_cid(c.code)[0]) for c in codes) == text
    cid, entry = cmap.lookup_cid(b"\x82\xa0")
    assert cid == 843 and entry.kind == "predefined" and "90ms-RKSJ-H" in entry.dest


def _poppler(collection: str, name: str) -> bytes:
    path = POPPLER_CMAPS / collection / name
    if not path.is_file():
        pytest.skip(f"{path} not installed (poppler-data)")
    return path.read_bytes()


def test_90ms_rksj_h_matches_adobe_cmap_file():
    real = parse_cmap(_poppler("Adobe-Japan1", "90ms-RKSJ-H"))
    assert real.diagnostics == [] and real.lookup_cid(b"\x82\xa0")[0] == 843
    ours = predefined_cmap("90ms-RKSJ-H")
    checked = 0
    for code in (bytes([b]) for b in range(0x20, 0xE0)):
        if ours.lookup_cid(code)[0] is not None:
            assert ours.lookup_cid(code)[0] == real.lookup_cid(code)[0]
            checked += 1
    for first in range(0x81, 0xA0):
        for second in range(0x40, 0xFD):
            code = bytes((first, second))
            cid = ours.lookup_cid(code)[0]
            if cid is not None:
                assert cid == real.lookup_cid(code)[0], code.hex()
                checked += 1
    assert checked > 5000
    # Rebuilt codespace ranges lie inside the file's own ranges.
    for r in ours.codespace:
        assert any(real_r.matches(r.low) and real_r.matches(r.high) for real_r in real.codespace)


def test_vertical_cmap_uses_horizontal_through_usecmap():
    real_h = parse_cmap(_poppler("Adobe-Japan1", "90ms-RKSJ-H"))
    real_v = parse_cmap(_poppler("Adobe-Japan1", "90ms-RKSJ-V"), {"90ms-RKSJ-H": real_h}.get)
    ours = predefined_cmap("90ms-RKSJ-V")
    assert real_v.wmode == ours.wmode == 1
    for code in (b"\x81\x41", b"\x81\x5b", b"\x82\xa0", b"A"):
        assert ours.lookup_cid(code)[0] == real_v.lookup_cid(code)[0]


def test_adobe_japan1_ucs2_against_the_adobe_cmap():
    real = parse_cmap(_poppler("Adobe-Japan1", "Adobe-Japan1-UCS2"))
    assert real.cid_system_info["Ordering"] == "Adobe_Japan1_UCS2"
    ours = cid_to_unicode("Adobe", "Japan1")
    assert ours(843) == real.lookup_unicode((843).to_bytes(2, "big"))[0] == "\u3042"
    both = same = 0
    for cid in range(1, 20000):
        theirs = real.lookup_unicode(cid.to_bytes(2, "big"))[0]
        if theirs is not None and ours(cid) is not None:
            both += 1
            same += theirs == ours(cid)
    # pdfminer's table comes from cid2code.txt, the file from Adobe's UCS2 CMap; they
    # differ on a few hundred CIDs (e.g. CID 96: U+02BC vs U+2019). See the report.
    assert both > 12000 and same / both > 0.95


def test_cid_to_unicode_vertical_and_unknown():
    h, v = cid_to_unicode("Adobe", "Japan1"), cid_to_unicode("Adobe", "Japan1", vertical=True)
    assert (h(736), v(736)) == ("→", "↑")
    assert cid_to_unicode("Adobe", "Identity") is None
    assert cid_to_unicode("Adobe", "../../etc") is None
    assert ucs2_source_name("Adobe", "GB1") == "Adobe-GB1-UCS2"
    assert cid_to_unicode("Adobe", "GB1")(4) is not None


def test_predefined_rejects_unknown_and_path_names():
    assert predefined_cmap("No-Such-CMap") is None
    assert predefined_cmap("../cmap/90ms-RKSJ-H") is None
    assert predefined_cmap("90ms-RKSJ-H") is predefined_cmap("90ms-RKSJ-H")  # cached


def test_predefined_ucs2_codespace_keeps_two_byte_codes():
    cmap = predefined_cmap("UniJIS-UCS2-H")
    codes = cmap.split_codes("\u0500あ".encode("utf-16-be"))
    assert [c.code for c in codes] == [b"\x05\x00", b"\x30\x42"]
    assert cmap.lookup_cid(b"\x30\x42")[0] == 843


# -- robustness ----------------------------------------------------------------------------

def _exercise(cmap: CMap, data: bytes) -> None:
    for code in cmap.split_codes(data[:64], []):
        cmap.lookup_unicode(code.code)
        cmap.lookup_cid(code.code)


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=400))
def test_arbitrary_bytes_never_raise(data):
    _exercise(parse_cmap(data), data)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.integers(0, len(TOUNICODE) - 1), st.integers(0, 3),
                          st.binary(min_size=0, max_size=4)), max_size=6))
def test_mutated_cmap_never_raises(mutations):
    data = bytearray(TOUNICODE)
    for pos, op, chunk in mutations:
        pos = min(pos, len(data))
        if op == 0:
            data[pos:pos + len(chunk)] = chunk
        elif op == 1:
            data[pos:pos] = chunk
        elif op == 2:
            del data[pos:pos + 1 + len(chunk)]
        else:
            data[pos:pos] = b" <00> <FFFF> [ <41> ] 7 beginbfrange endcidchar "[:len(chunk) * 9]
    cmap = parse_cmap(bytes(data), lambda name: None)
    _exercise(cmap, bytes(data))


def test_truncated_cmap_drops_the_unterminated_last_entry():
    data = (b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n"
            b"1 begincodespacerange <00> <ff> endcodespacerange\n"
            b"2 beginbfrange <41> <42> <0041>\n<53> <53> <00")
    cmap = parse_cmap(data)
    assert cmap.lookup_unicode(b"\x41")[0] == "A"
    assert cmap.lookup_unicode(b"\x53")[0] is None
    assert "cmap-unterminated" in {d.code for d in cmap.diagnostics}


def test_mappings_after_endcmap_are_ignored_as_mupdf_and_pdfminer_do():
    # a ToUnicode with a second, Latin bfrange after endcmap: the Arabic one stays in force
    data = (b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n"
            b"1 begincodespacerange <00> <FF> endcodespacerange\n"
            b"1 beginbfrange <41> <43> <0627> endbfrange\n"
            b"endcmap CMapName currentdict /CMap defineresource pop end end\n"
            b"1 beginbfrange <41> <43> <0041> endbfrange\n")
    cmap = parse_cmap(data)
    assert cmap.lookup_unicode(b"B")[0] == "\u0628"
    assert [d.code for d in cmap.diagnostics] == ["cmap-data-after-endcmap"]
    assert cmap.diagnostics[0].offset == data.rindex(b"beginbfrange")


def test_huge_cid_is_bounded():
    cmap = parse_cmap(b"1 begincodespacerange <00> <FF> endcodespacerange\n"
                      b"1 begincidchar <41> " + b"9" * 5000 + b" endcidchar")
    assert cmap.lookup_cid(b"A")[0] == (1 << 63) - 1
    assert "number-out-of-range" in [d.code for d in cmap.diagnostics]
