"""Fonts, encodings, CMaps and glyph resolution (ISO 32000 9)."""
