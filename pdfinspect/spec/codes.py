"""The catalogue of every stable code pdfinspect reports: diagnostics, and the registries
the other layers add (resolution flags, path-step outcomes, path methods, font reasons).

A code is the contract; the message beside it is for people and may be reworded at any
time. Diagnostic codes are kebab-case (``xref-offset-wrong``); the glyph resolver's flags,
step outcomes and reason ids are snake_case (``tounicode_miss``); path methods keep their
spec spelling (``ToUnicode``). Each entry says what the code means and the ISO 32000-1
clause that defines the rule (``None`` where the code is about pdfinspect itself).
``pdfinspect codes`` prints the whole catalogue as Markdown (``docs/codes.md``); a test
fails when a code is used that is not listed here or when the document is stale.
"""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class CodeDoc:
    """One code: what it means and the ISO 32000-1 clause behind it."""

    code: str
    meaning: str
    clause: str | None = None
    group: str = ""


class Registry:
    """An ordered set of documented codes of one kind (``add`` returns the code, so a module
    can define its constants and their documentation in one place)."""

    def __init__(self, kind: str, title: str, intro: str):
        self.kind, self.title, self.intro = kind, title, intro
        self.entries: dict[str, CodeDoc] = {}
        self._group = ""

    def group(self, name: str) -> None:
        """Start a group: the entries added next belong to it (a sub-heading in the docs)."""
        self._group = name

    def add(self, code: str, meaning: str, clause: str | None = None) -> str:
        if code in self.entries:
            raise ValueError(f"{self.kind} code {code!r} is listed twice")
        self.entries[code] = CodeDoc(code, meaning, clause, self._group)
        return code

    def __contains__(self, code: object) -> bool:
        return code in self.entries

    def __iter__(self) -> Iterator[CodeDoc]:
        return iter(self.entries.values())

    def __len__(self) -> int:
        return len(self.entries)

    def meaning(self, code: str) -> str:
        return self.entries[code].meaning


DIAGNOSTICS = Registry(
    "diagnostic", "Diagnostic codes",
    "Every `Diagnostic` (`check`, `info`, the app's summary, `--json` outputs, audit records) carries one of "
    "these kebab-case codes, a severity (info, warning, error) and a one-line message naming the object and "
    "offset. Errors that stop a command (exit status 1) carry a code too.")
_d = DIAGNOSTICS.add

DIAGNOSTICS.group("File structure: header, cross-reference, trailer (core)")
_d("file-empty", "the file is empty (0 bytes)")
_d("file-unreadable", "the file cannot be read (the operating system's reason is given)")
_d("file-changed", "a file over 256 MiB (read on demand) was truncated or rewritten while open: its bytes can no "
   "longer be read as they were; reopen it (the app offers ctrl+r)")
_d("file-not-regular", "the input is a FIFO, a device or a folder (or a link to one): refused before it is read")
_d("not-a-pdf", "no %PDF- header, no xref, no trailer with a /Root and no catalog: not a PDF file")
_d("no-objects", "no xref and no `N G obj` found: not a PDF file")
_d("header-missing", "no %PDF-x.y header in the first 1024 bytes", "7.5.2")
_d("header-offset", "bytes of junk before the %PDF header", "7.5.2")
_d("header-version-missing", "the %PDF- header has no x.y version", "7.5.2")
_d("startxref-missing", "no `startxref` at the end of the file", "7.5.5")
_d("trailing-garbage", "bytes after the last %%EOF, ignored", "7.5.5")
_d("objects-after-xref", "objects after the last cross-reference section that no section lists: they would "
   "redefine objects for a reader that scans (the shadow and incremental-saving attacks on signed files)", "7.5.6")
