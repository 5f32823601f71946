"""Stream filters (ISO 32000 7.4), checked against pikepdf/qpdf on the same raw bytes."""
from __future__ import annotations

import base64
import random
import zlib
from decimal import Decimal
from pathlib import Path

import pikepdf
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pdfinspect.core.filters import DEFAULT_LIMIT, decode, filter_chain
from pdfinspect.core.objects import Array, Dict, Name, Ref, String

CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpus"
PDF = pikepdf.new()


def ours(obj):
    """A pikepdf object as a pdfinspect object; a stream as its dictionary, with
    indirect references inside it left as :class:`Ref` (as the caller of
    ``filter_chain`` sees them before resolving)."""
    if isinstance(obj, pikepdf.Stream):
        return Dict({Name(k[1:]): ours(v) for k, v in obj.stream_dict.items()})
    if isinstance(obj, pikepdf.Object) and obj.is_indirect:
        return Ref(*obj.objgen)
    if isinstance(obj, pikepdf.Name):
        return Name(str(obj)[1:])
    if isinstance(obj, pikepdf.Dictionary):
        return Dict({Name(k[1:]): ours(v) for k, v in obj.items()})
    if isinstance(obj, pikepdf.Array):
        return Array(ours(v) for v in obj)
    if isinstance(obj, pikepdf.String):
        return String(bytes(obj))
    if isinstance(obj, Decimal):
        return float(obj)
    return obj


def both(raw: bytes, filters, parms=None, limit=DEFAULT_LIMIT):
    """Decode ``raw`` with qpdf (through pikepdf) and with us, from the same dictionary."""
    stream = pikepdf.Stream(PDF, raw)
    stream.Filter = filters
    if parms is not None:
        stream.DecodeParms = parms
    expected = stream.read_bytes(pikepdf.StreamDecodeLevel.specialized)
    return expected, decode(raw, filter_chain(ours(stream)), limit)


def check(raw: bytes, filters, parms=None):
    expected, result = both(raw, filters, parms)
    assert result.data == expected
    assert result.complete, result
    return result


def a85(data: bytes) -> bytes:
    """ASCII85 as PDF writes it: Adobe's encoding without the PostScript '<~'."""
    return base64.a85encode(data, adobe=True)[2:]


def random_bytes(seed: int, n: int, alphabet: bytes | None = None) -> bytes:
    rng = random.Random(seed)
    if alphabet:
        return bytes(rng.choice(alphabet) for _ in range(n))
    return rng.randbytes(n)


def png_rows(seed: int, rowlen: int, rows: int) -> bytes:
    """Predictor input: random row bytes, each row with one of the five PNG row types
    (every type several times, in no particular order)."""
    rng = random.Random(seed)
    types = [t % 5 for t in range(rows)]
    rng.shuffle(types)
    return b"".join(bytes([t]) + rng.randbytes(rowlen) for t in types)


def lzw_encode(data: bytes, early: int) -> bytes:
    """A plain LZW encoder: clear first, clear when the table fills, EOD last.

    Input for the LZW tests only; what the bytes mean is decided by qpdf's decoder.
    """
    def fresh():
        return {bytes((i,)): i for i in range(256)}, 258, 9

    table, nxt, width = fresh()
    codes = [(256, width)]
    w = b""
    for b in data:
        wc = w + bytes((b,))
        if wc in table:
            w = wc
            continue
        codes.append((table[w], width))
        table[wc], nxt = nxt, nxt + 1
        if nxt + early > (1 << width) and width < 12:
            width += 1
        if nxt + early > 4095:
            codes.append((256, width))
            table, nxt, width = fresh()
        w = bytes((b,))
    if w:
        codes.append((table[w], width))
    codes.append((257, width))
    return pack_codes(codes)


def pack_codes(codes: list[tuple[int, int]]) -> bytes:
    """(code, width) pairs as a big-endian bit string, zero-padded to a byte."""
    acc = bits = 0
    out = bytearray()
    for code, size in codes:
        acc, bits = acc << size | code, bits + size
        while bits >= 8:
            bits -= 8
            out.append(acc >> bits & 0xFF)
    if bits:
        out.append(acc << (8 - bits) & 0xFF)
    return bytes(out)


