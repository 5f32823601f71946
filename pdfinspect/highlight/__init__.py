"""Pygments lexers for PDF syntax, content streams and CMaps."""
