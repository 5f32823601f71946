"""Standard security handler (ISO 32000 7.6) checked against pikepdf/qpdf on real files.

Until the Document lands, a small reader below finds objects with our Lexer: classic
``N G obj`` scan, trailer /Encrypt and /ID, stream bytes by /Length.
"""
from __future__ import annotations

import io
import re
from pathlib import Path

import pikepdf
import pytest

from pdfinspect.core.crypt import PERMISSION_BITS, SecurityHandler
from pdfinspect.core.crypt.ciphers import aes_cbc_raw, rc4, rc4_key
from pdfinspect.core.diagnostics import PasswordError, PdfError
from pdfinspect.core.lexer import DELIM, EOF, INT, KEYWORD, NAME, Lexer
from pdfinspect.core.objects import Array, Dict, Name, Ref, String

CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpus"
OWNER = b"dev-owner"


# --- a minimal reader over our Lexer (classic xref files without object streams) ---------

def _value(lx: Lexer, tok=None):
    tok = tok or lx.next()
    if tok.kind == DELIM and tok.value == b"<<":
        d = Dict()
        while (key := lx.next()).kind == NAME:
            d[key.value] = _value(lx)
        return d
    if tok.kind == DELIM and tok.value == b"[":
        a = Array()
        while not ((t := lx.next()).kind == DELIM and t.value == b"]"):
            a.append(_value(lx, t))
        return a
    if tok.kind == INT:
        save = lx.pos
        gen, r = lx.next(), lx.next()
        if gen.kind == INT and r.kind == KEYWORD and r.value == b"R":
            return Ref(tok.value, gen.value)
        lx.pos = save
    if tok.kind == KEYWORD:
        return {b"true": True, b"false": False, b"null": None}.get(tok.value, tok.value)
    return tok.value


class RawFile:
    """Objects of a classic PDF, their raw (still encrypted) stream bytes, the trailer."""

    def __init__(self, data: bytes):
        self.data = data
        self.objects: dict[tuple[int, int], object] = {}
        self.streams: dict[tuple[int, int], bytes] = {}
        for m in re.finditer(rb"(?<![0-9])(\d+) (\d+) obj\b", data):
            lx = Lexer(data, m.end())
            self.objects[int(m.group(1)), int(m.group(2))] = (_value(lx), lx)
        for key, (obj, lx) in list(self.objects.items()):
            self.objects[key] = obj
            tok = lx.next()
            if tok.kind == KEYWORD and tok.value == b"stream":
                start = tok.end + (2 if data[tok.end:tok.end + 2] == b"\r\n" else 1)
                self.streams[key] = data[start:start + self.resolve(obj["Length"])]
        lx = Lexer(data, data.rindex(b"trailer") + len(b"trailer"))
        self.trailer = _value(lx)
        assert lx.next().kind in (KEYWORD, EOF)

    def resolve(self, value):
        return self.objects[value.num, value.gen] if isinstance(value, Ref) else value

    def handler(self, password: bytes = b"") -> SecurityHandler:
        encrypt = self.resolve(self.trailer["Encrypt"])
        return SecurityHandler.open(encrypt, self.trailer["ID"][0].value, password)


def _assert_same_strings(ours, theirs, handler, ref):
    """Every string in ``ours`` decrypts to the bytes pikepdf gives at the same place."""
    if isinstance(ours, String):
        assert handler.decrypt_string(ours.value, *ref) == bytes(theirs), ref
    elif isinstance(ours, Dict):
        for key, value in ours.items():
            _assert_same_strings(value, theirs["/" + key], handler, ref)
    elif isinstance(ours, Array):
        for value, their in zip(ours, theirs, strict=True):
            _assert_same_strings(value, their, handler, ref)