def runlength_encode(seed: int, runs: int) -> bytes:
    """Random valid RunLengthDecode input: literal runs and repeats, then EOD."""
    rng = random.Random(seed)
    out = bytearray()
    for _ in range(runs):
        n = rng.randrange(0, 256)
        if n < 128:
            out += bytes([n]) + rng.randbytes(n + 1)
        elif n > 128:
            out += bytes([n, rng.randrange(256)])
    return bytes(out + b"\x80")


TEXT = random_bytes(1, 40_000, b"BT ET Tf Tj 0123456789 () [] /F1 q Q cm re f\n")
N = pikepdf.Name


# -- filter_chain ------------------------------------------------------------------------


def test_filter_chain_reads_name_array_and_parms_with_nulls():
    d = Dict({
        Name("Filter"): Array([Name("ASCII85Decode"), Name("FlateDecode")]),
        Name("DecodeParms"): Array([None, Dict({Name("Predictor"): 12})]),
    })
    assert filter_chain(d) == [("ASCII85Decode", None), ("FlateDecode", {"Predictor": 12})]
    assert filter_chain(Dict({Name("Filter"): Name("FlateDecode")})) == [("FlateDecode", None)]
    assert filter_chain(Dict()) == []


def test_filter_chain_tolerates_mismatched_lengths_and_inline_keys():
    parms = Dict({Name("Columns"): 4})
    two = Array([Name("FlateDecode"), Name("RL")])
    lone = Dict({Name("Filter"): two, Name("DecodeParms"): parms})
    assert filter_chain(lone) == [("FlateDecode", parms), ("RL", None)]
    extra = Dict({Name("Filter"): Name("Fl"), Name("DecodeParms"): Array([parms, parms])})
    assert filter_chain(extra) == [("Fl", parms)]
    inline = Dict({Name("F"): Array([Name("AHx"), Name("Fl")]), Name("DP"): Array([None, parms])})
    assert filter_chain(inline) == [("AHx", None), ("Fl", parms)]
    # In a stream dictionary /F is a file specification, not a filter (7.3.8.2, Table 5).
    assert filter_chain(Dict({Name("F"): String(b"data.bin")})) == []


def test_filter_entry_that_is_not_a_name_is_reported_not_dropped():
    result = decode(b"abc", filter_chain(Dict({Name("Filter"): Array([5])})))
    assert result.data == b"abc" and result.steps[0].passthrough
    assert result.error == "unknown filter /<integer>"


# -- each filter against qpdf ------------------------------------------------------------


def test_flate_matches_pikepdf():
    result = check(zlib.compress(TEXT, 9), N.FlateDecode)
    (step,) = result.steps
    assert (step.name, step.size_out, step.error) == ("FlateDecode", len(TEXT), None)
    assert step.note is None


@pytest.mark.parametrize(
    "colors, bpc, columns",
    [(1, 8, 5), (3, 8, 7), (4, 8, 1), (1, 16, 3), (3, 16, 2), (1, 1, 13), (2, 4, 5), (1, 2, 9)],
)
@pytest.mark.parametrize("predictor", [10, 12, 15])
def test_png_predictor_all_row_types_match_pikepdf(colors, bpc, columns, predictor):
    rowlen = (colors * bpc * columns + 7) // 8
    raw = png_rows(colors * 100 + bpc * 10 + columns, rowlen, 60)
    parms = pikepdf.Dictionary(
        Predictor=predictor, Colors=colors, BitsPerComponent=bpc, Columns=columns
    )
    check(zlib.compress(raw), N.FlateDecode, parms)


@pytest.mark.parametrize(
    "colors, bpc, columns",
    [(1, 8, 16), (3, 8, 5), (2, 16, 4), (1, 1, 16), (3, 1, 5), (1, 2, 7), (3, 4, 5)],
)
def test_tiff_predictor_matches_pikepdf(colors, bpc, columns):
    rowlen = (colors * bpc * columns + 7) // 8
    raw = random_bytes(bpc * 1000 + columns, rowlen * 40)
    parms = pikepdf.Dictionary(Predictor=2, Colors=colors, BitsPerComponent=bpc, Columns=columns)
    check(zlib.compress(raw), N.FlateDecode, parms)


