"""Stream filters (ISO 32000 7.4): read a stream's filter chain and decode it, bounded.

``filter_chain(stream_dict)`` reads /Filter and /DecodeParms; ``decode(data, chain)``
applies the chain and returns a :class:`DecodeResult` whose steps say, per filter, what
went in, what came out and what was wrong. Nothing here raises on bad bytes or bad
parameters (habit 3):

- every decoding step's output is capped at ``limit`` bytes (:data:`DEFAULT_LIMIT`);
  passing it is an error and the first ``limit`` bytes are kept (Crypt and passthrough
  steps hand their input on unchanged, whatever its size);
- a step that fails keeps its partial output, and the rest of the chain still runs on it,
  so a damaged stream shows as much decoded data as can be had; ``DecodeResult.error`` is
  the first error;
- a ``note`` on a step records a leniency that lost nothing (missing end marker, missing
  Adler-32 checksum, raw deflate without a zlib header); notes leave the result complete;
- image filters (DCT, JPX, CCITTFax, JBIG2) and unknown filters are passthrough steps:
  their input is returned raw and later filters are not applied;
- Crypt passes data through: the Document decrypts before decoding (7.4.10, 7.6.5).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pdfinspect.core.filters.ascii85 import decode_ascii85
from pdfinspect.core.filters.asciihex import decode_asciihex
from pdfinspect.core.filters.base import Decoded, Decoder, join
from pdfinspect.core.filters.flate import decode_flate
from pdfinspect.core.filters.lzw import decode_lzw
from pdfinspect.core.filters.predictors import apply_predictor
from pdfinspect.core.filters.runlength import decode_runlength
from pdfinspect.core.objects import Dict, Name, type_name

__all__ = [
    "ABBREVIATIONS",
    "DEFAULT_LIMIT",
    "IMAGE_FILTERS",
    "DecodeResult",
    "FilterStep",
    "decode",
    "filter_chain",
]

DEFAULT_LIMIT = 256 * 1024 * 1024

#: Abbreviated filter names of inline images (ISO 32000 8.9.7), also accepted
#: in stream dictionaries as most readers do.
ABBREVIATIONS = {
    "AHx": "ASCIIHexDecode",
    "A85": "ASCII85Decode",
    "LZW": "LZWDecode",
    "Fl": "FlateDecode",
    "RL": "RunLengthDecode",
    "CCF": "CCITTFaxDecode",
    "DCT": "DCTDecode",
}

#: Filters that decode to image samples (7.4.6–7.4.9): shown raw with their parameters.
IMAGE_FILTERS = frozenset({"DCTDecode", "JPXDecode", "CCITTFaxDecode", "JBIG2Decode"})


@dataclass(frozen=True, slots=True)
class FilterStep:
    """One filter of a chain as applied: canonical name, parameters, sizes and verdict.

    ``error`` is one line when the step lost or doubted data; ``note`` is one line when it
    was lenient without losing anything. ``passthrough`` marks an image or unknown filter
    whose input was handed on raw.
    """

    name: str
    params: Dict | None
    size_in: int
    size_out: int
    error: str | None
    passthrough: bool = False
    note: str | None = None
    whole: bool = False  # the error is a failed check; the output is complete


@dataclass(frozen=True, slots=True)
class DecodeResult:
    """The decoded bytes (partial when a step failed) and the steps that produced them."""

    data: bytes
    steps: tuple[FilterStep, ...]
    error: str | None

    @property
    def complete(self) -> bool:
        """True when no step failed and none was passed through."""
        return self.error is None and not any(s.passthrough for s in self.steps)

    @property
    def whole(self) -> bool:
        """True when every step decoded all it was given: no error but a failed check of
        complete output (a wrong Adler-32), which qpdf, MuPDF and pdf.js accept."""
        return not any(s.passthrough or (s.error and not s.whole) for s in self.steps)

    @property
    def image_filter(self) -> str | None:
        """The first image filter the chain stopped at, if any."""
        images = (s.name for s in self.steps if s.passthrough and s.name in IMAGE_FILTERS)
        return next(images, None)


def _predicted(decoder: Decoder) -> Decoder:
    """``decoder`` followed by the predictor its /DecodeParms ask for (7.4.4.4)."""

    def decode_then_unpredict(data: bytes, params: Dict | None, limit: int) -> Decoded:
        decoded = decoder(data, params, limit)
        unpredicted = apply_predictor(decoded.data, params)
        return Decoded(unpredicted.data, join(decoded.error, unpredicted.error), decoded.note,
                       decoded.whole and unpredicted.error is None)

    return decode_then_unpredict


def _crypt(data: bytes, params: Dict | None, limit: int) -> Decoded:
    """Crypt (7.4.10): /Identity passes through; other crypt filters were applied already."""
    name = params.get("Name") if params is not None else None
    if name is None or name == "Identity":
        return Decoded(data)
    shown = f"/{name}" if isinstance(name, Name) else f"a {type_name(name)} /Name"
    return Decoded(data, None, f"Crypt filter {shown} passed through (the Document decrypts)")


#: Filter name → decoder; every entry is a complete decoder (7.4.1, Table 6).
DECODERS: dict[str, Decoder] = {
    "ASCIIHexDecode": decode_asciihex,
    "ASCII85Decode": decode_ascii85,
    "LZWDecode": _predicted(decode_lzw),
    "FlateDecode": _predicted(decode_flate),
    "RunLengthDecode": decode_runlength,
    "Crypt": _crypt,
}


def _filter_name(obj: Any) -> str:
    """A /Filter entry as a name; anything else gets a name that no filter has."""
    return str(obj) if isinstance(obj, Name) else f"<{type_name(obj)}>"


def _as_dict(obj: Any) -> Dict | None:
    if isinstance(obj, Dict) or obj is None:
        return obj
    return Dict(obj) if isinstance(obj, dict) else None


def filter_chain(stream_dict: Dict) -> list[tuple[str, Dict | None]]:
    """The filters of a stream in the order they are to be applied, with their parameters.

    /Filter is a name or an array; /DecodeParms a dictionary, an array of dictionaries and
    nulls, or missing (7.3.8.2, Table 5). The inline-image keys /F and /DP are read when the
    full keys are absent (/F only when it holds names: in a stream it is a file
    specification). Lengths need not match: missing parameters are ``None``, extra ones are
    ignored, and a lone dictionary goes to the first filter. A /Filter entry that is not a
    name becomes ``"<type>"``, which :func:`decode` reports as an unknown filter.
    """
    filters = stream_dict.get("Filter")
    if filters is None:
        short = stream_dict.get("F")
        filters = short if isinstance(short, (Name, list)) else None
    params = stream_dict.get("DecodeParms")
    if params is None:
        params = stream_dict.get("DP")
    if not isinstance(filters, list):
        filters = [] if filters is None else [filters]
    names = [_filter_name(f) for f in filters]
    dicts = [_as_dict(p) for p in (params if isinstance(params, list) else [params])]
    return [(n, dicts[i] if i < len(dicts) else None) for i, n in enumerate(names)]


def decode(
    data: bytes, chain: list[tuple[str, Dict | None]], limit: int = DEFAULT_LIMIT
) -> DecodeResult:
    """Apply ``chain`` (from :func:`filter_chain`) to ``data``; never raises on bad input.

    Raises ``ValueError`` only for a negative ``limit`` (a caller error).
    """
    if limit < 0:
        raise ValueError(f"limit must be >= 0, not {limit}")
    data = bytes(data)
    steps: list[FilterStep] = []
    for name, params in chain:
        canonical = ABBREVIATIONS.get(name, name)
        decoder = DECODERS.get(canonical)
        if decoder is None:
            unknown = None if canonical in IMAGE_FILTERS else f"unknown filter /{name}"
            steps.append(FilterStep(canonical, params, len(data), len(data), unknown, True))
            break
        bad = None
        if params is not None and not isinstance(params, dict):
            bad = f"DecodeParms is a {type_name(params)}, not a dictionary; using defaults"
            params = None
        out = decoder(data, params, limit)
        error = join(bad, out.error)
        steps.append(FilterStep(canonical, params, len(data), len(out.data), error, note=out.note,
                                whole=out.whole and bad is None))
        data = out.data
    first = next((s.error for s in steps if s.error), None)
    return DecodeResult(data, tuple(steps), first)
