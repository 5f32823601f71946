"""Every object of sample_pdfs/ and ../shared/corpus/ compared with pikepdf (qpdf), our oracle."""
from __future__ import annotations

from decimal import Decimal

import pikepdf
import pytest

from pdfinspect.core.document import Document
from pdfinspect.core.objects import Array, Dict, Name, Ref, Stream, String

from conftest import SAMPLES, corpus_files

PASSWORDS = {"qpdf-aes-256-userpw.pdf": "opensesame"}


def _files():
    files = [p for p in corpus_files() if not p.name.startswith("damaged-")]
    files += [p for p in sorted(SAMPLES.glob("*.pdf")) if not p.name.startswith("damaged-")]
    return files


def theirs(o, top=True):
    if isinstance(o, pikepdf.Object) and not top and o.is_indirect:
        return ("ref", o.objgen[0], o.objgen[1])
    if isinstance(o, pikepdf.Stream):
        return theirs(o.stream_dict, top=True)
    if isinstance(o, pikepdf.Dictionary):
        return {k[1:]: theirs(v, False) for k, v in o.items()}
    if isinstance(o, pikepdf.Array):
        return [theirs(v, False) for v in o]
    if isinstance(o, pikepdf.Name):
        return ("name", str(o)[1:])
    if isinstance(o, pikepdf.String):
        return bytes(o)
    if isinstance(o, bool) or o is None:
        return o
    if isinstance(o, (int, float, Decimal)):
        return round(float(o), 4)
    if isinstance(o, pikepdf.Object) and o._type_code == pikepdf.ObjectType.null:
        return None
    raise TypeError(type(o))


def ours(v):
    if isinstance(v, Ref):
        return ("ref", v.num, v.gen)
    if isinstance(v, Stream):
        return ours(v.dict)
    if isinstance(v, Dict):
        return {str(k): ours(x) for k, x in v.items()}
    if isinstance(v, Array):
        return [ours(x) for x in v]
    if isinstance(v, Name):
        return ("name", str(v))
    if isinstance(v, String):
        return v.value
    if isinstance(v, bool) or v is None:
        return v
    return round(float(v), 4)


def _drop_nulls(d):
    """qpdf drops dictionary keys whose value is null (7.3.7: same as absent)."""
    if isinstance(d, dict):
        return {k: _drop_nulls(v) for k, v in d.items() if v is not None}
    if isinstance(d, list):
        return [_drop_nulls(v) for v in d]
    return d


@pytest.mark.parametrize("path", _files(), ids=lambda p: p.name)
def test_every_object_agrees_with_pikepdf(path):
    password = PASSWORDS.get(path.name, "")
    try:
        ref = pikepdf.open(path, password=password, inherit_page_attributes=False)
    except pikepdf.PdfError as e:
        pytest.skip(f"qpdf cannot open {path.name}: {e}")
    doc = Document.open(path, password=password)
    compared = 0
    with ref:
        # pikepdf turns scalar objects into Python values without an objgen, so the numbers
        # to visit are qpdf's (non-scalar) objects plus all of ours.
        ids = {o.objgen for o in ref.objects if isinstance(o, pikepdf.Object)}
        ids |= {(n, doc.get(n).gen) for n in doc.object_numbers()}
        for num, gen in sorted(ids):
            o = ref.get_object((num, gen))
            if num == 0:
                continue
            if isinstance(o, pikepdf.Dictionary) and o.get("/Type") == "/XRef":
                continue  # qpdf drops xref streams from its object table
            mine = doc.get(num, gen)
            assert mine is not None, f"object {num} {gen} missing"
            a, b = _drop_nulls(ours(mine.value)), _drop_nulls(theirs(o))
            if isinstance(o, pikepdf.Stream):
                a.pop("Length", None), b.pop("Length", None)
                assert a == b, f"object {num} {gen} dict differs"
                assert doc.stream_data(mine, decode_filters=False).data == o.read_raw_bytes(), \
                    f"object {num} {gen} raw stream data differs"
            else:
                assert a == b, f"object {num} {gen} differs"
            compared += 1
    assert compared > 0