def test_xref_stream_sized_png_up_stream_matches_pikepdf():
    # 100 000 rows of /W [1 4 2] entries, /Predictor 12, as an xref stream of a big file.
    rng = random.Random(7)
    rows = b"".join(b"\x02" + rng.randbytes(7) for _ in range(100_000))
    check(zlib.compress(rows), N.FlateDecode, pikepdf.Dictionary(Predictor=12, Columns=7))


@pytest.mark.parametrize("early", [0, 1])
def test_lzw_early_change_matches_pikepdf(early):
    # 40 000 bytes of text fill the 4096-entry table several times: 9- to 12-bit codes
    # and clear codes.
    encoded = lzw_encode(TEXT, early)
    result = check(encoded, N.LZWDecode, pikepdf.Dictionary(EarlyChange=early))
    assert result.data == TEXT


def test_lzw_default_early_change_and_predictor_match_pikepdf():
    raw = png_rows(3, 6, 50)
    check(lzw_encode(raw, 1), N.LZWDecode, pikepdf.Dictionary(Predictor=12, Columns=6))
    check(lzw_encode(TEXT[:3000], 1), N.LZWDecode)


def test_ascii85_matches_pikepdf_with_z_whitespace_and_partial_group():
    data = TEXT[:997] + bytes(12) + b"end"
    encoded = base64.a85encode(data, wrapcol=64, adobe=True)[2:]  # PDF has no '<~'
    assert b"z" in encoded and b"\n" in encoded
    check(encoded, N.ASCII85Decode)
    check(b'87cU RD]i\n,"Ebo80~>', N.ASCII85Decode)


def test_ascii85_missing_end_marker_and_opening_delimiter_are_notes():
    expected, result = both(b'87cURD]i,"Ebo80', N.ASCII85Decode)
    assert result.data == expected == b"Hello World!"
    assert result.complete and "no '~>'" in result.steps[0].note
    result = decode(b'<~87cURD]i,"Ebo80~>', [("ASCII85Decode", None)])
    assert result.data == b"Hello World!" and "'<~'" in result.steps[0].note


def test_asciihex_matches_pikepdf_with_whitespace_and_odd_digit():
    check(base64.b16encode(TEXT[:500]).lower() + b">", N.ASCIIHexDecode)
    check(b"48 65\n6C6c 6f2>", N.ASCIIHexDecode)  # odd final digit: "2" reads as "20"
    check(b"616 2 6", N.ASCIIHexDecode)  # no '>'


def test_asciihex_bad_character_is_reported_with_its_offset():
    result = decode(b"6162x>", [("ASCIIHexDecode", None)])
    assert result.data == b"ab"
    assert result.error == "ASCIIHex: invalid character b'x' at input byte 4"


def test_runlength_matches_pikepdf():
    check(runlength_encode(11, 300), N.RunLengthDecode)


@pytest.mark.parametrize(
    "filters, encode",
    [
        ([N.ASCII85Decode, N.FlateDecode], lambda d: a85(zlib.compress(d))),
        ([N.ASCIIHexDecode, N.LZWDecode], lambda d: base64.b16encode(lzw_encode(d, 1)) + b">"),
        ([N.ASCII85Decode, N.RunLengthDecode], lambda d: a85(d + b"\x80")),
    ],
)
def test_filter_chains_match_pikepdf(filters, encode):
    data = TEXT[:2000] if filters[1] != N.RunLengthDecode else b"\x7f" + TEXT[:128]
    result = check(encode(data), pikepdf.Array(filters))
    assert [s.name for s in result.steps] == [str(f)[1:] for f in filters]
    assert result.steps[0].size_out == result.steps[1].size_in


def test_chain_with_predictor_only_on_second_filter_matches_pikepdf():
    raw = png_rows(5, 4, 30)
    encoded = a85(zlib.compress(raw))
    check(encoded, pikepdf.Array([N.ASCII85Decode, N.FlateDecode]),
          pikepdf.Array([None, pikepdf.Dictionary(Predictor=12, Columns=4)]))


