"""Optional content (ISO 32000-1 8.11): which groups the default configuration hides.

A document's ``/OCProperties`` lists its optional content groups (OCGs) and a default
configuration ``/D``: a ``/BaseState`` (ON unless it says OFF or Unchanged), then ``/ON``
and ``/OFF`` arrays that override it (8.11.4.3). Content is tied to a group by
``/OC /name BDC … EMC`` (the name in the resources' ``/Properties``), or by the ``/OC``
entry of a form, an image or an annotation (8.11.3). It names either a group or a
membership dictionary (OCMD, 8.11.2.2) that combines groups by a policy ``/P`` (AnyOn by
default, AllOn, AnyOff, AllOff) or by a visibility expression ``/VE`` (And, Or, Not over
groups, 8.11.2.3), which takes precedence over ``/P``.

:func:`optional_content` reads the default configuration once per document;
:meth:`OptionalContent.judge` says whether an ``/OC`` value hides its content in the
document's default view, and by which kind of rule (:data:`KINDS`): readers differ there,
so the extractor emulations need to know the kind, not only the verdict.

Not modelled: the ``/AS`` usage application (zoom, print, language, user events), which
changes visibility only on events a viewer raises, and ``/Intent``: a group is judged by
its ON/OFF state alone.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .objects import Array, Dict, Name, Ref

MAX_VE_DEPTH = 32  # nesting of a visibility expression we evaluate (deeper: its content is visible)
MAX_VE_TERMS = 1_000  # operands visited in one visibility expression

# Kind of rule an /OC value was judged by → the sentence shown to people.
KINDS = {
    "group": "an optional content group (8.11.2.1)",
    "policy_any_on": "a membership dictionary, /P /AnyOn (8.11.2.2)",
    "policy_all_on": "a membership dictionary, /P /AllOn (8.11.2.2)",
    "policy_any_off": "a membership dictionary, /P /AnyOff (8.11.2.2)",
    "policy_all_off": "a membership dictionary, /P /AllOff (8.11.2.2)",
    "expression": "a membership dictionary's visibility expression /VE (8.11.2.3)",
    "inline": "a membership dictionary written inline in the content, not named in /Properties (8.11.3.2)",
    "unknown": "neither a group nor a membership dictionary: visible (8.11.3.1)",
}
_POLICIES = {"AnyOn": "policy_any_on", "AllOn": "policy_all_on", "AnyOff": "policy_any_off",
             "AllOff": "policy_all_off"}


@dataclass(frozen=True, slots=True)
class Verdict:
    """How the default view treats content under one ``/OC`` value: ``hidden`` or not,
    judged by a rule of ``kind`` (:data:`KINDS`)."""

    hidden: bool
    kind: str


VISIBLE_UNKNOWN = Verdict(False, "unknown")


class _TooLarge(Exception):
    """A visibility expression nested or sized beyond the limits (a loop, usually)."""


class OptionalContent:
    """The document's default optional content configuration (8.11.4.3)."""

    def __init__(self, doc: Any) -> None:
        self.doc = doc
        self.off: set[tuple[int, int]] = set()  # the groups the default configuration turns off
        props = doc.resolve(doc.catalog.get("OCProperties")) if isinstance(doc.catalog, Dict) else None
        self.present = isinstance(props, Dict)
        if not isinstance(props, Dict):
            return
        groups = [g for g in self._array(props.get("OCGs")) if isinstance(g, Ref)]
        config = doc.resolve(props.get("D"))
        if not isinstance(config, Dict):
            return
        if doc.resolve(config.get("BaseState")) == "OFF":
            self.off = {(g.num, g.gen) for g in groups}
        for g in self._array(config.get("ON")):
            if isinstance(g, Ref):
                self.off.discard((g.num, g.gen))
        for g in self._array(config.get("OFF")):
            if isinstance(g, Ref):
                self.off.add((g.num, g.gen))

    def _array(self, value: Any) -> list[Any]:
        value = self.doc.resolve(value)
        return list(value) if isinstance(value, Array) else []

    def judge(self, value: Any, named: bool = True) -> Verdict:
        """The verdict on an ``/OC`` value (a reference, or a dictionary given inline in a
        ``BDC`` when ``named`` is false)."""
        if not self.present:
            return VISIBLE_UNKNOWN
        target = self.doc.resolve(value)
        if not isinstance(target, Dict):
            return VISIBLE_UNKNOWN
        kind = target.get("Type")
        if kind == "OCG" or (kind is None and "OCGs" not in target and isinstance(value, Ref)):
            return Verdict(self._group_off(value), "group")
        if kind != "OCMD" and "OCGs" not in target and "VE" not in target:
            return VISIBLE_UNKNOWN
        ve = self.doc.resolve(target.get("VE"))
        if isinstance(ve, Array) and len(ve):
            try:
                visible = self._expression(ve, 0, [0])
            except _TooLarge:  # a loop, or beyond what any producer writes: visible, as poppler has it
                visible = True
            return Verdict(not visible, "expression" if named else "inline")
        policy = self.doc.resolve(target.get("P"))
        kind_id = _POLICIES.get(str(policy) if isinstance(policy, Name) else "AnyOn", "policy_any_on")
        members = self.doc.resolve(target.get("OCGs"))
        refs = [m for m in (members if isinstance(members, Array) else [members]) if isinstance(m, Ref)]
        if not refs:  # no groups: the dictionary has no effect (8.11.2.2)
            return Verdict(False, kind_id if named else "inline")
        on = [not self._group_off(r) for r in refs]
        visible = {"policy_any_on": any(on), "policy_all_on": all(on),
                   "policy_any_off": not all(on), "policy_all_off": not any(on)}[kind_id]
        return Verdict(not visible, kind_id if named else "inline")

    def _group_off(self, value: Any) -> bool:
        return isinstance(value, Ref) and (value.num, value.gen) in self.off

    def _expression(self, ve: Array, depth: int, seen: list[int]) -> bool:
        """A visibility expression's value: true when its content is visible (8.11.2.3).
        Raises :class:`_TooLarge` beyond :data:`MAX_VE_DEPTH` levels or :data:`MAX_VE_TERMS` operands."""
        if depth > MAX_VE_DEPTH:
            raise _TooLarge
        if not len(ve):
            return True
        op = self.doc.resolve(ve[0])
        values: list[bool] = []
        for item in list(ve)[1:]:
            seen[0] += 1
            if seen[0] > MAX_VE_TERMS:
                raise _TooLarge
            inner = self.doc.resolve(item)
            values.append(self._expression(inner, depth + 1, seen) if isinstance(inner, Array)
                          else not self._group_off(item))
        if op == "Not":
            return not values[0] if values else True
        if op == "And":
            return all(values)
        if op == "Or":
            return any(values) if values else True
        return True


def optional_content(doc: Any) -> OptionalContent:
    """The document's one :class:`OptionalContent`, read on first use."""
    value = doc.derived("optional-content", lambda: OptionalContent(doc))
    assert isinstance(value, OptionalContent)
    return value
