"""Content streams: operators, tokeniser and interpreter (ISO 32000 8, 9, Annex A)."""
