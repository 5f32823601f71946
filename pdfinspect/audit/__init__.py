"""Audit a corpus: per-font reasons over many PDFs, in shards, on one machine or a Dask cluster.

Headless (no Rich, no Textual). ``run_audit`` writes the shards, ``summarize`` reads them back,
``audit_file`` is the per-file function both engines run; the record schema is in
:mod:`.schema`.
"""
from .engine import AuditStats, collect, run_audit
from .records import FileResult, Options, audit_file
from .schema import SCHEMA_VERSION
from .shards import AuditError, read_records
from .summary import summarize

__all__ = ["AuditError", "AuditStats", "FileResult", "Options", "SCHEMA_VERSION", "audit_file", "collect",
           "read_records", "run_audit", "summarize"]
