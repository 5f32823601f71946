"""The object graph as a tree from the trailer, expanded lazily one level at a time."""
from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual import work
from textual.binding import Binding
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
    """Trailer → Root → Pages → Kids …; ``enter`` opens the object of the node, ``→``/``←``
    expand and collapse. A node's children are read in a worker (labels resolve each
    reference), shown as "loading…" until they arrive."""

    BINDINGS = [
        Binding("right", "expand_node", "Expand", show=False, id="tree-expand", tooltip="Expand the node"),
        Binding("left", "collapse_node", "Collapse", show=False, id="tree-collapse",
                tooltip="Collapse the node (or go to its parent)"),
    ]

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
        node.add_leaf(Text("loading…", style="dim italic"))
        self.read_children(node, data.value)

    @work(thread=True, group="tree", exit_on_error=False)
    def read_children(self, node: TreeNode[Node], value) -> None:
        with self.app.loader() as doc:
            children = children_of(doc, value)
        self.app.call_from_thread(self._children_read, node, children)

    def _children_read(self, node: TreeNode[Node], children: list) -> None:
        node.remove_children()
        for label, data, expandable in children:
            if data is None:
                node.add_leaf(label)
            else:
                node.add(label, data, allow_expand=expandable)

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

    def action_expand_node(self) -> None:
        node = self.cursor_node
        if node is None:
            return
        if node.allow_expand and not node.is_expanded:
            node.expand()
        elif node.children:
            self.move_cursor(node.children[0])

    def action_collapse_node(self) -> None:
        node = self.cursor_node
        if node is None:
            return
        if node.is_expanded:
            node.collapse()
        elif node.parent is not None:
            self.move_cursor(node.parent)

    def follow(self, ref: Ref) -> None:
        """Put the cursor on a loaded node that refers to ``ref`` (nearest the root), if any."""
        queue = [self.root]
        while queue:
            node = queue.pop(0)
            if node.data is not None and node.data.value == ref:
                parent = node.parent
                while parent is not None:
                    parent.expand()
                    parent = parent.parent
                self.move_cursor(node)
                return
            if node.is_expanded:
                queue.extend(node.children)


def children_of(doc, value) -> list[tuple[Text, Node | None, bool]]:
    """(label, node data or None for a leaf note, expandable) of each child of ``value``
    (resolves references: call it off the UI thread)."""
    out: list[tuple[Text, Node | None, bool]] = []
    try:
        value = doc.resolve(value)
        if isinstance(value, Stream):
            value = value.dict
        items = list(value.items()) if isinstance(value, Dict) else \
            [(f"[{i}]", v) for i, v in enumerate(value)] if isinstance(value, Array) else []
        for k, v in items[:MAX_CHILDREN]:
            key = "/" + k if isinstance(value, Dict) else k
            label, expandable = _label(key, v, doc)
            out.append((label, Node(v, key), expandable))
        if len(items) > MAX_CHILDREN:
            out.append((Text(f"… {len(items) - MAX_CHILDREN} more", style="dim"), None, False))
    except Exception as e:  # nothing in a PDF may take the tree down; the node says what happened
        out.append((Text(f"error: {safe_line(str(e))}", style="red"), None, False))
    return out