def _check_against_pikepdf(data: bytes, password: bytes) -> SecurityHandler:
    raw = RawFile(data)
    handler = raw.handler(password)
    with pikepdf.open(io.BytesIO(data), password=password.decode("utf-8")) as pdf:
        assert handler.file_key == pdf.encryption.encryption_key
        encrypt_ref = raw.trailer["Encrypt"]
        for (num, gen), obj in raw.objects.items():
            if (num, gen) == (encrypt_ref.num, encrypt_ref.gen):
                continue
            theirs = pdf.get_object((num, gen))
            _assert_same_strings(obj, theirs, handler, (num, gen))
            if (num, gen) in raw.streams:
                crypt = None
                if obj.get("Type") == "Metadata" and not handler.encrypt_metadata:
                    crypt = "Identity"
                ours = handler.decrypt_stream(raw.streams[num, gen], num, gen, crypt)
                assert ours == theirs.read_raw_bytes(), (num, gen)
    assert raw.streams, "no stream was compared"
    assert handler.diagnostics == []
    return handler


# --- corpus: files written by qpdf --encrypt -----------------------------------------------

# (file, user password, V, R, method, bits) as described in the corpus README.
CORPUS_FILES = [
    ("qpdf-rc4-40.pdf", b"", 1, 2, "RC4-40", 40),
    ("qpdf-rc4-128.pdf", b"", 2, 3, "RC4-128", 128),
    ("qpdf-aes-128.pdf", b"", 4, 4, "AESV2", 128),
    ("qpdf-aes-256.pdf", b"", 5, 6, "AESV3", 256),
    ("qpdf-aes-256-userpw.pdf", b"opensesame", 5, 6, "AESV3", 256),
]


@pytest.fixture(scope="module")
def corpus():
    if not CORPUS.is_dir():
        pytest.skip("corpus not present")
    return CORPUS


@pytest.mark.parametrize("name,user,v,r,method,bits", CORPUS_FILES)
def test_corpus_user_password_decrypts_like_pikepdf(corpus, name, user, v, r, method, bits):
    handler = _check_against_pikepdf((corpus / name).read_bytes(), user)
    assert (handler.version, handler.revision, handler.method, handler.key_length) == (
        v, r, method, bits)
    assert handler.authenticated_as == "user"
    assert f"V{v} R{r}" in handler.describe() and "user password" in handler.describe()


@pytest.mark.parametrize("name,user,v,r,method,bits", CORPUS_FILES)
def test_corpus_owner_password_gives_the_same_key(corpus, name, user, v, r, method, bits):
    raw = RawFile((corpus / name).read_bytes())
    owner = raw.handler(OWNER)
    assert owner.authenticated_as == "owner"
    assert owner.file_key == raw.handler(user).file_key


@pytest.mark.parametrize("name", [f[0] for f in CORPUS_FILES])
def test_corpus_wrong_password_raises(corpus, name):
    raw = RawFile((corpus / name).read_bytes())
    with pytest.raises(PasswordError) as info:
        raw.handler(b"not-the-password")
    assert info.value.diagnostic.code == "password-wrong"


def test_corpus_userpw_file_refuses_empty_password(corpus):
    raw = RawFile((corpus / "qpdf-aes-256-userpw.pdf").read_bytes())
    with pytest.raises(PasswordError):
        raw.handler(b"")


# pikepdf.Permissions field for each Table 22 bit.
PIKEPDF_PERMISSION = {3: "print_lowres", 4: "modify_other", 5: "extract",
                      6: "modify_annotation", 9: "modify_form", 10: "accessibility",
                      11: "modify_assembly", 12: "print_highres"}


def test_corpus_restricted_permissions_match_pikepdf(corpus):
    path = corpus / "qpdf-rc4-128.pdf"
    handler = RawFile(path.read_bytes()).handler()
    with pikepdf.open(path) as pdf:
        granted = {bit: getattr(pdf.allow, name) for bit, name in PIKEPDF_PERMISSION.items()}
    expected = [f"{meaning}: {'granted' if granted[bit] else 'denied'}"
                for bit, _, meaning in PERMISSION_BITS]
    assert handler.permission_flags() == expected
    assert "modify contents: denied" in expected


# --- files written by pikepdf for every revision ----------------------------------------------

XMP = (b'<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF '
       b'xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"/></x:xmpmeta>')


