"""Encryption (ISO 32000 7.6): the standard security handler, R2–R6.

The Document opens a :class:`SecurityHandler` from the trailer's /Encrypt dictionary and
first /ID element, then asks it to decrypt each string and stream by object number.
"""
from .facts import EncryptionFacts, encryption_facts
from .handler import PERMISSION_BITS, SecurityHandler

__all__ = ["PERMISSION_BITS", "EncryptionFacts", "SecurityHandler", "encryption_facts"]
