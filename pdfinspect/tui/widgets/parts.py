"""``(text, role)`` parts from :mod:`pdfinspect.present` as styled Rich text."""
from __future__ import annotations

from rich.text import Text


def styled(parts: list[tuple[str, str]], styles: dict[str, str]) -> Text:
    """The parts joined, each styled by its role (roles without a style stay plain).

    The texts are terminal-safe already (``present`` made them so) and become ``Text``,
    never markup."""
    out = Text()
    for text, role in parts:
        out.append(text, style=styles.get(role, ""))
    return out