def _encrypted(encryption: pikepdf.Encryption) -> bytes:
    pdf = pikepdf.new()
    pdf.add_blank_page()
    page = pdf.pages[0]
    page.Contents = pdf.make_stream(b"BT /F1 12 Tf 72 720 Td (Hello) Tj ET")
    page.obj.Annots = pikepdf.Array([pikepdf.Dictionary(
        Type=pikepdf.Name.Annot, Subtype=pikepdf.Name.Text, Rect=[0, 0, 10, 10],
        Contents=pikepdf.String("note \u00e9\u0000\xff"))])
    pdf.Root.Metadata = pdf.make_stream(XMP,
                                        Type=pikepdf.Name.Metadata, Subtype=pikepdf.Name.XML)
    pdf.docinfo.Title = "Encrypted \u2603"
    out = io.BytesIO()
    pdf.save(out, encryption=encryption, object_stream_mode=pikepdf.ObjectStreamMode.disable)
    return out.getvalue()


# (R, aes, metadata, expected method). pikepdf needs metadata=False below R4, where the
# spec has no /EncryptMetadata and metadata is always encrypted (7.6.3.2 Table 21).
GENERATED = [
    (2, False, False, "RC4-40"),
    (3, False, False, "RC4-128"),
    (4, False, False, "RC4-128"),
    (4, True, True, "AESV2"),
    (4, True, False, "AESV2"),
    (5, True, True, "AESV3"),
    (6, True, True, "AESV3"),
    (6, True, False, "AESV3"),
]


@pytest.mark.filterwarnings("ignore:Encryption R=5 is deprecated")
@pytest.mark.parametrize("r,aes,metadata,method", GENERATED)
def test_generated_revisions(r, aes, metadata, method):
    data = _encrypted(pikepdf.Encryption(owner="own", user="usr", R=r, aes=aes,
                                         metadata=metadata))
    handler = _check_against_pikepdf(data, b"usr")
    assert (handler.revision, handler.method) == (r, method)
    assert handler.encrypt_metadata == (metadata or r < 4)
    assert handler.authenticated_as == "user"
    owner = _check_against_pikepdf(data, b"own")
    assert owner.authenticated_as == "owner"


def test_generated_non_ascii_password_r6():
    data = _encrypted(pikepdf.Encryption(owner="Eigentümer", user="grüße", R=6))
    raw = RawFile(data)
    assert raw.handler("grüße".encode("utf-8")).authenticated_as == "user"
    assert raw.handler("grüße".encode("latin-1")).authenticated_as == "user"
    assert raw.handler("Eigentümer".encode("utf-8")).authenticated_as == "owner"
    with pytest.raises(PasswordError):
        raw.handler(b"grusse")


# --- unsupported and damaged input -----------------------------------------------------------

def _generated_encrypt(**changes) -> tuple[Dict, bytes]:
    raw = RawFile(_encrypted(pikepdf.Encryption(owner="own", user="", R=6)))
    encrypt = Dict(raw.resolve(raw.trailer["Encrypt"]))
    encrypt.update({Name(k): v for k, v in changes.items()})
    return encrypt, raw.trailer["ID"][0].value


@pytest.mark.parametrize("changes", [{"Filter": Name("Adobe.PubSec")}, {"V": 3}, {"R": 7},
                                     {"V": 4}, {"V": 2, "R": 3, "Length": 64},
                                     {"CF": Dict({Name("StdCF"): Dict(CFM=Name("V2"))})}])
def test_unsupported_handlers_raise(changes):
    encrypt, first_id = _generated_encrypt(**changes)
    with pytest.raises(PdfError) as info:
        SecurityHandler.open(encrypt, first_id)
    assert info.value.diagnostic.code == "encrypt-unsupported"
    assert not isinstance(info.value, PasswordError)


def test_perms_disagreeing_with_p_is_a_diagnostic():
    encrypt, first_id = _generated_encrypt(P=-4)
    handler = SecurityHandler.open(encrypt, first_id)
    assert [d.code for d in handler.diagnostics] == ["perms-mismatch"]
    assert handler.permissions == -4


def test_truncated_u_is_encrypt_damaged():
    encrypt, first_id = _generated_encrypt()
    encrypt[Name("U")] = String(encrypt["U"].value[:40])
    with pytest.raises(PdfError) as info:
        SecurityHandler.open(encrypt, first_id)
    assert info.value.diagnostic.code == "encrypt-damaged"


# --- AES framing on bytes built with cryptography directly -----------------------------------

@pytest.fixture(scope="module")
def aes256():
    encrypt, first_id = _generated_encrypt()
    return SecurityHandler.open(encrypt, first_id)


