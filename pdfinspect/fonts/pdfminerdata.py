"""pdfminer.six's data — the standard 14 fonts' metrics, the Latin encodings, the predefined
CMaps — read without importing the ``pdfminer`` package, whose ``__init__`` looks its installed
version up through ``importlib.metadata`` (and the ``email`` package): 15–20 ms of a start, a
tenth of the glyph inspector's first table."""
from __future__ import annotations

import importlib.util
import os
import sys
from functools import lru_cache
from types import ModuleType


@lru_cache(maxsize=1)
def folder() -> str:
    """The ``pdfminer`` package's folder, found without importing it."""
    spec = importlib.util.find_spec("pdfminer")
    if spec is None or not spec.submodule_search_locations:
        raise ModuleNotFoundError("pdfminer.six is not installed", name="pdfminer")
    return str(next(iter(spec.submodule_search_locations)))


@lru_cache(maxsize=None)
def module(name: str) -> ModuleType:
    """``pdfminer.<name>``: the module imported, if it is, else run from its file on its own
    (``fontmetrics`` and ``latin_enc`` are tables that import nothing of pdfminer's)."""
    loaded = sys.modules.get(f"pdfminer.{name}")
    if loaded is not None:
        return loaded
    spec = importlib.util.spec_from_file_location(f"pdfminer.{name}", os.path.join(folder(), f"{name}.py"))
    if spec is None or spec.loader is None:
        raise ModuleNotFoundError(f"pdfminer.{name} is not installed", name=f"pdfminer.{name}")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod
