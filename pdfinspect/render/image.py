"""Image XObjects and inline images as pictures (ISO 32000-1 8.9): the decoded samples read
with their /ColorSpace and /BitsPerComponent into a Pillow image, or the JPEG / JPEG 2000
data as it is stored. What Pillow cannot read (CCITT fax, JBIG2, Lab, 16-bit indexed…)
is an :class:`ImageError` that says why, never a guess."""
from __future__ import annotations

import io

from ..core.objects import Array, Dict, Name, Stream, String, is_integer

# Inline images may abbreviate keys and names (8.9.7, Table 93 and 94).
_KEYS = {"W": "Width", "H": "Height", "BPC": "BitsPerComponent", "CS": "ColorSpace", "IM": "ImageMask",
         "D": "Decode", "F": "Filter", "DP": "DecodeParms"}
_SPACES = {"G": "DeviceGray", "RGB": "DeviceRGB", "CMYK": "DeviceCMYK", "I": "Indexed"}
# (colour space, bits) → Pillow mode and raw decoder mode
_GRAY = {1: ("1", "1"), 2: ("L", "L;2"), 4: ("L", "L;4"), 8: ("L", "L"), 16: ("L", "L;16B")}
_RGB = {8: ("RGB", "RGB"), 16: ("RGB", "RGB;16B")}
_CMYK = {8: ("CMYK", "CMYK")}
_INDEXED = {1: "P;1", 2: "P;2", 4: "P;4", 8: "P"}
PASSED_THROUGH = {"DCTDecode": ".jpg", "JPXDecode": ".jp2"}
MAX_SAMPLES = 64 << 20  # bytes of samples a short image is padded to at most


class ImageError(Exception):
    """An image that cannot be turned into a picture (the message says why)."""


def is_image(value) -> bool:
    return isinstance(value, Stream) and value.dict.get("Subtype") == "Image"


def inline_dict(params: Dict) -> Dict:
    """An inline image's parameters under the full key and colour space names."""
    out = Dict()
    for k, v in params.items():
        key = _KEYS.get(str(k), str(k))
        if key == "ColorSpace" and isinstance(v, Name):
            v = Name(_SPACES.get(str(v), str(v)))
        out[key] = v
    return out


def inline_picture(doc, params: Dict, raw: bytes, limit: int):
    """A Pillow image of an inline image (8.9.7): its abbreviated parameters and its bytes as
    they stand between ``ID`` and ``EI``, decoded through its filters (abbreviated or not).
    A colour space named in the page's resources is not looked up: say so (ImageError)."""
    from ..core.filters import decode, filter_chain

    d = inline_dict(params)
    space = d.get("ColorSpace")
    if isinstance(space, Name) and not str(space).startswith("Device"):
        raise ImageError(f"colour space /{space} is a name in the page's resources; not looked up here")
    res = decode(raw, filter_chain(params), limit)
    if res.error:
        raise ImageError(f"inline image data: {res.error}")
    return picture(doc, d, res.data, res.image_filter)


def stored_file(image_filter: str | None) -> str | None:
    """The suffix under which data stopped at ``image_filter`` is a file of its own."""
    return PASSED_THROUGH.get(image_filter or "")


