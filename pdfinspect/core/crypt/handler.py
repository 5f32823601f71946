"""The standard security handler: reads /Encrypt, authenticates, decrypts objects.

ISO 32000-1 7.6 (R2–R4) and ISO 32000-2 7.6 (R6, AESV3); R5 from Adobe's extension
level 3. Key and password algorithms live in :mod:`.standard`, ciphers in :mod:`.ciphers`.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from ..diagnostics import Diagnostic, PasswordError, PdfError, error, warning
from ..objects import Dict, String, is_integer
from .ciphers import aes_cbc_decrypt, aes_cbc_encrypt, rc4, rc4_key
from .standard import (
    decrypt_perms, file_key_r4, file_key_r6, object_key, saslprep, user_entry_r4,
    user_matches_r4, user_password_from_owner,
)

IDENTITY = "Identity"
AESV2 = "AESV2"
AESV3 = "AESV3"

# /V values this handler implements, with the /R values each allows (Table 20, Table 21).
# V3 is an unpublished algorithm; V0 is undocumented.
SUPPORTED_V_R = {1: (2, 3), 2: (2, 3), 4: (4,), 5: (5, 6)}
# Crypt filter methods (/CFM, Table 25) allowed for V4 and V5, and the method each names.
CFM_ALLOWED = {4: ("V2", "AESV2", "None"), 5: ("AESV3", "None")}
CFM_METHODS = {"AESV2": AESV2, "AESV3": AESV3, "None": IDENTITY}

# User access permissions, ISO 32000-1 Table 22 / ISO 32000-2 Table 22:
# (bit position counted from 1, lowest revision it applies to, meaning).
PERMISSION_BITS: tuple[tuple[int, int, str], ...] = (
    (3, 2, "print"),
    (4, 2, "modify contents"),
    (5, 2, "copy or extract text and graphics"),
    (6, 2, "add or modify annotations, fill form fields"),
    (9, 3, "fill in existing form fields"),
    (10, 3, "extract for accessibility"),
    (11, 3, "assemble (insert, rotate, delete pages, bookmarks, thumbnails)"),
    (12, 3, "print at full quality"),
)


@dataclass(frozen=True, slots=True)
class SecurityHandler:
    """An authenticated standard security handler for one document.

    ``key_length`` is in bits; methods are ``"RC4-<bits>"``, ``"AESV2"``, ``"AESV3"`` or
    ``"Identity"``. ``crypt_filters`` maps each /CF name (and ``Identity``) to its method.
    Decryption problems are appended to ``diagnostics``; decryption never raises.
    """

    version: int
    revision: int
    key_length: int
    method: str
    string_method: str
    stream_method: str
    authenticated_as: str
    permissions: int
    encrypt_metadata: bool
    file_key: bytes = field(repr=False)
    crypt_filters: Mapping[str, str] = field(default_factory=dict)
    diagnostics: list[Diagnostic] = field(default_factory=list)

    @classmethod
    def open(cls, encrypt: Dict, first_id: bytes, password: bytes = b"") -> "SecurityHandler":
        """Authenticate ``password`` as the user password, then as the owner password.

        Raises :class:`PasswordError` (code ``password-wrong``) when neither works, and
        :class:`PdfError` (``encrypt-unsupported``) for a handler other than /Standard or an
        unknown /V or /R, (``encrypt-damaged``) when /O, /U, /OE or /UE are too short.
        """
        diagnostics: list[Diagnostic] = []
        filter_name = encrypt.get("Filter")
        if filter_name != "Standard":
            raise _unsupported(f"security handler /{filter_name} is not the standard one", "7.6.1")
        v, r = _int(encrypt, "V", 0), _int(encrypt, "R", 0)
        if r not in SUPPORTED_V_R.get(v, ()):
            raise _unsupported(f"standard security handler V{v} R{r} is not supported", "7.6.3.2")
        o, u = _bytes(encrypt, "O"), _bytes(encrypt, "U")
        p = _int(encrypt, "P", 0)
        encrypt_metadata = encrypt.get("EncryptMetadata", True) is not False
        filters, bits = _crypt_filters(encrypt, v, diagnostics)
        if v < 4:
            string_method = stream_method = f"RC4-{bits}"
        else:
            string_method = _default_filter(encrypt, "StrF", v, filters, diagnostics)
            stream_method = _default_filter(encrypt, "StmF", v, filters, diagnostics)
        if v < 5:
            _check_key_usable(bits // 8, {string_method, stream_method, *filters.values()})
        if r >= 5:
            file_key, who = _authenticate_r6(encrypt, o, u, r, password)
            _check_perms(encrypt, file_key, p, encrypt_metadata, diagnostics)
        else:
            file_key, who = _authenticate_r4(o, u, p, first_id, r, bits // 8,
                                             encrypt_metadata, password, diagnostics)
        method = stream_method if stream_method != IDENTITY else string_method
        return cls(v, r, bits, method, string_method, stream_method, who, p,
                   encrypt_metadata, file_key, filters, diagnostics)

    def decrypt_string(self, data: bytes, num: int, gen: int) -> bytes:
        """Decrypt a string of object ``num gen`` with the /StrF method."""
        return self._decrypt(self.string_method, data, num, gen)

    def decrypt_stream(self, data: bytes, num: int, gen: int,
                       crypt_filter: str | None = None) -> bytes:
        """Decrypt stream data; ``crypt_filter`` is the /Name of the stream's own /Crypt filter."""
        method = self.stream_method
        if crypt_filter is not None:
            method = self.crypt_filters.get(crypt_filter, "")
            if not method:
                self.diagnostics.append(warning(
                    "crypt-filter-unknown",
                    f"/Crypt filter /{crypt_filter} is not in /CF; "
                    f"used /StmF ({self.stream_method})",
                    ref=(num, gen), clause="7.4.10"))
                method = self.stream_method
        return self._decrypt(method, data, num, gen)

    def _decrypt(self, method: str, data: bytes, num: int, gen: int) -> bytes:
        if not data or method == IDENTITY:
            return data
        if method == AESV3:
            key = self.file_key
        else:
            key = object_key(self.file_key, num, gen, aes=method == AESV2)
        if method.startswith("RC4"):
            return rc4(key, data)
        plain, problems = aes_cbc_decrypt(key, data, ref=(num, gen))
        self.diagnostics.extend(problems)
        return plain

    def encrypt_string(self, data: bytes, num: int, gen: int) -> bytes:
        """Encrypt a string of a new object ``num gen`` (the writer's side of /StrF)."""
        return self._encrypt(self.string_method, data, num, gen)

    def encrypt_stream(self, data: bytes, num: int, gen: int) -> bytes:
        """Encrypt the data of a new stream ``num gen`` with the /StmF method."""
        return self._encrypt(self.stream_method, data, num, gen)

    def _encrypt(self, method: str, data: bytes, num: int, gen: int) -> bytes:
        if method == IDENTITY:
            return data
        key = self.file_key if method == AESV3 else object_key(self.file_key, num, gen, aes=method == AESV2)
        if method.startswith("RC4"):
            return rc4(key, data)
        return aes_cbc_encrypt(key, data)

    def describe(self) -> str:
        """One line: handler version, cipher, key size and how it was opened."""
        line = (f"Standard security handler V{self.version} R{self.revision}, "
                f"{method_text(self.method, self.key_length)}, "
                f"opened with the {self.authenticated_as} password")
        if self.string_method != self.stream_method:
            line += (f" (strings {method_text(self.string_method, self.key_length)}, "
                     f"streams {method_text(self.stream_method, self.key_length)})")
        return line

    def permission_flags(self) -> list[str]:
        """Each permission bit that applies to this revision, as ``"<meaning>: granted|denied"``."""
        return permission_flags(self.permissions, self.revision)


