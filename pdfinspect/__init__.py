"""pdfinspect: an interactive PDF internals inspector."""
