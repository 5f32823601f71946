"""Stable codes of the glyph resolver (ISO 32000-1 9.10.2): the path methods, the outcome of
each path step and the flags of a resolution, each documented once (see :mod:`..spec.codes`).

Code reads these codes, never the messages beside them: ``Resolution.has_flag(TOUNICODE_MISS)``,
``step.code == AGL_NO_MAPPING``.
"""
from __future__ import annotations

from ..spec.codes import Registry
from .heuristics import GUESS, HEURISTIC, HEURISTICS, NO_CONFIDENCE, SPEC

METHODS = Registry(
    "method", "Resolution methods",
    "The `method` of a path step and of a glyph: the spec's four methods in the order of ISO 32000-1 9.10.2, "
    "then the heuristics real extractors apply (confidence `heuristic`), then `ActualText` and `None`.")
METHODS.group("ISO 32000 methods (confidence spec)")
TOUNICODE = METHODS.add("ToUnicode", "the font's /ToUnicode CMap", "9.10.3")
ENCODING = METHODS.add("Encoding", "simple fonts: code → glyph name (/Differences over the base encoding) → Adobe "
                       "Glyph List", "9.10.2")
CID_COLLECTION = METHODS.add("CIDCollection", "Type0 fonts: code → CID (the CMap) → Registry-Ordering-UCS2 of a "
                             "public collection (Adobe-GB1, CNS1, Japan1, Korea1)", "9.10.2")
FONT_PROGRAM = METHODS.add("FontProgram", "the embedded font program: built-in encoding, TrueType cmap, post "
                           "names, CFF charset, /CIDToGIDMap", "9.9")
METHODS.group("Heuristics (confidence heuristic)")
for _h in HEURISTICS:
    METHODS.add(_h.method, f"{_h.summary} (used by {', '.join(_h.used_by)})")
METHODS.group("Other")
ACTUAL_TEXT = METHODS.add("ActualText", "marked content's /ActualText replaces the glyphs' text", "14.9.4")
NONE = METHODS.add("None", "no method gives text")

STEPS = Registry(
    "step", "Path step codes",
    "Each step of a resolution path (`glyphs --path`, `glyphs --json` `path[].code`) says why it hit, missed or "
    "was skipped with one of these codes; `detail` says the same for people.")
_s = STEPS.add
STEPS.group("ToUnicode")
TOUNICODE_ABSENT = _s("tounicode_absent", "skipped: the font has no /ToUnicode CMap", "9.10.3")
TOUNICODE_NO_ENTRY = _s("tounicode_no_entry", "miss: the ToUnicode CMap has no entry for the code", "9.10.3")
TOUNICODE_ENTRY = _s("tounicode_entry", "hit: a bfchar or bfrange entry maps the code", "9.10.3")
STEPS.group("Encoding and glyph names")
ENCODING_TYPE0 = _s("encoding_type0", "skipped: a Type0 font's codes select CIDs, not glyph names", "9.7.6.2")
ENCODING_ABSENT = _s("encoding_absent", "skipped: no base encoding and no /Differences for the code", "9.6.6.1")
DOUBLE_BYTE_CODE = _s("double_byte_code", "skipped: a double-byte code in a simple font (legacy CJK codepage); "
                      "simple-font tables take one byte", "9.6.6")
CODE_NOT_ENCODED = _s("code_not_encoded", "miss: the encoding maps the code to no glyph or to .notdef", "9.6.6.1")
GLYPH_NAME_MEANINGLESS = _s("glyph_name_meaningless", "miss: the glyph name carries no meaning (g12, cid00042, "
                            "glyph7)", "9.10.2")
AGL_NO_MAPPING = _s("agl_no_mapping", "miss: no Adobe Glyph List rule maps the glyph name", "9.10.2")
AGL_MAPPED = _s("agl_mapped", "hit: the Adobe Glyph List (or its uniXXXX/uXXXX rules) maps the glyph name",
                "9.10.2")
