"""Presentation helpers shared by CLI and TUI (the only layer that may import Rich)."""