# -- the corpus --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def filters_pdf():
    path = CORPUS / "pikepdf-stream-filters.pdf"
    if not path.exists():
        pytest.skip("corpus not available")
    with pikepdf.open(path) as pdf:
        yield pdf


def test_pikepdf_stream_filters_pdf_every_stream_matches_pikepdf(filters_pdf):
    seen = set()
    for obj in filters_pdf.objects:
        if not isinstance(obj, pikepdf.Stream):
            continue
        chain = filter_chain(ours(obj))
        result = decode(obj.read_raw_bytes(), chain)
        assert result.data == obj.read_bytes(pikepdf.StreamDecodeLevel.specialized), obj.objgen
        assert result.complete, (obj.objgen, result)
        seen.add(tuple((name, p.get("Predictor") if p else None) for name, p in chain))
    assert {(("FlateDecode", 15),), (("FlateDecode", 2),), (("FlateDecode", 12),),
            (("RunLengthDecode", None),),
            (("ASCII85Decode", None), ("RunLengthDecode", None))} <= seen


# -- limits and damage -------------------------------------------------------------------


def test_zip_bomb_stops_at_limit():
    bomb = zlib.compress(bytes(50_000_000), 9)
    result = decode(bomb, [("FlateDecode", None)], limit=100_000)
    assert result.data == bytes(100_000)
    assert result.error == "zlib: output exceeds limit of 100000 bytes"
    assert not result.complete


def test_output_exactly_at_limit_is_not_an_error():
    result = decode(zlib.compress(bytes(1000)), [("FlateDecode", None)], limit=1000)
    assert result.data == bytes(1000) and result.complete


@pytest.mark.parametrize(
    "name, bomb",
    [
        ("RunLengthDecode", b"\x81\x00" * 1000),
        ("ASCII85Decode", b"z" * 1000),
        ("LZWDecode", lzw_encode(bytes(200_000), 1)),
    ],
)
def test_other_expanding_filters_stop_at_limit(name, bomb):
    result = decode(bomb, [(name, None)], limit=333)
    assert result.data == bytes(333)
    assert result.error.endswith("output exceeds limit of 333 bytes")


def test_corrupt_flate_returns_partial_output_and_where_it_broke():
    good = zlib.compress(TEXT, 9)
    # zlib's own verdict on the damaged bytes, to compare our message and output with.
    damaged = good[:3000] + bytes(b ^ 0x55 for b in good[3000:3040]) + good[3040:]
    inflater = zlib.decompressobj()
    with pytest.raises(zlib.error) as caught:
        inflater.decompress(damaged)
    result = decode(damaged, [("FlateDecode", None)])
    reason = str(caught.value).split(": ", 1)[1]
    assert result.error.startswith(f"zlib: {reason} at input byte ")
    assert 3000 <= int(result.error.rsplit(" ", 1)[1]) < 3040
    # Everything the undamaged prefix inflates to is kept (and what zlib made of the
    # damaged bytes before it noticed follows it).
    before = zlib.decompressobj().decompress(good[:3000])
    assert len(before) > 1000 and result.data.startswith(before) and TEXT.startswith(before)


