"""The object graph as a tree from the trailer, expanded lazily one level at a time."""
from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual.message import Message
from textual.widgets import Tree
from textual.widgets.tree import TreeNode

from pdfinspect.core.objects import Array, Dict, Ref, Stream
from pdfinspect.core.serialize import format_object
from pdfinspect.present.text import safe_line

from .object_list import describe_value

MAX_CHILDREN = 5000


@dataclass(frozen=True, slots=True)
class Node:
    value: object
    key: str | None
    loaded: bool = False


def _label(key: str | None, value, doc) -> tuple[Text, bool]:
    """A safe one-line label and whether the node can be expanded."""
    label = Text()
    if key is not None:
        label.append(safe_line(key), style="bold")
        label.append(" ")
    target = value
    if isinstance(value, Ref):
        label.append(f"{value.num} {value.gen} R", style="underline")
        try:
            target = doc.resolve(value)
        except Exception as e:
            label.append(f"  error: {safe_line(str(e))}", style="red")
            return label, False
        kind, names = describe_value(target)
        label.append(f"  {kind} {names}".rstrip(), style="dim")
        if target is None:
            label.append("  (missing)", style="red")
    elif isinstance(value, (Dict, Stream)):
        d = value.dict if isinstance(value, Stream) else value
        label.append(f"<< {len(d)} entries >>", style="dim")
    elif isinstance(value, Array):
        label.append(f"[{len(value)} items]", style="dim")
    else:
        text = safe_line(format_object(value, width=10_000))
        label.append(text[:80] + ("…" if len(text) > 80 else ""))
    expandable = isinstance(target, (Dict, Stream, Array)) and bool(
        target.dict if isinstance(target, Stream) else target)
    return label, expandable


class ObjectTree(Tree[Node]):
    """Trailer → Root → Pages → Kids …; ``enter`` opens the object of the node."""

    class Opened(Message):
        def __init__(self, ref: Ref, key: str | None) -> None:
            super().__init__()
            self.ref = ref
            self.key = key

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(Text("trailer"), Node(None, None), id=id, classes=classes)
        self.auto_expand = False
        self.doc = None

    def load(self, doc) -> None:
        self.doc = doc
        self.clear()
        self.root.data = Node(doc.trailer, None)
        self._fill(self.root)
        self.root.expand()

    def _fill(self, node: TreeNode[Node]) -> None:
        data = node.data
        if data is None or data.loaded:
            return
        node.data = Node(data.value, data.key, True)
        try:
            value = self.doc.resolve(data.value)
            if isinstance(value, Stream):
                value = value.dict
            items = list(value.items()) if isinstance(value, Dict) else \
                [(f"[{i}]", v) for i, v in enumerate(value)] if isinstance(value, Array) else []
            for k, v in items[:MAX_CHILDREN]:
                key = "/" + k if isinstance(value, Dict) else k
                label, expandable = _label(key, v, self.doc)
                node.add(label, Node(v, key), allow_expand=expandable)
            if len(items) > MAX_CHILDREN:
                node.add_leaf(Text(f"… {len(items) - MAX_CHILDREN} more", style="dim"))
        except Exception as e:  # nothing in a PDF may take the app down
            node.add_leaf(Text(f"error: {safe_line(str(e))}", style="red"))

    def on_tree_node_expanded(self, event: Tree.NodeExpanded[Node]) -> None:
        event.stop()
        self._fill(event.node)

    def on_tree_node_selected(self, event: Tree.NodeSelected[Node]) -> None:
        event.stop()
        data = event.node.data
        if data is not None and isinstance(data.value, Ref):
            self.post_message(self.Opened(data.value, data.key))
        elif event.node.allow_expand:
            event.node.toggle()
