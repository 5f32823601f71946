"""The two ciphers of the standard security handler, RC4 and AES, through ``cryptography``.

Only key adaptation and the PDF framing (IV prefix, PKCS#5 padding, ISO 32000 7.6.2) live
here; the ciphers themselves are the library's.
"""
from __future__ import annotations

import os

from cryptography.hazmat.primitives import padding
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

try:  # cryptography >= 43 moved RC4 to the "decrepit" package
    from cryptography.hazmat.decrepit.ciphers.algorithms import ARC4
except ImportError:  # pragma: no cover - older cryptography
    ARC4 = algorithms.ARC4  # type: ignore[misc]  # the same class where older versions keep it

from ..diagnostics import Diagnostic, warning

AES_BLOCK = 16
_RC4_KEY_BYTES = sorted(size // 8 for size in ARC4.key_sizes)


def rc4_key(key: bytes) -> bytes | None:
    """``key`` in a length ``cryptography`` accepts, or ``None`` if there is none.

    RC4's key schedule reads ``key[i mod len(key)]``, so a key repeated a whole number of
    times schedules identically. This lets the 12-byte per-object keys of 56-bit files
    (Algorithm 1: n + 5 bytes) through a library that only takes 5, 7, 8, 10, 16… bytes.
    """
    for size in _RC4_KEY_BYTES:
        if size >= len(key) and size % len(key) == 0:
            return key * (size // len(key))
    return None


def rc4(key: bytes, data: bytes) -> bytes:
    """RC4 en/decryption; ``key`` must satisfy :func:`rc4_key` (checked when a handler opens)."""
    usable = rc4_key(key)
    if usable is None:
        raise ValueError(f"RC4 key of {len(key)} bytes cannot be used with cryptography")
    return Cipher(ARC4(usable), mode=None).decryptor().update(data)


def aes_cbc_raw(key: bytes, iv: bytes, data: bytes, *, encrypt: bool = False) -> bytes:
    """AES-CBC over whole blocks with no padding (OE/UE, Algorithm 2.B's rounds)."""
    cipher = Cipher(algorithms.AES(key), modes.CBC(iv))
    ctx = cipher.encryptor() if encrypt else cipher.decryptor()
    return ctx.update(data) + ctx.finalize()


def aes_cbc_encrypt(key: bytes, data: bytes) -> bytes:
    """Encrypt for AESV2/AESV3: a fresh random IV, then CBC over PKCS#5-padded data (7.6.2)."""
    iv = os.urandom(AES_BLOCK)
    padder = padding.PKCS7(AES_BLOCK * 8).padder()
    return iv + aes_cbc_raw(key, iv, padder.update(data) + padder.finalize(), encrypt=True)


def aes_ecb_block(key: bytes, block: bytes) -> bytes:
    """Decrypt one AES block in ECB mode (``/Perms``, ISO 32000-2 Algorithm 13)."""
    ctx = Cipher(algorithms.AES(key), modes.ECB()).decryptor()
    return ctx.update(block) + ctx.finalize()


def aes_cbc_decrypt(key: bytes, data: bytes,
                    ref: tuple[int, int] | None = None) -> tuple[bytes, list[Diagnostic]]:
    """Decrypt an AESV2/AESV3 string or stream: 16-byte IV, CBC, PKCS#5 padding (7.6.2).

    Never raises on bad data: a short or ragged ciphertext is decrypted as far as whole
    blocks go, bad padding is left in place, and each problem is returned as a Diagnostic.
    """
    if not data:
        return b"", []
    problems: list[Diagnostic] = []
    if len(data) < 2 * AES_BLOCK:
        problems.append(warning(
            "aes-too-short",
            f"AES data of {len(data)} bytes is shorter than an IV and one block; read as empty",
            ref=ref, clause="7.6.2"))
        return b"", problems
    iv, body = data[:AES_BLOCK], data[AES_BLOCK:]
    ragged = len(body) % AES_BLOCK
    if ragged:
        problems.append(warning(
            "aes-length-bad",
            f"AES data length {len(data)} is not 16 + a multiple of 16; "
            f"last {ragged} bytes dropped",
            ref=ref, clause="7.6.2"))
        body = body[:-ragged]
    plain = aes_cbc_raw(key, iv, body)
    unpadder = padding.PKCS7(AES_BLOCK * 8).unpadder()
    try:
        return unpadder.update(plain) + unpadder.finalize(), problems
    except ValueError:
        problems.append(warning(
            "aes-padding-bad",
            f"AES padding is invalid (last byte 0x{plain[-1]:02x}); plaintext kept unstripped",
            ref=ref, clause="7.6.2", repair="wrong key or damaged data"))
        return plain, problems