STEPS.group("CID collection")
NOT_TYPE0 = _s("not_type0", "skipped: only Type0 fonts have CIDs", "9.7.6")
NO_CID = _s("no_cid", "miss or skipped: the CMap maps the code to no CID", "9.7.5")
COLLECTION_PRIVATE = _s("collection_private", "skipped: the CIDSystemInfo is not a public character collection, "
                        "so CIDs carry no meaning", "9.10.2")
CID_NOT_IN_UCS2 = _s("cid_not_in_ucs2", "miss: the collection's UCS2 CMap has no entry for the CID", "9.10.2")
UCS2_MAPPED = _s("ucs2_mapped", "hit: the collection's Registry-Ordering-UCS2 CMap maps the CID", "9.10.2")
STEPS.group("Font program")
TYPE3_PROCEDURES = _s("type3_procedures", "skipped: Type3 glyph procedures draw shapes and carry no text", "9.6.5")
PROGRAM_NOT_EMBEDDED = _s("program_not_embedded", "skipped: no font program is embedded (or a standard 14 font)",
                          "9.9")
PROGRAM_UNREADABLE = _s("program_unreadable", "miss: the embedded program cannot be read", "9.9")
GLYPH_CHOSEN_BY_ENCODING = _s("glyph_chosen_by_encoding", "skipped: /Encoding chose the glyph; the program only "
                              "says whether it has it", "9.6.6")
NOT_IN_BUILTIN_ENCODING = _s("not_in_builtin_encoding", "miss: the code is not in the program's built-in encoding",
                             "9.6.6")
NO_CMAP_SUBTABLE = _s("no_cmap_subtable", "miss: no cmap subtable of the TrueType program maps the code", "9.6.6.4")
CID_NOT_IN_PROGRAM = _s("cid_not_in_program", "miss: the CID maps to no glyph of the program", "9.7.4.2")
GID_NO_TEXT = _s("gid_no_text", "miss: neither a Unicode cmap entry nor a glyph name for the glyph")
UNICODE_CMAP = _s("unicode_cmap", "hit: the program's Unicode cmap maps a character to the glyph")
STEPS.group("Heuristics")
TEX_GREEK = _s("tex_greek", "hit: an AGL name a TeX font uses for a Greek letter (Delta, Omega, mu)")
TEX_GLYPH = _s("tex_glyph", "hit: the TeX glyph list (or a cmex size variant's base) maps the name")
NUMERIC_CODE = _s("numeric_code", "hit: a numeric glyph name read as the character code")
NUMERIC_GLYPH_INDICES = _s("numeric_glyph_indices", "miss: the font's numeric names are glyph indices, not codes")
BASE_ENCODING_CHAR = _s("base_encoding_char", "hit: the base encoding's character for a /Differences name nothing "
                        "maps")
BASE_ENCODING_EMPTY = _s("base_encoding_empty", "miss: the base encoding has nothing for the code")
STANDARD_ENCODING_CHAR = _s("standard_encoding_char", "hit: StandardEncoding stands in for an unknown built-in "
                            "encoding")
STANDARD_ENCODING_EMPTY = _s("standard_encoding_empty", "miss: StandardEncoding has nothing for the code")
CODE_AS_CHAR = _s("code_as_char", "hit: the code (or CID) itself read as a Unicode code point")
CONTROL_CODE = _s("control_code", "miss: the code (or CID) is a control code or no code point")
CJK_DECODED = _s("cjk_decoded", "hit: the bytes decode cleanly in the legacy CJK codepage the font's family names")
CJK_UNDECODABLE = _s("cjk_undecodable", "miss: the bytes do not decode to a character in that codepage")
MAC_GLYPH_NAMED = _s("mac_glyph_named", "hit: the CID read as a glyph id of the standard Macintosh order, whose "
                     "name the AGL maps (the font's widths follow that order)")
