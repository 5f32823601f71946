"""Key and password algorithms of the standard security handler.

R2–R4: ISO 32000-1 7.6.2 (Algorithm 1) and 7.6.3.3 (Algorithms 2–7).
R5: Adobe Supplement to ISO 32000, extension level 3 (SHA-256 only; deprecated).
R6: ISO 32000-2 7.6.4.3.3 (Algorithm 2.A), 7.6.4.3.4 (Algorithm 2.B), Algorithm 13.

Every function is pure: bytes in, bytes (or ``None`` for "password does not match") out.
"""
from __future__ import annotations

import hashlib
import stringprep
import unicodedata

from .ciphers import aes_cbc_raw, aes_ecb_block, rc4

# The 32-byte padding string of Algorithm 2 step (a).
PAD = bytes.fromhex(
    "28bf4e5e4e758a4164004e56fffa01082e2e00b6d0683e802f0ca9fe6453697a")
_AES_SALT = b"sAlT"


def object_key(file_key: bytes, num: int, gen: int, aes: bool) -> bytes:
    """Algorithm 1: the per-object key for RC4 and AESV2 (not AESV3, which uses the file key)."""
    seed = file_key + num.to_bytes(4, "little")[:3] + gen.to_bytes(2, "little")
    if aes:
        seed += _AES_SALT
    return hashlib.md5(seed).digest()[:min(len(file_key) + 5, 16)]


def _pad(password: bytes) -> bytes:
    return (password + PAD)[:32]


def file_key_r4(password: bytes, o: bytes, p: int, first_id: bytes, revision: int,
                length: int, encrypt_metadata: bool) -> bytes:
    """Algorithm 2: the file key from a user password (``length`` in bytes)."""
    digest = hashlib.md5(
        _pad(password) + o[:32] + (p & 0xFFFFFFFF).to_bytes(4, "little") + first_id
        + (b"\xff\xff\xff\xff" if revision >= 4 and not encrypt_metadata else b"")
    ).digest()
    if revision >= 3:
        for _ in range(50):
            digest = hashlib.md5(digest[:length]).digest()
    return digest[:length]


def user_entry_r4(file_key: bytes, first_id: bytes, revision: int) -> bytes:
    """Algorithms 4 (R2) and 5 (R3+): the /U value this file key produces.

    For R3+ only the first 16 bytes are defined; the caller compares those.
    """
    if revision == 2:
        return rc4(file_key, PAD)
    data = rc4(file_key, hashlib.md5(PAD + first_id).digest())
    for i in range(1, 20):
        data = rc4(bytes(b ^ i for b in file_key), data)
    return data


def user_matches_r4(u: bytes, computed: bytes, revision: int) -> bool:
    """Algorithm 6: compare the whole /U for R2, its first 16 bytes for R3+."""
    if revision == 2:
        return u[:32] == computed
    return u[:16] == computed[:16]


def user_password_from_owner(owner_password: bytes, o: bytes, revision: int,
                             length: int) -> bytes:
    """Algorithm 3 steps (a)–(d) and Algorithm 7: decrypt /O to the padded user password."""
    digest = hashlib.md5(_pad(owner_password)).digest()
    if revision >= 3:
        for _ in range(50):
            digest = hashlib.md5(digest).digest()
    key = digest[:5 if revision == 2 else length]
    if revision == 2:
        return rc4(key, o[:32])
    data = o[:32]
    for i in range(19, -1, -1):
        data = rc4(bytes(b ^ i for b in key), data)
    return data


def saslprep(password: bytes) -> bytes:
    """R5/R6 password preparation (ISO 32000-2 7.6.4.3.3): SASLprep mapping, UTF-8, 127 bytes.

    Applies RFC 4013's mapping (non-ASCII spaces to U+0020, "commonly mapped to nothing"
    removed) and NFKC, but not its prohibition checks. Bytes that are not UTF-8 are taken
    as Latin-1, which is what a caller passing R2–R4-style passwords gives.
    """
    try:
        text = password.decode("utf-8")
    except UnicodeDecodeError:
        text = password.decode("latin-1")
    mapped = "".join(" " if stringprep.in_table_c12(c) else c
                     for c in text if not stringprep.in_table_b1(c))
    return unicodedata.normalize("NFKC", mapped).encode("utf-8")[:127]


_HASHES = (hashlib.sha256, hashlib.sha384, hashlib.sha512)


def hash_r6(password: bytes, salt: bytes, udata: bytes) -> bytes:
    """Algorithm 2.B: SHA-256, then at least 64 rounds of AES-128-CBC and SHA-2."""
    k = hashlib.sha256(password + salt + udata).digest()
    rounds = 0
    while True:
        e = aes_cbc_raw(k[:16], k[16:32], (password + k + udata) * 64, encrypt=True)
        k = _HASHES[int.from_bytes(e[:16], "big") % 3](e).digest()
        rounds += 1
        if rounds >= 64 and e[-1] <= rounds - 32:
            return k[:32]


def hash_r5(password: bytes, salt: bytes, udata: bytes) -> bytes:
    """Extension level 3 (R5): a single SHA-256."""
    return hashlib.sha256(password + salt + udata).digest()


def file_key_r6(password: bytes, o: bytes, u: bytes, oe: bytes, ue: bytes,
                revision: int) -> tuple[bytes, str] | None:
    """Algorithm 2.A: try ``password`` as user then owner; ``(file key, "user"|"owner")``.

    /U and /O are 48 bytes: hash (32), validation salt (8), key salt (8). The file key is
    /UE or /OE decrypted with AES-256-CBC, zero IV, no padding.
    """
    hash_fn = hash_r6 if revision == 6 else hash_r5
    zero_iv = bytes(16)
    if hash_fn(password, u[32:40], b"") == u[:32]:
        return aes_cbc_raw(hash_fn(password, u[40:48], b""), zero_iv, ue[:32]), "user"
    if hash_fn(password, o[32:40], u[:48]) == o[:32]:
        return aes_cbc_raw(hash_fn(password, o[40:48], u[:48]), zero_iv, oe[:32]), "owner"
    return None


def decrypt_perms(file_key: bytes, perms: bytes) -> tuple[int, bool] | None:
    """Algorithm 13: /Perms decrypted; ``(P, EncryptMetadata)`` or ``None`` if not "adb"."""
    block = aes_ecb_block(file_key, perms[:16])
    if block[9:12] != b"adb":
        return None
    return int.from_bytes(block[:4], "little", signed=True), block[8:9] == b"T"