_d("xref-not-found", "no xref table or stream at the offset `startxref` or /Prev gives", "7.5.5")
_d("xref-offset-out-of-range", "an xref offset points outside the file", "7.5.5")
_d("xref-relocated", "the xref table was found by searching near the offset given", "7.5.4")
_d("xref-shifted", "xref offsets count from the %PDF header, not from the file's first byte", "7.5.5")
_d("xref-bad-subsection", "xref table: a line is neither a subsection header nor `trailer`", "7.5.4")
_d("xref-bad-entry", "xref table: an entry is unreadable; the rest of its subsection is cut", "7.5.4")
_d("xref-offset-wrong", "an xref offset does not point at the object's `N G obj` header", "7.5.4")
_d("xref-gen-mismatch", "the xref's generation differs from the object header's", "7.5.4")
_d("xref-completed", "objects the cross-reference data does not list were found by scanning", "7.5.4")
_d("xref-reconstructed", "the cross-reference was rebuilt by scanning the file for `N G obj`", "7.5.4")
_d("xref-prev-bad", "/Prev is not an offset; older revisions are not read", "7.5.5")
_d("xref-prev-real", "/Prev is a real number, not an integer (used as an offset)", "7.5.5")
_d("xref-prev-reference", "/Prev is an indirect reference, not an offset", "7.5.5")
_d("xref-prev-loop", "the /Prev chain loops back to an offset already read; stopped", "7.5.6")
_d("xref-stream-decode", "an xref stream's data cannot be decoded", "7.5.8")
_d("xref-stream-bad-w", "xref stream /W is not three non-negative integers", "7.5.8.2")
_d("xref-stream-bad-index", "xref stream /Index is malformed; [0 Size] is used", "7.5.8.2")
_d("xref-stream-short", "an xref stream's data holds fewer entries than /Index declares", "7.5.8.3")
_d("xrefstm-not-found", "a hybrid file's /XRefStm does not point at an xref stream", "7.5.8.4")
_d("trailer-missing", "no `trailer` after the xref table", "7.5.5")
_d("trailer-bad", "the trailer is not a dictionary", "7.5.5")
_d("trailer-none", "scanning found no trailer with a /Root and no catalog: there is no page tree", "7.5.5")
_d("trailer-replaced", "the trailer's /Root leads to no page tree; another /Root was used", "7.5.5")
_d("trailer-size", "the trailer's /Size is not one more than the highest object number in use", "7.5.5")
_d("objects-unreadable", "objects the xref lists in use could not be read", "7.5.4")
_d("update-refused", "an incremental update cannot be appended to this file (the reason is given)", "7.5.6")

DIAGNOSTICS.group("Objects, streams and object streams (core)")
_d("unexpected-token", "a token that cannot start an object", "7.3")
_d("unexpected-keyword", "a keyword where an object was expected", "7.3")
_d("unexpected-eof", "the data ends where an object was expected", "7.3")
_d("ref-negative", "a negative number in an indirect reference", "7.3.10")
_d("nesting-too-deep", "arrays or dictionaries nested deeper than pdfinspect's limit; the container is cut")
_d("array-unterminated", "an array is not closed with `]`", "7.3.6")
_d("dict-unterminated", "a dictionary is not closed with `>>`", "7.3.7")
_d("dict-missing-value", "a dictionary key has no value; set to null", "7.3.7")
_d("dict-duplicate-key", "a dictionary key appears twice; the last wins", "7.3.7")
_d("dict-bad-key", "a dictionary key is not a name; the entry is skipped", "7.3.7")
_d("endobj-missing", "`endobj` is missing after an object", "7.3.10")
_d("reference-generation", "a reference's generation is not in the file; the object at another generation is used",
   "7.3.10")
_d("ref-r-joined", "a reference's `R` is joined to its generation (`3 0R`); read as `3 0 R`, as MuPDF and pdf.js "
   "read it", "7.3.10")
_d("reference-loop", "an object is needed to read itself (an indirect /Length or object stream loop)")
_d("name-bad-escape", "`#` in a name not followed by two hex digits; kept as is", "7.3.5")
_d("number-out-of-range", "a number beyond ±2⁶³−1 (integers) or ±3.403×10³⁸ (reals); clamped to the limit", "Annex C")
_d("number-malformed", "a malformed number (`--5`, `1.2.3`) read leniently", "7.3.3")
_d("string-unterminated", "a literal string is not closed before the end of the data", "7.3.4.2")
_d("hexstring-bad-char", "a non-hex character in a hex string; ignored", "7.3.4.3")
_d("stream-cr-eol", "`stream` followed by CR alone (must be CR LF or LF); accepted", "7.3.8.1")
_d("stream-space-before-eol", "`stream` followed by spaces before its end-of-line; the data starts after the EOL", "7.3.8.1")
_d("stream-no-eol", "`stream` not followed by an end-of-line", "7.3.8.1")
_d("stream-length-wrong", "/Length does not end at `endstream`; the data is delimited by `endstream`", "7.3.8.2")
_d("stream-length-unresolved", "an indirect /Length cannot be resolved; the data is delimited by `endstream`",
   "7.3.8.2")
_d("stream-unterminated", "`endstream` is missing; the data runs to the next object or the end of the file",
   "7.3.8.1")