def _aes_encrypt(key: bytes, plain_padded: bytes) -> bytes:
    iv = bytes(range(16))
    return iv + aes_cbc_raw(key, iv, plain_padded, encrypt=True)


def test_aes_bad_padding_returns_plaintext_and_diagnostic(aes256):
    before = len(aes256.diagnostics)
    block = b"sixteen byte txt" + b"\x00" * 15 + b"\x07"
    out = aes256.decrypt_stream(_aes_encrypt(aes256.file_key, block), 12, 0)
    assert out == block
    assert [d.code for d in aes256.diagnostics[before:]] == ["aes-padding-bad"]
    assert aes256.diagnostics[-1].ref == (12, 0)


def test_aes_ragged_length_decrypts_whole_blocks(aes256):
    before = len(aes256.diagnostics)
    data = _aes_encrypt(aes256.file_key, b"hello" + b"\x0b" * 11) + b"xyz"
    assert aes256.decrypt_string(data, 3, 0) == b"hello"
    assert [d.code for d in aes256.diagnostics[before:]] == ["aes-length-bad"]


def test_aes_empty_and_short(aes256):
    before = len(aes256.diagnostics)
    assert aes256.decrypt_string(b"", 1, 0) == b""
    assert aes256.diagnostics[before:] == []
    assert aes256.decrypt_string(b"0123456789", 1, 0) == b""
    assert [d.code for d in aes256.diagnostics[before:]] == ["aes-too-short"]


def test_identity_crypt_filter_leaves_stream_alone(aes256):
    assert aes256.decrypt_stream(b"plain bytes", 5, 0, "Identity") == b"plain bytes"


def test_rc4_key_repetition_schedules_identically():
    # A 12-byte key (56-bit file key + 5) is accepted as its 24-byte repetition; RC4 of a
    # 10-byte key equals RC4 of the same key repeated to 20 bytes, which the library takes.
    key = bytes(range(1, 11))
    assert rc4_key(bytes(12)) == bytes(24)
    assert rc4(key, b"attack at dawn") == rc4(key * 2, b"attack at dawn")
    assert rc4_key(bytes(13)) is None


def test_string_and_stream_filters_can_differ():
    raw = RawFile(_encrypted(pikepdf.Encryption(owner="own", user="", R=4, aes=True)))
    encrypt = Dict(raw.resolve(raw.trailer["Encrypt"]))
    encrypt[Name("StrF")] = Name("Identity")
    handler = SecurityHandler.open(encrypt, raw.trailer["ID"][0].value)
    assert (handler.string_method, handler.stream_method, handler.method) == (
        "Identity", "AESV2", "AESV2")
    assert handler.decrypt_string(b"as written", 4, 0) == b"as written"
    assert "strings Identity" in handler.describe()


def test_unknown_crypt_filter_name_falls_back_to_stmf(aes256):
    before = len(aes256.diagnostics)
    data = _aes_encrypt(aes256.file_key, b"payload" + b"\x09" * 9)
    assert aes256.decrypt_stream(data, 8, 0, "NoSuchFilter") == b"payload"
    assert [d.code for d in aes256.diagnostics[before:]] == ["crypt-filter-unknown"]


def test_v6_with_crypt_filters_is_unsupported_not_a_traceback():
    from pdfinspect.core.crypt import encryption_facts
    encrypt, first_id = _generated_encrypt(V=6, R=7, CF=Dict({Name("StdCF"): Dict(CFM=Name("AESV4"))}))
    with pytest.raises(PdfError) as info:
        SecurityHandler.open(encrypt, first_id)
    assert info.value.diagnostic.code == "encrypt-unsupported"
    assert "/V 6" in encryption_facts(encrypt).problem


def test_damaged_ue_is_reported_not_opened_with_the_user_password():
    encrypt, first_id = _generated_encrypt()
    ue = encrypt["UE"].value
    encrypt[Name("UE")] = String(bytes(b ^ 0x55 for b in ue))
    with pytest.raises(PdfError) as info:
        SecurityHandler.open(encrypt, first_id)
    assert info.value.diagnostic.code == "encrypt-damaged" and "/UE" in info.value.diagnostic.message
