"""Object streams (ISO 32000 7.5.7): ``/N`` pairs of ``objnum offset`` then objects at ``/First``."""
from __future__ import annotations

from dataclasses import dataclass, field

from .diagnostics import Diagnostic, warning
from .lexer import INT, Lexer
from .parser import IndirectObject, Parser


@dataclass(slots=True)
class ObjectStream:
    num: int
    data: bytes
    first: int
    members: list[tuple[int, int]]  # (object number, offset relative to /First)
    diagnostics: list[Diagnostic] = field(default_factory=list)

    @classmethod
    def from_decoded(cls, num: int, data: bytes, n, first) -> "ObjectStream":
        diags: list[Diagnostic] = []
        if not isinstance(first, int) or isinstance(first, bool) or not 0 <= first <= len(data):
            diags.append(warning("objstm-bad-first", f"object stream {num}: /First {first!r} invalid",
                                 ref=(num, 0), clause="7.5.7"))
            first = 0
        if not isinstance(n, int) or isinstance(n, bool) or n < 0:
            diags.append(warning("objstm-bad-n", f"object stream {num}: /N {n!r} invalid; counting pairs",
                                 ref=(num, 0), clause="7.5.7"))
            n = None
        lex = Lexer(data, 0, first)
        members: list[tuple[int, int]] = []
        while n is None or len(members) < n:
            t1 = lex.next()
            t2 = lex.next()
            if t1.kind != INT or t2.kind != INT:
                if n is not None:
                    diags.append(warning("objstm-short-header", f"object stream {num}: header lists "
                                         f"{len(members)} of /N {n} objects", offset=t1.start,
                                         ref=(num, 0), clause="7.5.7"))
                break
            members.append((t1.value, t2.value))
        return cls(num, data, first, members, diags)

    def member(self, index: int) -> IndirectObject | None:
        if not 0 <= index < len(self.members):
            return None
        objnum, rel = self.members[index]
        start = self.first + rel
        end = self.first + self.members[index + 1][1] if index + 1 < len(self.members) else len(self.data)
        if end < start:
            end = len(self.data)
        p = Parser(self.data, start, None, ref=(objnum, 0))
        value = p.parse_object()
        return IndirectObject(objnum, 0, value, start, max(end, p.pos), container=self.num, index=index,
                              diagnostics=list(p.diagnostics))

    def index_of(self, objnum: int) -> int | None:
        for i, (n, _) in enumerate(self.members):
            if n == objnum:
                return i
        return None