_d("stream-decode", "a stream's filters fail on its data (the filter and the reason are given)", "7.4")
_d("objstm-missing", "an object stream the xref names is missing or not a stream", "7.5.7")
_d("objstm-decode", "an object stream's data cannot be decoded", "7.5.7")
_d("objstm-bad-n", "an object stream's /N is invalid; the header's pairs are counted", "7.5.7")
_d("objstm-bad-first", "an object stream's /First is invalid", "7.5.7")
_d("objstm-short-header", "an object stream's header lists fewer objects than /N", "7.5.7")
_d("objstm-member-missing", "an object is not found in the object stream the xref names", "7.5.7")
_d("objstm-index-wrong", "an object is at another index of its object stream than the xref says", "7.5.8.3")

DIAGNOSTICS.group("Document structure and text strings (core)")
_d("pages-missing", "the catalog has no /Pages", "7.7.2")
_d("pages-none", "no page is reachable from the catalog", "7.7.3")
_d("pages-root-direct", "the catalog's /Pages is a direct dictionary; its /Kids are read", "7.7.2")
_d("pages-kid-direct", "a /Kids entry is not a reference to a page or page tree node; skipped", "7.7.3.2")
_d("pages-kid-direct-page", "a /Kids entry is a page dictionary written directly, not a reference: read as the "
   "page it is, under an object number no object has (as qpdf makes it indirect)", "7.7.3.2")
_d("pages-kid-generation", "a /Kids reference names a generation no object has, while the xref lists the object at "
   "another: that object is used, as MuPDF does", "7.3.10")
_d("pages-kid-missing", "a /Kids entry does not lead to a dictionary; skipped", "7.7.3.2")
_d("pages-loop", "a page tree node appears twice (a cycle or a page listed twice); the second skipped", "7.7.3.2")
_d("pages-too-deep", "the page tree is deeper than pdfinspect's limit; the rest of the branch is skipped", "7.7.3.2")
_d("pages-count-wrong", "a page tree node's /Count differs from the pages reachable under it", "7.7.3.2")
_d("pdfdoc-undefined", "bytes undefined in PDFDocEncoding, shown as U+FFFD", "Annex D.3")
_d("textstring-utf16le", "a text string in UTF-16LE (BOM FF FE), which ISO 32000 does not allow; read as UTF-16LE",
   "7.9.2.2")
_d("textstring-odd-utf16", "a UTF-16 text string with an odd number of bytes; the last byte is dropped", "7.9.2.2")
_d("textstring-bad-utf16", "an unpaired UTF-16 surrogate in a text string; shown as U+FFFD", "7.9.2.2")
_d("textstring-bad-utf8", "invalid UTF-8 in a text string with a UTF-8 BOM; the bad bytes shown as U+FFFD",
   "7.9.2.2")
_d("textstring-language", "a language escape sequence removed from a text string", "7.9.2.2")

DIAGNOSTICS.group("Encryption (core)")
_d("encrypt-bad", "/Encrypt is not a dictionary; strings and streams are left encrypted", "7.6.1")
_d("encrypt-unsupported", "a security handler, version or revision pdfinspect cannot decrypt", "7.6.1")
_d("encrypt-damaged", "the /Encrypt dictionary lacks entries the handler needs", "7.6.3.2")
_d("encrypt-length-bad", "/Length is not a multiple of 8 in 40–128; 128 is used", "7.6.3.2")
_d("encrypt-entry-short", "/O or /U is shorter than 32 bytes", "7.6.3.2")
_d("password-wrong", "the password is neither the user nor the owner password", "7.6.3.4")
_d("perms-invalid", "/Perms is missing or does not decrypt to a valid block", "7.6.4.4")
_d("perms-mismatch", "/Perms disagrees with /P or /EncryptMetadata; the dictionary's values are used", "7.6.4.4")
_d("crypt-filter-unknown", "a /Crypt filter names a filter not in /CF; /StmF is used", "7.4.10")
_d("crypt-filter-missing", "/StmF or /StrF names a filter not in /CF; a method is assumed", "7.6.5")
_d("crypt-filter-none", "a crypt filter with /CFM /None: its data is left as is", "7.6.5")
_d("aes-too-short", "AES data shorter than an IV and one block; read as empty", "7.6.2")
_d("aes-length-bad", "AES data length is not 16 + a multiple of 16; the ragged end is dropped", "7.6.2")
_d("aes-padding-bad", "AES padding is invalid; the plaintext is kept unstripped", "7.6.2")

