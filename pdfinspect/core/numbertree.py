"""Number trees (ISO 32000-1 7.9.7): /Nums leaves under /Kids, integer keys in order.

Used by the structure tree's /ParentTree (14.7.4.4) and by /PageLabels (12.4.2).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .diagnostics import Diagnostic, warning
from .objects import Array, Dict, Ref, is_integer

if TYPE_CHECKING:
    from .document import Document

MAX_DEPTH = 32  # levels of /Kids followed before a branch is cut


def number_tree(doc: Document, root: Any, what: str) -> tuple[dict[int, Any], list[Diagnostic]]:
    """Every key of the number tree at ``root`` with its value (unresolved: a reference stays
    one), and what was wrong (``what`` names the tree in messages). A cycle, a key that is no
    integer or an odd /Nums array is reported and skipped; the first value of a key wins."""
    out: dict[int, Any] = {}
    diags: list[Diagnostic] = []
    seen: set[int] = set()

    def walk(value: Any, depth: int) -> None:
        if isinstance(value, Ref):
            if value.num in seen:
                diags.append(warning("numtree-loop", f"{what}: node {value} appears twice; skipped",
                                     ref=(value.num, value.gen), clause="7.9.7"))
                return
            seen.add(value.num)
        node = doc.resolve(value)
        if not isinstance(node, Dict):
            diags.append(warning("numtree-node", f"{what}: node {value} is not a dictionary; skipped",
                                 clause="7.9.7"))
            return
        if depth > MAX_DEPTH:
            diags.append(warning("numtree-too-deep", f"{what}: deeper than {MAX_DEPTH} levels; cut",
                                 clause="7.9.7"))
            return
        nums = doc.resolve(node.get("Nums"))
        if isinstance(nums, Array):
            if len(nums) % 2:
                diags.append(warning("numtree-odd", f"{what}: /Nums has an odd number of entries; the last "
                                     "ignored", clause="7.9.7"))
            for i in range(0, len(nums) - 1, 2):
                key = doc.resolve(nums[i])
                if not is_integer(key):
                    diags.append(warning("numtree-key", f"{what}: key {key!r:.30} is not an integer; skipped",
                                         clause="7.9.7"))
                    continue
                out.setdefault(key, nums[i + 1])
        kids = doc.resolve(node.get("Kids"))
        for kid in kids if isinstance(kids, Array) else ():
            walk(kid, depth + 1)

    walk(root, 0)
    return out, diags
