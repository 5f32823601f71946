"""What the /Encrypt dictionary says, read without any password (what ``qpdf --show-encryption``
shows): handler, /V and /R, key length, methods, permissions (ISO 32000 7.6.2–7.6.4)."""
from __future__ import annotations

from dataclasses import dataclass

from ..diagnostics import PdfError
from ..objects import Dict
from .handler import _crypt_filters, _default_filter, _int, method_text, permission_flags


@dataclass(frozen=True, slots=True)
class EncryptionFacts:
    """The security handler as declared; ``problem`` says why its methods could not be read."""

    handler: str
    version: int
    revision: int
    key_length: int
    string_method: str
    stream_method: str
    permissions: int
    encrypt_metadata: bool
    problem: str | None = None

    def permission_flags(self) -> list[str]:
        return permission_flags(self.permissions, self.revision)

    def describe(self) -> str:
        if self.problem:
            return f"/{self.handler} V{self.version} R{self.revision}: {self.problem}"
        methods = method_text(self.stream_method, self.key_length)
        if self.string_method != self.stream_method:
            methods = (f"strings {method_text(self.string_method, self.key_length)}, "
                       f"streams {methods}")
        return f"/{self.handler} security handler V{self.version} R{self.revision}, {methods}"


def encryption_facts(encrypt: Dict) -> EncryptionFacts:
    """Read the facts of ``encrypt`` (never raises: an unusable entry goes to ``problem``)."""
    handler = str(encrypt.get("Filter", "?"))
    v, r = _int(encrypt, "V", 0), _int(encrypt, "R", 0)
    p = _int(encrypt, "P", 0)
    encrypt_metadata = encrypt.get("EncryptMetadata", True) is not False
    problem = None
    string_method = stream_method = "?"
    bits = 0
    try:
        filters, bits = _crypt_filters(encrypt, v, [])
        if v < 4:
            string_method = stream_method = f"RC4-{bits}"
        else:
            string_method = _default_filter(encrypt, "StrF", v, filters, [])
            stream_method = _default_filter(encrypt, "StmF", v, filters, [])
    except PdfError as e:
        problem = e.diagnostic.message
    if handler != "Standard" and problem is None:
        problem = f"security handler /{handler} is not the standard one"
    return EncryptionFacts(handler, v, r, bits, string_method, stream_method, p, encrypt_metadata, problem)