DIAGNOSTICS.group("Content streams (content)")
_d("contents-not-stream", "a /Contents entry is not a stream; skipped", "7.7.3.3")
_d("contents-decode", "a content stream cannot be fully decoded; the partial data is used", "7.8.2")
_d("form-decode", "a form XObject's or appearance's content cannot be decoded")
_d("form-cycle", "a form or appearance draws itself (directly or through others); not drawn again", "8.10.1")
_d("stray-delimiter", "a stray delimiter (`)`, `>`, `}`) in a content stream; ignored", "7.2.3")
_d("container-unterminated", "an array or dictionary operand is not closed", "7.3")
_d("container-too-deep", "operand nesting deeper than pdfinspect's limit; the deeper levels ignored")
_d("container-too-long", "an operand array longer than pdfinspect's limit; the rest dropped")
_d("dict-odd", "a dictionary operand has a key without a value; the key dropped", "7.3.7")
_d("dict-key-not-name", "a dictionary operand's key is not a name; the entry dropped", "7.3.7")
_d("operator-unknown", "an operator not in Annex A", "7.8.2")
_d("operator-unknown-compat", "an unknown operator inside BX/EX, ignored as the spec asks", "7.8.2")
_d("operator-in-array", "an operator inside an array: left out of it and not run, as poppler and pdf.js read it",
   "7.8.2")
_d("operands-mismatch", "an operator's operands do not match Annex A's arity or kinds", "Annex A")
_d("operands-unusable", "an operator's operands cannot be used; the operator is ignored")
_d("operands-dropped", "too many operands with no operator; the oldest are dropped")
_d("operands-left", "operands with no operator at the end of the stream", "7.8.2")
_d("compat-unbalanced", "EX without BX", "7.8.2")
_d("compat-unclosed", "BX without EX at the end of the stream", "7.8.2")
_d("diagnostics-repeated", "more diagnostics of one code than a lexer keeps (100); the rest are counted")
_d("diagnostics-suppressed", "more diagnostics of one stream than pdfinspect keeps; the rest are counted")
_d("inline-image-no-id", "BI without ID", "8.9.7")
_d("inline-image-no-space", "no white space after ID", "8.9.7")
_d("inline-image-stray", "ID or EI outside an inline image", "8.9.7")
_d("inline-image-length-wrong", "an inline image's /L is not followed by EI; EI is searched for", "8.9.7")
_d("inline-image-end-uncertain", "no EI is followed by plausible operators; the first EI is used", "8.9.7")
_d("inline-image-unterminated", "inline image data has no EI", "8.9.7")
_d("q-unbalanced", "Q without a matching q; ignored", "8.4.2")
_d("q-too-deep", "more nested q than pdfinspect's limit; the extra q ignored", "8.4.2")
_d("bt-nested", "BT inside a text object", "9.4.1")
_d("et-unbalanced", "ET without BT", "9.4.1")
_d("text-outside-bt", "text shown outside BT/ET", "9.4.1")
_d("actualtext-unclosed", "a span with /ActualText begun in a text object is still open at ET; ended there", "14.6")
_d("emc-unbalanced", "EMC without BMC/BDC", "14.6")
_d("resource-missing", "an operator names a resource the /Resources do not have", "7.8.3")
_d("font-not-set", "text shown with no usable font selected (Tf)", "9.3.1")
_d("font-substituted", "Tf names a font the resources do not have: a default font stands in, as MuPDF and pdf.js "
   "draw it; the text of its glyphs is a guess", "9.3.1")
_d("type3-recursive", "a Type3 glyph procedure shows text with its own font; not drawn", "9.6.5")
_d("annots-too-many", "more annotations on a page than pdfinspect draws", "12.5.2")
_d("annot-not-dict", "an /Annots entry is not a dictionary", "12.5.2")
_d("annot-rect", "an annotation without a usable /Rect or /BBox; drawn unscaled", "12.5.5")
_d("annot-hidden", "an annotation has the Hidden or NoView flag: not drawn", "12.5.3")
_d("annot-no-appearance", "an annotation has no normal appearance stream (/AP /N): nothing drawn", "12.5.5")
_d("annot-state", "an annotation's /AS names no entry of /AP /N: nothing drawn", "12.5.5")