def test_truncated_flate_is_an_error_with_partial_output():
    good = zlib.compress(TEXT, 9)
    result = decode(good[: len(good) // 2], [("FlateDecode", None)])
    assert result.error.startswith("zlib: truncated")
    assert len(result.data) > 10_000 and TEXT.startswith(result.data)


def test_missing_adler32_is_a_note_and_data_is_complete():
    expected, result = both(zlib.compress(TEXT)[:-4], N.FlateDecode)
    assert result.data == expected == TEXT
    assert result.complete and "Adler-32" in result.steps[0].note


def test_wrong_adler32_is_an_error():
    good = zlib.compress(TEXT)
    result = decode(good[:-1] + bytes([good[-1] ^ 1]), [("FlateDecode", None)])
    assert result.data == TEXT and "Adler-32 checksum mismatch" in result.error


def test_raw_deflate_without_zlib_header_is_decoded_and_noted():
    packer = zlib.compressobj(wbits=-15)
    raw = packer.compress(TEXT) + packer.flush()
    with pytest.raises(pikepdf.PdfError):  # qpdf refuses it
        both(raw, N.FlateDecode)
    result = decode(raw, [("FlateDecode", None)])
    assert result.data == TEXT and result.complete
    assert "decoded as raw deflate" in result.steps[0].note


def test_lzw_code_not_in_table_returns_partial():
    # After clear, 'a', 'b' the table holds 259 entries (0-255, clear, EOD, "ab"): code
    # 259 would be the KwKwK case, 300 cannot be decoded.
    result = decode(pack_codes([(256, 9), (97, 9), (98, 9), (300, 9), (97, 9)]), [("LZW", None)])
    assert result.data == b"ab"
    assert result.error == "LZW: code 300 at input byte 3 is not in the table"


def test_runlength_cut_short_and_missing_eod():
    expected, result = both(b"\x02abc", N.RunLengthDecode)
    assert result.data == expected and result.complete and "no end-of-data" in result.steps[0].note
    result = decode(b"\x01ab\x05abc", [("RunLengthDecode", None)])
    assert result.data == b"ababc"
    cut = "run at input byte 3 (length byte 5) cut short by the end of the data"
    assert result.error == f"RunLength: {cut}"


def test_png_unknown_row_type_stops_at_that_row():
    rows = b"\x00abc\x01\x01\x01\x01\x07xyz\x00def"
    params = Dict({Name("Predictor"): 12, Name("Columns"): 3})
    result = decode(zlib.compress(rows), [("FlateDecode", params)])
    assert result.data == b"abc\x01\x02\x03"
    assert result.error == "PNG predictor: unknown row type 7 in row 2"


def test_wrong_decodeparms_types_fall_back_to_defaults_with_an_error():
    params = Dict({Name("Predictor"): String(b"12"), Name("Columns"): 4})
    result = decode(zlib.compress(b"\x02abcd"), [("FlateDecode", params)])
    assert result.data == b"\x02abcd"  # no predictor applied
    assert result.error == "DecodeParms: /Predictor is a string, not an integer; using 1"
    result = decode(zlib.compress(b"x"), [("FlateDecode", Array([1]))])
    assert result.data == b"x" and "not a dictionary" in result.error


# -- passthrough -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name", ["DCTDecode", "DCT", "JPXDecode", "CCITTFaxDecode", "CCF", "JBIG2Decode"]
)
def test_image_filters_pass_raw_bytes_and_stop_the_chain(name):
    result = decode(b"\xff\xd8 raw", [(name, None), ("FlateDecode", None)])
    assert result.data == b"\xff\xd8 raw"
    assert len(result.steps) == 1 and result.steps[0].passthrough and result.error is None
    assert not result.complete and result.image_filter == result.steps[0].name != "DCT"


def test_image_filter_after_a_decoding_filter_gets_the_decoded_bytes():
    result = decode(b"ffd8ffe0>", [("AHx", None), ("DCT", None)])
    assert result.data == b"\xff\xd8\xff\xe0" and result.image_filter == "DCTDecode"


def test_unknown_filter_is_a_passthrough_with_an_error():
    result = decode(b"abc", [("FooDecode", None), ("FlateDecode", None)])
    assert result.data == b"abc" and result.error == "unknown filter /FooDecode"
    assert result.steps[0].passthrough and result.image_filter is None


def test_crypt_identity_and_named_crypt_filters_pass_through():
    identity = decode(b"abc", [("Crypt", None), ("Crypt", Dict({Name("Name"): Name("Identity")}))])
    assert identity.data == b"abc" and identity.complete
    assert all(s.note is None for s in identity.steps)
    named = decode(b"abc", [("Crypt", Dict({Name("Name"): Name("StdCF")}))])
    assert named.data == b"abc" and named.complete and "/StdCF" in named.steps[0].note


# -- never raises ------------------------------------------------------------------------

CHAINS = [
    [("FlateDecode", None)],
    [("FlateDecode", Dict({Name("Predictor"): 15, Name("Columns"): 3, Name("Colors"): 2}))],
    [("Fl", Dict({Name("Predictor"): 2, Name("BitsPerComponent"): 4, Name("Columns"): 9}))],
    [("LZWDecode", None)],
    [("LZWDecode", Dict({Name("EarlyChange"): 0, Name("Predictor"): 12, Name("Columns"): 2}))],
    [("ASCII85Decode", None)],
    [("ASCIIHexDecode", None)],
    [("RunLengthDecode", None)],
    [("ASCIIHexDecode", None), ("RunLengthDecode", None)],
]
PARAM_KEYS = ["Predictor", "Colors", "BitsPerComponent", "Columns", "EarlyChange", "Name"]
PARAM_VALUES = st.one_of(
    st.none(), st.integers(-5, 20), st.floats(allow_nan=True), st.booleans(),
    st.builds(String, st.binary(max_size=3)), st.builds(Name, st.text(max_size=3)),
)


@settings(max_examples=300, deadline=None)
@given(data=st.binary(max_size=300), chain=st.sampled_from(CHAINS), limit=st.integers(0, 200))
def test_decode_never_raises_and_respects_the_limit(data, chain, limit):
    result = decode(data, chain, limit)
    assert len(result.data) <= limit
    assert len(result.steps) == len(chain)
    assert result.steps[-1].size_out == len(result.data)
    assert result.complete == (result.error is None)


@settings(max_examples=300, deadline=None)
@given(
    data=st.binary(max_size=200),
    name=st.sampled_from(["FlateDecode", "LZWDecode", "Crypt"]),
    params=st.dictionaries(
        st.sampled_from(PARAM_KEYS),
        PARAM_VALUES,
    ),
)
def test_decode_never_raises_on_any_decodeparms(data, name, params):
    chain = [(name, Dict({Name(k): v for k, v in params.items()}))]
    result = decode(zlib.compress(data) if name == "FlateDecode" else data, chain, 10_000)
    assert len(result.data) <= max(10_000, len(data))


# -- hostile parameters (issue 21): bounded before allocation, linear in the data ---------------
def _differenced(row: bytes, bpp: int) -> bytes:
    """Reference: undo Sub / TIFF differencing byte by byte."""
    out = bytearray(row)
    for j in range(bpp, len(out)):
        out[j] = (out[j] + out[j - bpp]) & 0xFF
    return bytes(out)


@pytest.mark.parametrize("colors", [3, 700, 5000, 20000])
def test_sub_and_tiff_with_many_colours_match_the_byte_by_byte_reference(colors):
    rng = random.Random(colors)
    row = bytes(rng.randrange(256) for _ in range(10_000))
    tiff = decode(zlib.compress(row), [("FlateDecode", Dict({Name("Predictor"): 2, Name("Colors"): colors,
                                                             Name("Columns"): 10_000 // colors or 1}))])
    assert tiff.data[:colors * (10_000 // colors)] == _differenced(row, colors)[:colors * (10_000 // colors)]
    png = decode(zlib.compress(b"\x01" + row), [("FlateDecode", Dict({Name("Predictor"): 11, Name("Colors"): colors,
                                                                       Name("Columns"): 10_000 // colors}))])
    rowlen = colors * (10_000 // colors)
    assert png.data[:rowlen] == _differenced(row[:rowlen], colors)


def test_a_huge_one_bit_tiff_row_is_linear_not_quadratic():
    # a 1.8 KB file hung here: every value was shifted out of one big integer
    row = bytes([0b10000000]) + bytes(1_999_999)
    result = decode(zlib.compress(row), [("FlateDecode", Dict({Name("Predictor"): 2, Name("BitsPerComponent"): 1,
                                                               Name("Columns"): 16_000_000}))])
    assert result.data == b"\xff" * 2_000_000  # the running sum of one set bit sets every bit after it
    assert result.error is None


def test_paeth_rows_are_undone_up_to_the_slow_rows_limit(monkeypatch):
    from pdfinspect.core.filters import predictors

    monkeypatch.setattr(predictors, "SLOW_ROWS_LIMIT", 3000)
    rows = (b"\x04" + b"\x01" * 1000) * 5
    result = decode(zlib.compress(rows), [("FlateDecode", Dict({Name("Predictor"): 15, Name("Columns"): 1000}))])
    assert len(result.data) == 3000 and "row 3 on" in result.error
