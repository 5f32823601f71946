"""Objects in qpdf's JSON v2 layout (the layout of ``qpdf --json=2 --json-key=qpdf``).

Names are ``"/X"``, references ``"N G R"``, strings ``"u:text"`` when they read as text
and ``"b:hex"`` otherwise, streams ``{"stream": {"dict": …, "data": base64}}``.
"""
from __future__ import annotations

import base64

from .diagnostics import warning
from .document import Document
from .objects import Array, Dict, Name, Ref, Stream, String
from .serialize import is_whole
from .textstrings import decode_text

# What qpdf's --decode-level=generalized decodes; RunLengthDecode belongs to its
# "specialized" level, image filters to "all".
GENERALIZED = frozenset({"FlateDecode", "LZWDecode", "ASCII85Decode", "ASCIIHexDecode"})

# qpdf writes a string as text when every byte is printable ISO Latin-1.
_LATIN1_PRINTABLE = frozenset(range(0x20, 0x7F)) | frozenset(range(0xA0, 0x100))


def json_string(s: String) -> str:
    raw = s.value
    if raw.startswith((b"\xfe\xff", b"\xef\xbb\xbf")):
        return "u:" + decode_text(raw)
    if all(b in _LATIN1_PRINTABLE for b in raw):
        return "u:" + decode_text(raw)
    return "b:" + raw.hex()


def json_name(n: Name) -> str:
    raw = n.encode("latin-1")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return "n:/" + "".join(chr(b) if 0x21 <= b < 0x7F and b != 0x23 else f"#{b:02x}" for b in raw)
    return "/" + text


def to_json(value):
    if value is None or isinstance(value, (bool, int)):
        return value
    if isinstance(value, float):
        return int(value) if is_whole(value) else value
    if isinstance(value, Name):
        return json_name(value)
    if isinstance(value, String):
        return json_string(value)
    if isinstance(value, Ref):
        return f"{value.num} {value.gen} R"
    if isinstance(value, Array):
        return [to_json(v) for v in value]
    if isinstance(value, Dict):
        return {json_name(k): to_json(v) for k, v in value.items()}
    return None


def document_json(doc: Document, decode: bool = False, revision: int | None = None) -> dict:
    """The whole document as qpdf JSON v2 (``--json-stream-data=inline``).

    A stream that fails to decode is written raw with its filters, as qpdf does, and the
    failure is added to ``doc.diagnostics``.
    """
    objects: dict[str, dict] = {}
    for obj in doc.iter_objects(revision, cache=False):
        key = f"obj:{obj.num} {obj.gen} R"
        v = obj.value
        if isinstance(v, Stream):
            d = to_json(v.dict)
            chain_names = _chain_names(doc, v.dict)
            if decode and chain_names and all(n in GENERALIZED for n in chain_names):
                res = doc.stream_data(obj)
                if res.error:
                    data = doc.stream_data(obj, decode_filters=False).data
                    doc.diagnostics.append(warning(
                        "stream-decode", f"stream {obj.num} {obj.gen}: {res.error}; written undecoded",
                        offset=v.data_offset, ref=(obj.num, obj.gen), clause="7.4"))
                else:
                    data = res.data
                    for k in ("/Filter", "/DecodeParms"):
                        d.pop(k, None)
            else:
                data = doc.stream_data(obj, decode_filters=False).data
            d.pop("/Length", None)
            objects[key] = {"stream": {"data": base64.b64encode(data).decode("ascii"), "dict": d}}
        else:
            objects[key] = {"value": to_json(v)}
    trailer = Dict(doc.revisions[revision if revision is not None else -1].trailer) if doc.revisions else Dict()
    for k in ("Prev", "XRefStm", "W", "Index", "Type", "Filter", "DecodeParms", "Length"):
        trailer.pop(k, None)
    objects["trailer"] = {"value": to_json(trailer)}
    nums = doc.object_numbers(revision)
    header = {
        "jsonversion": 2,
        "pdfversion": doc.version or "",
        "pushedinheritedpageresources": False,
        "calledgetallpages": False,
        "maxobjectid": max(nums) if nums else 0,
    }
    return {"version": 2, "parameters": {"decodelevel": "generalized" if decode else "none"},
            "qpdf": [header, objects]}


def _chain_names(doc: Document, d: Dict) -> list[str]:
    f = doc.resolve(d.get("Filter"))
    if isinstance(f, Name):
        return [str(f)]
    if isinstance(f, Array):
        return [str(doc.resolve(x)) for x in f]
    return []