DIAGNOSTICS.group("Fonts and CMaps (fonts)")
_d("font-not-dict", "a font resource is not a dictionary", "9.5")
_d("font-subtype", "a font /Subtype that is not a known font type; read as Type1", "9.5")
_d("font-file-missing", "/FontFile, /FontFile2 or /FontFile3 is not a stream", "9.9")
_d("font-program-kind", "/FontFile holds another kind of program than its key says; read as what it is", "9.9")
_d("font-program-unreadable", "the embedded font program cannot be parsed", "9.9")
_d("font-table-damaged", "a TrueType table fontTools refuses: read as pdf.js reads it (a head with bytes past its "
   "end; a loca with a glyph past the end of glyf, an offset of 0 for a missing glyph, offsets out of order), "
   "or left out (a cmap subtable)", "9.9")
_d("widths-missing", "a simple font without /Widths: advances use /MissingWidth", "9.6.2.1")
_d("w-malformed", "a CIDFont's /W entry is malformed; the rest is ignored", "9.7.4.3")
_d("w2-malformed", "a CIDFont's /W2 entry is malformed; the rest is ignored", "9.7.4.3")
_d("encoding-bad", "/Encoding is neither a name nor a dictionary", "9.6.6.1")
_d("encoding-unknown", "/Encoding names no simple-font encoding; ignored", "9.6.6.1")
_d("differences-bad-entry", "a /Differences entry is neither a code nor a glyph name; skipped", "9.6.6.1")
_d("differences-no-code", "a /Differences name comes before any code; skipped", "9.6.6.1")
_d("differences-code-range", "a /Differences code outside 0–255; the names after it are skipped", "9.6.6.1")
_d("descendant-missing", "a Type0 font without a descendant CIDFont", "9.7.6.1")
_d("cmap-missing", "a Type0 font without a usable /Encoding CMap; read as Identity-H", "9.7.6.1")
_d("cmap-unknown", "/Encoding names no predefined CMap; read as Identity-H", "9.7.5.2")
_d("cmap-not-stream", "/ToUnicode or an embedded CMap is not a stream; ignored", "9.10.3")
_d("cmap-decode", "a CMap stream cannot be decoded", "9.10.3")
_d("usecmap-unresolved", "a CMap's usecmap cannot be resolved; its mappings are missing", "9.7.5.3")
_d("codespace-missing", "no codespacerange: codes are split by the lengths the mappings use", "9.7.6.2")
_d("codespace-length-mismatch", "a codespace range whose ends differ in length; skipped", "9.7.6.2")
_d("codespace-reversed", "a codespace range with a byte whose low end is above its high end; skipped", "9.7.6.2")
_d("code-length-outside-codespace", "mappings use a code length no codespace range has: they never match", "9.7.6.2")
_d("code-not-in-codespace", "shown bytes match no codespace range; taken as a code of the shortest length",
   "9.7.6.3")
_d("cmap-count-missing", "a begin…char/range keyword without an entry count before it", "9.7.5.4")
_d("cmap-count-mismatch", "a block holds another number of entries than its count announces", "9.7.5.4")
_d("cmap-data-after-endcmap", "mappings after `endcmap`; ignored, as MuPDF and pdfminer.six ignore them", "9.7.5.4")
_d("cmap-end-unmatched", "an end…char/range keyword without a matching begin", "9.7.5.4")
_d("cmap-end-mismatch", "a block is closed by another block's end keyword", "9.7.5.4")
_d("cmap-block-unterminated", "a block is not closed before the next one or the end of the data", "9.7.5.4")
_d("cmap-unexpected-keyword", "an unexpected keyword inside a block; ignored", "9.7.5.4")
_d("cmap-bad-entry", "an unexpected value inside a block; skipped", "9.7.5.4")
_d("cmap-empty-code", "an empty source code in a mapping; skipped", "9.7.5.4")
_d("cmap-odd-hex", "a hex string with an odd number of digits; a final 0 is assumed", "7.3.4.3")
_d("cmap-unterminated", "a hex string is not closed before the end of the data; its entry is skipped", "7.3.4.3")
_d("cmap-range-length-mismatch", "a range whose ends differ in length; skipped", "9.7.5.4")
_d("cmap-range-reversed", "a range whose high end is below its low end; skipped", "9.7.5.4")
_d("cmap-range-crosses-byte", "a range whose ends differ before the last byte; read as one numeric range, as "
   "pdf.js and pdfminer do", "9.7.5.4")
_d("cmap-range-array-size", "a bfrange array with another number of destinations than the range has codes",
   "9.10.3")
