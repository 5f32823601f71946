"""``diff``: objects added, changed, freed between revisions, streams compared as decoded text."""
from __future__ import annotations

import json
import subprocess
import sys

from conftest import ROOT, sample
from pdfinspect.core.document import Document
from pdfinspect.present.history import revision_diff


def _cli(*argv) -> subprocess.CompletedProcess:
    env = {"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}
    return subprocess.run([sys.executable, "-m", "pdfinspect", *map(str, argv)], capture_output=True, text=True,
                          env=env, timeout=300)


def test_incremental_sample_revision_by_revision():
    with Document.open(sample("incremental.pdf")) as doc:
        first = {d.num: d for d in revision_diff(doc, 0, 1)}
        second = {d.num: d for d in revision_diff(doc, 1, 2)}
    assert {n: d.change for n, d in first.items()} == {3: "changed", 4: "changed", 7: "added"}
    content = first[4].stream
    assert content.kind == "content" and content.text
    assert "-BT /F1 24 Tf 72 720 Td (Revision 1) Tj ET" in content.lines
    assert "+BT /F1 24 Tf 72 720 Td (Revision 2: object 4 changed) Tj ET" in content.lines
    assert {n: d.change for n, d in second.items()} == {3: "changed", 7: "freed", 8: "added"}
    assert "+<< /Title (Revision 3) >>" in second[8].lines


def test_diff_cli_default_is_the_last_two_revisions_and_json():
    r = _cli("diff", sample("incremental.pdf"), "--json")
    assert r.returncode == 0, r.stderr
    rec = json.loads(r.stdout)
    assert (rec["from"], rec["to"]) == (1, 2)
    assert {o["num"]: o["change"] for o in rec["objects"]} == {3: "changed", 7: "freed", 8: "added"}
    assert "+  /Info 8 0 R" in rec["trailer"]
    one = json.loads(_cli("diff", sample("incremental.pdf"), "--revision", "0", "1", "4", "--json").stdout)
    assert [o["num"] for o in one["objects"]] == [4] and one["objects"][0]["stream"]["text"]
    bad = _cli("diff", sample("incremental.pdf"), "--revision", "0", "9")
    assert bad.returncode == 1 and "no revision 9" in bad.stderr and "Traceback" not in bad.stderr


def test_fix_output_shows_the_new_tounicode_as_a_text_diff(tmp_path):
    fixed = tmp_path / "fixed.pdf"
    r = _cli("fix", sample("kappa.pdf"), "-o", fixed)
    assert r.returncode == 0, r.stderr
    r = _cli("diff", fixed, "5")
    assert r.returncode == 0, r.stderr
    assert "/ToUnicode now 9 0 R instead of 7 0 R" in r.stdout
    assert "  -1 beginbfchar" in r.stdout and "  +<14> <03ba>" in r.stdout


def test_binary_streams_get_a_byte_summary(tmp_path):
    import pikepdf

    path = tmp_path / "img.pdf"
    pdf = pikepdf.Pdf.new()
    pdf.add_blank_page()
    img = pdf.make_stream(bytes(range(256)), Type=pikepdf.Name.XObject, Subtype=pikepdf.Name.Image, Width=16,
                          Height=16, ColorSpace=pikepdf.Name.DeviceGray, BitsPerComponent=8)
    pdf.pages[0].Resources = pikepdf.Dictionary(XObject=pikepdf.Dictionary(Im1=img))
    num, root, size = img.objgen[0], pdf.Root.objgen[0], len(pdf.objects) + 1
    pdf.save(path, object_stream_mode=pikepdf.ObjectStreamMode.disable, compress_streams=False)
    data = path.read_bytes()
    prev = int(data[data.rindex(b"startxref") + 9:].split()[0])
    # an incremental update that rewrites the image with other bytes
    obj = (f"{num} 0 obj\n<< /Type /XObject /Subtype /Image /Width 16 /Height 16 /ColorSpace /DeviceGray "
           f"/BitsPerComponent 8 /Length 256 >>\nstream\n").encode() + bytes(range(255, -1, -1)) + b"\nendstream\nendobj\n"
    at = len(data) + 1
    xref = len(data) + 1 + len(obj)
    tail = (f"xref\n0 1\n0000000000 65535 f \n{num} 1\n{at:010d} 00000 n \ntrailer\n<< /Size {size} /Root {root} 0 R "
            f"/Prev {prev} >>\nstartxref\n{xref}\n%%EOF\n").encode()
    path.write_bytes(data + b"\n" + obj + tail)
    with Document.open(path) as doc:
        assert len(doc.revisions) == 2
        (d,) = revision_diff(doc, 0, 1)
    assert d.num == num and d.change == "changed"
    assert not d.stream.text and d.stream.kind == "hex"
    assert d.stream.lines == ("binary data: 256 → 256 bytes decoded, first difference at offset 0, 256 byte(s) "
                              "differ or were added/removed",)