def permission_flags(permissions: int, revision: int) -> list[str]:
    """Each permission bit of /P that applies to ``revision``, as ``"<meaning>: granted|denied"``."""
    return [f"{meaning}: {'granted' if permissions >> (bit - 1) & 1 else 'denied'}"
            for bit, since, meaning in PERMISSION_BITS if revision >= since]


def method_text(method: str, bits: int) -> str:
    if method == IDENTITY:
        return "Identity (not encrypted)"
    if method.startswith("RC4-"):
        return f"RC4 {method[4:]}-bit"
    return f"{method} {bits}-bit"


def _unsupported(message: str, clause: str) -> PdfError:
    return PdfError(error("encrypt-unsupported", message, clause=clause))


def _damaged(message: str, clause: str) -> PdfError:
    return PdfError(error("encrypt-damaged", message, clause=clause))


def _int(d: Mapping, key: str, default: int) -> int:
    value = d.get(key, default)
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value if is_integer(value) else default


def _bytes(d: Mapping, key: str) -> bytes:
    value: Any = d.get(key)
    if isinstance(value, String):
        return value.value
    return value if isinstance(value, bytes) else b""


def _crypt_filters(encrypt: Dict, v: int,
                   diagnostics: list[Diagnostic]) -> tuple[dict[str, str], int]:
    """The /CF crypt filter methods by name (V4, V5; always ``Identity``), and the file key
    length in bits (Tables 20, 25)."""
    if v == 5:
        bits = 256
    elif v == 1:
        bits = 40
    else:
        bits = _int(encrypt, "Length", 128 if v == 4 else 40)
        if bits % 8 or not 40 <= bits <= 128:
            diagnostics.append(warning(
                "encrypt-length-bad", f"/Length {bits} is not a multiple of 8 in 40–128; used 128",
                clause="7.6.3.2"))
            bits = 128
    if v not in SUPPORTED_V_R:
        raise _unsupported(f"standard security handler version /V {v} is not supported", "7.6.3.2")
    filters = {IDENTITY: IDENTITY}
    cf = encrypt.get("CF") if v >= 4 else None
    for name, entry in (cf.items() if isinstance(cf, dict) else ()):
        cfm = str(entry.get("CFM", "None")) if isinstance(entry, dict) else "None"
        if cfm not in CFM_ALLOWED[v]:
            raise _unsupported(f"crypt filter /{name} has /CFM /{cfm}, not usable with V{v}",
                               "7.6.5")
        if cfm == "None":
            diagnostics.append(warning(
                "crypt-filter-none", f"crypt filter /{name} has /CFM /None; its data is left as is",
                clause="7.6.5"))
        filters[str(name)] = f"RC4-{bits}" if cfm == "V2" else CFM_METHODS[cfm]
    return filters, bits