_d("cmap-bad-dest", "a bfchar/bfrange destination that is not a string", "9.10.3")
_d("cmap-empty-dest", "a bfrange with an empty destination; skipped", "9.10.3")
_d("cmap-dest-too-long", "a bfrange destination longer than 512 bytes (Adobe TN 5014's bound); cut", "9.10.3")
_d("cmap-dest-not-utf16", "a destination that is not valid UTF-16BE (odd length, unpaired surrogate)", "9.10.3")

DIAGNOSTICS.group("Structure tree, number trees and page labels (core.structtree, core.numbertree, core.pagelabels)")
_d("struct-root-invalid", "/StructTreeRoot is not a dictionary", "14.7.2")
_d("struct-kid-invalid", "a /K entry is neither an element, a marked-content reference nor an object reference", "14.7.2")
_d("struct-type-missing", "a structure element has no /S (structure type)", "14.7.2")
_d("struct-page-unknown", "an element's /Pg is not a page of the document", "14.7.2")
_d("struct-mcid-no-page", "a marked-content id whose element and ancestors give no /Pg", "14.7.4.2")
_d("struct-mcr-invalid", "a marked-content reference dictionary without an integer /MCID", "14.7.4.3")
_d("struct-mcid-twice", "one page's marked-content id is claimed by two elements", "14.7.4.2")
_d("struct-cycle", "a structure element is its own ancestor; the loop is cut", "14.7.2")
_d("struct-element-twice", "a structure element is a kid of two parents", "14.7.2")
_d("struct-too-deep", "the structure tree nests deeper than pdfinspect follows; cut", "14.7.2")
_d("struct-parenttree-missing", "a page's /StructParents has no entry in the /ParentTree", "14.7.4.4")
_d("struct-parenttree-extra", "the /ParentTree names an element for an MCID no element claims", "14.7.4.4")
_d("struct-parenttree-mismatch", "the /ParentTree and the elements' /K disagree on an MCID's element", "14.7.4.4")
_d("struct-parenttree-unlisted", "an MCID an element claims is missing from the /ParentTree", "14.7.4.4")
_d("struct-mcid-no-content", "the structure tree claims an MCID no marked content on its page has", "14.7.4.2")
_d("struct-content-unclaimed", "marked content with an MCID that no structure element claims", "14.7.4.2")
_d("numtree-node", "a number-tree node is not a dictionary; skipped", "7.9.7")
_d("numtree-loop", "a number-tree node appears twice; skipped", "7.9.7")
_d("numtree-too-deep", "a number tree nests deeper than pdfinspect follows; cut", "7.9.7")
_d("numtree-odd", "a number tree's /Nums has an odd number of entries; the last is ignored", "7.9.7")
_d("numtree-key", "a number tree's key is not an integer; skipped", "7.9.7")
_d("pagelabel-invalid", "a /PageLabels entry is not a page-label dictionary", "12.4.2")

DIAGNOSTICS.group("Commands: export, render, fix and their arguments (present, cli)")
_d("usage", "a command's arguments do not go together (the message says how to call it)")
_d("page-missing", "the document has no page of that number")
_d("revision-missing", "the document has no revision of that number (numbered from 0)")
_d("object-missing", "the document has no object of that number")
_d("not-a-stream", "the object is missing or not a stream, so it has no data to write")
_d("not-a-font", "the object is not a font, a font descriptor or a font file")
_d("font-not-embedded", "the font has no embedded program to write")
_d("nothing-to-export", "the object is neither a stream nor a font: nothing to write")
_d("image-unreadable", "the image cannot be decoded to the format asked for")
_d("format-unsupported", "the output's suffix names a format the object cannot be written as")
_d("output-is-input", "the output path is the input file; the input is never written")
_d("output-dir-missing", "the output's folder does not exist (pdfinspect creates no folders)")
_d("output-is-dir", "the output path is a folder, not a file")
_d("output-unwritable", "the output cannot be written (the operating system's reason is given)")
_d("scale-bad", "render's --scale is not between 0 and 20")
_d("render-failed", "the page cannot be rendered (the renderer's reason is given)")
_d("page-label-ambiguous", "-p names a page label several pages carry: give the page number")
_d("pattern-bad", "search's regular expression does not compile")
_d("budget-spent", "the interpretation budget (operators, decoded bytes, form runs, glyphs) ran out; "
   "--budget N raises it")
_d("shapes-unreadable", "the shape table given with --shapes cannot be read (not a file, not a shape table)")