MAC_GLYPH_UNNAMED = _s("mac_glyph_unnamed", "miss: the CID has no name in the standard Macintosh order (258 names)")
MAC_ORDER_UNFIT = _s("mac_order_unfit", "miss: the font's widths do not follow the Macintosh order well enough "
                     "to read its CIDs as glyph ids in it, or follow it only for its ASCII glyphs (3–97) and the CID "
                     "is past them (the detail gives the rank correlations)")
SHAPE_VOTE = _s("shape_vote", "hit: fonts with spec-grade mappings that draw the same outline clearly read it as "
                "this text")
SHAPE_VOTE_COARSE = _s("shape_vote_coarse", "hit: the exact outline is in no font of the table, and fonts with "
                       "spec-grade mappings that draw nearly the same outline (the coarse key: contours, size in "
                       "1/20 em, an 8×8 fill) read it as this text, two fonts or more and 97% of them")
SHAPE_LIKENESS = _s("shape_likeness", "hit: no font of the table draws the outline, exactly or nearly, and the "
                    "labelled outlines of other typefaces it looks like most (the likeness key: contours, bottom "
                    "and top in 1/100 em, a 16×16 fill) read it as this text, two fonts or more, the nearest "
                    "outline of another character clearly farther, and no other glyph of the font read so")
STEPS.group("Other")
ACTUAL_TEXT_REPLACES = _s("actual_text", "hit: /ActualText replaces the text of the glyphs it covers", "14.9.4")

FLAGS = Registry(
    "flag", "Resolution flags",
    "A glyph's `flags` (`glyphs --json`: `flags` holds these codes, `flag_messages` the sentences in the same "
    "order; `glyphs --path` and the app show the sentences).")
_f = FLAGS.add
UNRESOLVED = _f("unresolved", "no method or heuristic gives text for the code", "9.10.2")
TOUNICODE_MISS = _f("tounicode_miss", "the font has a ToUnicode CMap without an entry for the code, and another "
                    "method reads other text: a ToUnicode-only extractor (Acrobat) outputs the raw code", "9.10.3")
HEURISTIC_ONLY = _f("heuristic_only", "only a heuristic finds text; the spec's methods give nothing")
METHODS_DISAGREE = _f("methods_disagree", "methods give different text (the conflicts list them)", "9.10.2")
AGL_TEX_AMBIGUITY = _f("agl_tex_ambiguity", "an AGL name a TeX font uses for a Greek letter: the Greek letter is "
                       "taken, not the AGL's character")
MEANINGLESS_GLYPH_NAME = _f("meaningless_glyph_name", "a glyph name that carries no meaning (g12, cid00042)")
PRIVATE_USE = _f("private_use", "the text is in a Private Use Area")
REPLACEMENT_CHARACTER = _f("replacement_character", "the text holds U+FFFD REPLACEMENT CHARACTER")
CONTROL_CHARACTER = _f("control_character", "the text holds a control character")
IMPLAUSIBLE_GUESS = _f("implausible_guess", "a heuristic's text judged implausible (confidence guess): kept in the "
                       "path, out of the text unless guesses are asked for")
MAPPING_CONTRADICTS_SHAPE = _f("mapping_contradicts_shape", "a spec-grade text that a clear vote of other fonts "
                               "drawing the same outline contradicts")

VALUES = Registry(
    "value", "Step results and confidences",
    "The `result` of a path step and the `confidence` of a step or a glyph (`glyphs --json`, `fonts --json` "
    "`confidence` counts, audit records).")
VALUES.group("result")
HIT = VALUES.add("hit", "the step gave text")
MISS = VALUES.add("miss", "the step applied and gave no text")
SKIPPED = VALUES.add("skipped", "the step does not apply to this font or code")
VALUES.group("confidence")
VALUES.add(SPEC, "one of ISO 32000's methods gave the text", "9.10.2")
VALUES.add(HEURISTIC, "only a heuristic gave the text (named, with the readers that use it)")
VALUES.add(GUESS, "only a heuristic gave text, judged implausible: kept in the path, out of the text unless "
                  "guesses are asked for")
VALUES.add(NO_CONFIDENCE, "nothing gave text")