def picture(doc, d: Dict, data: bytes, image_filter: str | None):
    """A Pillow image of an image whose dictionary is ``d`` and whose data, decoded up to
    ``image_filter`` (the image filter the chain stopped at, or None), is ``data``."""
    from PIL import Image

    if image_filter in PASSED_THROUGH:
        try:
            image = Image.open(io.BytesIO(data))
            image.load()
            return image
        except Exception as e:  # Pillow's own errors on damaged data
            raise ImageError(f"{image_filter} data Pillow cannot read: {e}") from None
    if image_filter is not None:
        raise ImageError(f"{image_filter} images are not decoded here (use extract --raw for the data)")
    r = doc.resolve
    w, h = r(d.get("Width")), r(d.get("Height"))
    if not (is_integer(w) and is_integer(h)) or w <= 0 or h <= 0 or w * h > 100_000_000:
        raise ImageError(f"/Width {w} /Height {h} is not a usable image size")
    if r(d.get("ImageMask")) is True:
        return _frombytes("1", "1", w, h, 1, 1, data)
    bpc = r(d.get("BitsPerComponent"))
    bpc = bpc if is_integer(bpc) else 8
    space = r(d.get("ColorSpace"))
    family, base, extra = _space(doc, space)
    if family == "Indexed":
        hival, lookup = extra
        if bpc not in _INDEXED:
            raise ImageError(f"an indexed image of {bpc} bits per component is not supported")
        base_family, n = base
        if base_family not in ("DeviceGray", "DeviceRGB", "DeviceCMYK"):
            raise ImageError(f"an indexed image over {base_family} is not supported")
        palette = _palette(lookup, hival, n)
        image = _frombytes("P", _INDEXED[bpc], w, h, 1, bpc, data)
        image.putpalette(palette)
        return image.convert("RGB")
    table = {"DeviceGray": _GRAY, "DeviceRGB": _RGB, "DeviceCMYK": _CMYK}.get(family)
    if table is None or bpc not in table:
        raise ImageError(f"{family} images of {bpc} bits per component are not supported")
    mode, raw = table[bpc]
    comps = {"DeviceGray": 1, "DeviceRGB": 3, "DeviceCMYK": 4}[family]
    image = _frombytes(mode, raw, w, h, comps, bpc, data)
    return image.convert("RGB") if mode == "CMYK" else image


def _frombytes(mode, raw, w, h, comps, bpc, data):
    from PIL import Image

    need = (w * comps * bpc + 7) // 8 * h
    if need > MAX_SAMPLES and len(data) < need:  # a few bytes may claim a huge image: no padding that big
        raise ImageError(f"{w}×{h} needs {need:,} bytes of samples and the data has {len(data):,}")
    if len(data) < need:  # a short image is padded, as viewers do, and drawn anyway
        data = data + b"\xff" * (need - len(data))
    return Image.frombytes(mode, (w, h), data[:need], "raw", raw)


def _space(doc, space):
    """(family, base, extra) of a colour space: ICCBased by its /N, Cal* as Device*."""
    r = doc.resolve
    if isinstance(space, Name):
        name = str(space)
        return {"CalRGB": "DeviceRGB", "CalGray": "DeviceGray"}.get(name, name), None, None
    if isinstance(space, Array) and space:
        kind = str(r(space[0]))
        if kind == "ICCBased" and len(space) > 1:
            stream = r(space[1])
            n = r(stream.dict.get("N")) if isinstance(stream, Stream) else None
            return {1: "DeviceGray", 3: "DeviceRGB", 4: "DeviceCMYK"}.get(n, f"ICCBased N {n}"), None, None
        if kind in ("CalRGB", "CalGray"):
            return ("DeviceRGB" if kind == "CalRGB" else "DeviceGray"), None, None
        if kind in ("Indexed", "I") and len(space) == 4:
            base_family = _space(doc, r(space[1]))[0]
            n = {"DeviceGray": 1, "DeviceRGB": 3, "DeviceCMYK": 4}.get(base_family, 0)
            lookup = r(space[3])
            if isinstance(lookup, Stream):
                obj = doc.get(space[3].num, space[3].gen) if hasattr(space[3], "num") else None
                lookup = doc.stream_data(obj).data if obj is not None else b""
            elif isinstance(lookup, String):
                lookup = lookup.value
            hival = r(space[2])
            return "Indexed", (base_family, n), (hival if is_integer(hival) else 255, bytes(lookup or b""))
        return kind, None, None
    return "DeviceGray" if space is None else str(space), None, None


def _palette(lookup: bytes, hival: int, n: int) -> list[int]:
    from PIL import Image

    count = max(0, min(hival, 255)) + 1
    table = lookup[:count * n].ljust(count * n, b"\x00")
    if n == 3:
        rgb = table
    elif n == 1:
        rgb = bytes(v for g in table for v in (g, g, g))
    else:
        rgb = Image.frombytes("CMYK", (count, 1), table).convert("RGB").tobytes()
    return list(rgb)
