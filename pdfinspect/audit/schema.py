"""The audit's record schema, versioned: one table of fields is the documentation (the README
shows it), the JSON lines and the Parquet schema.

Three kinds of records, each in its own shards: ``files`` (one per input file, ok or failed),
``fonts`` (one per font a file draws with) and, with ``--page-records``, ``pages`` (one per
page audited). Raise :data:`SCHEMA_VERSION` when a field
changes meaning or type; adding a field keeps the version only if readers can ignore it.
"""
from __future__ import annotations

SCHEMA_VERSION = 1
KINDS = ("files", "fonts", "pages")

# (name, type, description). Types: str, int, float, bool, list[str], map[str,int], reasons.
FILE_FIELDS = (
    ("schema_version", "int", "version of this schema"),
    ("path", "str", "absolute path of the input file (the key --resume matches)"),
    ("sha256", "str", "SHA-256 of the file's bytes, hex (null if it could not be read)"),
    ("size", "int", "file size in bytes"),
    ("status", "str", "`ok` or `failed`"),
    ("error_class", "str", "why it failed: the exception's class, `Timeout` or `WorkerDied`"),
    ("error", "str", "one-line message of the failure"),
    ("elapsed", "float", "seconds spent on the file (wall clock)"),
    ("producer", "str", "Info /Producer"),
    ("creator", "str", "Info /Creator"),
    ("pdf_version", "str", "header version (catalog /Version when it is newer)"),
    ("encrypted", "bool", "whether the file has an /Encrypt dictionary"),
    ("page_count", "int", "pages in the page tree"),
    ("pages_audited", "int", "pages whose content was read (see --pages)"),
    ("fonts", "int", "number of font records of the file"),
    ("fonts_with_reasons", "int", "fonts with at least one reason"),
    ("reasons", "list[str]", "distinct reason ids over the file's fonts, sorted"),
    ("diagnostics", "int", "repairs and warnings met while reading the file"),
    ("max_rss_mb", "float", "peak resident memory of the worker process so far, MB"),
    ("pdfinspect_version", "str", "version of pdfinspect that wrote the record"),
)
FONT_FIELDS = (
    ("schema_version", "int", "version of this schema"),
    ("path", "str", "the file (joins with `files.path`)"),
    ("sha256", "str", "the file's SHA-256"),
    ("font_ref", "str", "the font dictionary's reference, `12 0 R` (null for a direct font)"),
    ("program_sha256", "str", "fingerprint of the embedded font program: SHA-256 of its decoded bytes with "
                              "subset tags (`ABCDEF+`) taken out, so one program embedded by many files counts "
                              "once (null when not embedded)"),
    ("names", "list[str]", "resource names the pages use for the font (`F1`…)"),
    ("subtype", "str", "/Subtype: Type1, TrueType, Type0, Type3…"),
    ("base_font", "str", "/BaseFont"),
    ("first_page", "int", "first page that draws with the font"),
    ("pages_used", "int", "pages that draw with the font"),
    ("codes", "int", "distinct codes drawn"),
    ("methods", "map[str,int]", "distinct codes by the method that gave their Unicode"),
    ("confidence", "map[str,int]", "distinct codes by confidence of that method (spec, heuristic, guess, none)"),
    ("reasons", "reasons", "list of {id, count, codes, detail}: a stable reason id, how many codes "
                           "it affects, up to 8 example codes (hex) and a one-line detail"),
    ("diagnosis", "str", "one-line diagnosis written from the reasons"),
)
PAGE_FIELDS = (
    ("schema_version", "int", "version of this schema"),
    ("path", "str", "the file (joins with `files.path`)"),
    ("sha256", "str", "the file's SHA-256"),
    ("page", "int", "page number, from 1"),
    ("glyphs", "int", "glyphs drawn (annotation appearances included)"),
    ("chars", "int", "characters their text gives (Tika's `pdf:charsPerPage`)"),
    ("unmapped", "int", "glyphs the font gives no Unicode for by the spec's methods (ToUnicode, encoding "
                        "and glyph list, collection CMap): Tika's `pdf:unmappedUnicodeCharsPerPage`"),
    ("confidence", "map[str,int]", "glyphs by the confidence of the method that gave their text "
                                   "(spec, heuristic, guess, none)"),
    ("fffd", "int", "U+FFFD replacement characters in the text"),
    ("private_use", "int", "private-use characters in the text"),
    ("control", "int", "control characters in the text"),
    ("hidden", "int", "glyphs drawn but not seen by a reader (`content.visibility`: clipped, off the page, "
                      "invisible render mode, transparent, tiny, covered, background-coloured, duplicate, in a layer that is off)"),
)
FIELDS = {"files": FILE_FIELDS, "fonts": FONT_FIELDS, "pages": PAGE_FIELDS}
EXAMPLE_CODES = 8  # example codes kept per reason


def arrow_schema(kind: str):
    """The Parquet (pyarrow) schema of ``kind``; pyarrow must be importable."""
    import pyarrow as pa

    reason = pa.struct([("id", pa.string()), ("count", pa.int64()), ("codes", pa.list_(pa.string())),
                        ("detail", pa.string())])
    types = {"str": pa.string(), "int": pa.int64(), "float": pa.float64(), "bool": pa.bool_(),
             "list[str]": pa.list_(pa.string()), "map[str,int]": pa.map_(pa.string(), pa.int64()),
             "reasons": pa.list_(reason)}
    return pa.schema([(name, types[t]) for name, t, _ in FIELDS[kind]])


def normalize(record: dict, kind: str) -> dict:
    """A record read back from any format as plain JSON values, fields in schema order
    (Parquet maps come back as lists of pairs)."""
    out = {}
    for name, t, _ in FIELDS[kind]:
        v = record.get(name)
        if t == "map[str,int]" and isinstance(v, list):
            v = dict(v)
        out[name] = v
    return out


def markdown_table(kind: str) -> str:
    """The fields of ``kind`` as a Markdown table (for the README)."""
    rows = [f"| `{n}` | {t} | {d} |" for n, t, d in FIELDS[kind]]
    return "\n".join(["| field | type | meaning |", "| --- | --- | --- |", *rows])