def _check_key_usable(length: int, methods: set[str]) -> None:
    """R2–R4 keys the ciphers must accept: RC4 with the file key (Algorithms 4/5), RC4 or
    AES-128 with the per-object key (Algorithm 1)."""
    object_length = min(length + 5, 16)
    if any(m == AESV2 for m in methods) and object_length != 16:
        raise _unsupported(f"AESV2 needs a 128-bit file key, /Length gives {length * 8}",
                           "7.6.2")
    sizes = [length] + [object_length] * any(m.startswith("RC4") for m in methods)
    for size in sizes:
        if rc4_key(bytes(size)) is None:
            raise _unsupported(f"RC4 with {size}-byte keys (file key of {length * 8} bits) "
                               "is not possible with the cryptography library", "7.6.2")


def _default_filter(encrypt: Dict, key: str, v: int, filters: dict[str, str],
                    diagnostics: list[Diagnostic]) -> str:
    """The method of /StmF or /StrF (V4 and V5; default Identity)."""
    name = str(encrypt.get(key, IDENTITY))
    if name in filters:
        return filters[name]
    guess = AESV3 if v == 5 else AESV2
    diagnostics.append(warning(
        "crypt-filter-missing", f"/{key} names /{name}, which is not in /CF; assumed {guess}",
        clause="7.6.5"))
    return guess


