"""Optional content a viewer hides by default (ISO 32000-1 8.11).

A page's content may belong to optional content groups: marked content ``/OC /Name BDC``
whose /Properties entry is an OCG or OCMD (8.11.3.2), and form XObjects with an /OC entry
(8.11.3.3). The catalog's /OCProperties /D configuration says which groups are on (8.11.4.3:
/BaseState, then /ON and /OFF); a membership dictionary combines its /OCGs by /P (AnyOn by
default; /VE is not evaluated). :func:`hidden_content` lists what is off on one page, so a
glyph record can be tested with :meth:`OptionalContent.hides`.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..core.objects import Array, Dict, Name, Ref, Stream
from ..core.pages import inherited

MAX_FORMS = 256  # form XObjects visited per page


@dataclass(frozen=True, slots=True)
class OptionalContent:
    """What the default configuration turns off on a page: marked-content property names per
    content stream (the page or form ``Ref`` whose /Resources name them), and form XObjects
    (with the forms they draw)."""

    off_marks: frozenset[tuple[Ref | None, str]] = frozenset()
    off_forms: frozenset[Ref] = frozenset()

    def hides(self, step) -> bool:
        """The content of ``step`` (an interpreter step) is in optional content that is off."""
        if step.source is not None and step.source in self.off_forms:
            return True
        return any(m.tag == "OC" and m.properties is not None and (step.source, m.properties) in self.off_marks
                   for m in step.marked)


def _off_groups(doc) -> set[Ref] | None:
    """The OCGs the default configuration turns off; ``None`` when the document has no
    optional content."""
    props = doc.resolve(doc.catalog.get("OCProperties"))
    if not isinstance(props, Dict):
        return None
    groups = doc.resolve(props.get("OCGs"))
    every = {g for g in groups if isinstance(g, Ref)} if isinstance(groups, Array) else set()
    d = doc.resolve(props.get("D"))
    d = d if isinstance(d, Dict) else Dict()
    on_list, off_list = doc.resolve(d.get("ON")), doc.resolve(d.get("OFF"))
    on = {g for g in on_list if isinstance(g, Ref)} if isinstance(on_list, Array) else set()
    off = {g for g in off_list if isinstance(g, Ref)} if isinstance(off_list, Array) else set()
    if doc.resolve(d.get("BaseState")) == Name("OFF"):
        return (every | off) - on
    return off - on


def _is_off(doc, value, off: set[Ref]) -> bool:
    """An OCG or OCMD (8.11.2) is off under the default configuration."""
    obj = doc.resolve(value)
    if not isinstance(obj, Dict):
        return False
    if obj.get("Type") != Name("OCMD"):
        return isinstance(value, Ref) and value in off
    members = doc.resolve(obj.get("OCGs"))
    refs = [m for m in (members if isinstance(members, Array) else [members]) if isinstance(m, Ref)]
    if not refs:
        return False
    states = [m not in off for m in refs]
    policy = doc.resolve(obj.get("P"))
    if policy == Name("AllOn"):
        return not all(states)
    if policy == Name("AnyOff"):
        return all(states)
    if policy == Name("AllOff"):
        return any(states)
    return not any(states)


def hidden_content(doc, page_ref: Ref) -> OptionalContent:
    """The optional content of the page at ``page_ref`` that is off by default: /OC marked
    content in the page's and its forms' content, and forms with an /OC that is off (each
    form they draw hidden with them)."""
    off = _off_groups(doc)
    if not off:
        return OptionalContent()
    marks: set[tuple[Ref | None, str]] = set()
    forms: set[Ref] = set()
    seen: set[Ref] = set()
    page = doc.resolve(page_ref)
    todo: list[tuple[Ref | None, object, bool]] = [(page_ref, inherited(doc, page, "Resources"), False)]
    while todo and len(seen) < MAX_FORMS:
        source, resources, hidden = todo.pop()
        res = doc.resolve(resources)
        if not isinstance(res, Dict):
            continue
        properties = doc.resolve(res.get("Properties"))
        if isinstance(properties, Dict):
            marks.update((source, str(name)) for name, value in properties.items() if _is_off(doc, value, off))
        xobjects = doc.resolve(res.get("XObject"))
        for value in (xobjects.values() if isinstance(xobjects, Dict) else ()):
            form = doc.resolve(value)
            if not isinstance(value, Ref) or value in seen or not isinstance(form, Stream) \
                    or form.dict.get("Subtype") != Name("Form"):
                continue
            seen.add(value)
            form_hidden = hidden or _is_off(doc, form.dict.get("OC"), off)
            if form_hidden:
                forms.add(value)
            todo.append((value, form.dict.get("Resources") or resources, form_hidden))  # none: the parent's
    return OptionalContent(frozenset(marks), frozenset(forms))