def _wrong_password(revision: int) -> PasswordError:
    clause = "7.6.4.4 (ISO 32000-2)" if revision >= 5 else "7.6.3.4"
    return PasswordError(error(
        "password-wrong", "the password is neither the user nor the owner password",
        clause=clause))


def _authenticate_r4(o: bytes, u: bytes, p: int, first_id: bytes, r: int, length: int,
                     encrypt_metadata: bool, password: bytes,
                     diagnostics: list[Diagnostic]) -> tuple[bytes, str]:
    """Algorithm 6 (user), then Algorithm 7 (owner → user password → Algorithm 6)."""
    for name, value in (("O", o), ("U", u)):
        if len(value) < 32:
            diagnostics.append(warning(
                "encrypt-entry-short", f"/{name} is {len(value)} bytes, not 32", clause="7.6.3.2"))
    key = file_key_r4(password, o, p, first_id, r, length, encrypt_metadata)
    if user_matches_r4(u, user_entry_r4(key, first_id, r), r):
        return key, "user"
    user_password = user_password_from_owner(password, o, r, length)
    key = file_key_r4(user_password, o, p, first_id, r, length, encrypt_metadata)
    if user_matches_r4(u, user_entry_r4(key, first_id, r), r):
        return key, "owner"
    raise _wrong_password(r)


def _authenticate_r6(encrypt: Dict, o: bytes, u: bytes, r: int,
                     password: bytes) -> tuple[bytes, str]:
    """Algorithm 2.A with Algorithm 2.B (R6) or a single SHA-256 (R5)."""
    oe, ue = _bytes(encrypt, "OE"), _bytes(encrypt, "UE")
    if len(o) < 48 or len(u) < 48 or len(oe) < 32 or len(ue) < 32:
        raise _damaged(f"/O /U /OE /UE are {len(o)}, {len(u)}, {len(oe)}, {len(ue)} bytes; "
                       "R5/R6 need 48, 48, 32, 32", "7.6.4.2 Table 21 (ISO 32000-2)")
    found = file_key_r6(saslprep(password), o, u, oe, ue, r)
    if found is None:
        raise _wrong_password(r)
    return found


def _check_perms(encrypt: Dict, file_key: bytes, p: int, encrypt_metadata: bool,
                 diagnostics: list[Diagnostic]) -> None:
    """Algorithm 13: compare /Perms with /P and /EncryptMetadata; the dictionary wins."""
    perms = _bytes(encrypt, "Perms")
    clause = "7.6.4.4 Algorithm 13 (ISO 32000-2)"
    decoded = decrypt_perms(file_key, perms) if len(perms) >= 16 else None
    if decoded is None and len(perms) >= 16:
        # the password matched /U or /O, but the key decrypted from /UE or /OE does not open
        # /Perms: one of them is damaged, and a wrong key would decrypt everything to garbage
        raise _damaged("the password matches, but the file key decrypted from /UE (or /OE) does not "
                       "decrypt /Perms: /UE, /OE or /Perms is damaged", clause)
    if decoded is None:
        diagnostics.append(warning(
            "perms-invalid", "/Perms is missing or does not decrypt to a valid block ('adb')",
            clause=clause))
    elif (decoded[0] & 0xFFFFFFFF) != (p & 0xFFFFFFFF) or decoded[1] != encrypt_metadata:
        diagnostics.append(warning(
            "perms-mismatch",
            f"/Perms holds P={decoded[0]} EncryptMetadata={decoded[1]}, the dictionary "
            f"P={p} EncryptMetadata={encrypt_metadata}; the dictionary's values were used",
            clause=clause))
