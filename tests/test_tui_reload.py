"""The app and a file that changes under it (pdflatex rewrites the PDF on every compile):
it says so once and ctrl+r opens the file again."""
from __future__ import annotations

from conftest import press, sample, settle
from pdfinspect.core.document import Document
from pdfinspect.tui.app import PdfInspectApp
from pdfinspect.tui.messages import Reload


async def test_a_rewritten_file_is_announced_once_and_ctrl_r_reloads_it(tmp_path):
    path = tmp_path / "paper.pdf"
    path.write_bytes(sample("content.pdf").read_bytes())
    app = PdfInspectApp(Document.open(path), "")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        app.check_file()
        assert not app._notifications
        path.write_bytes(b"")  # the compile truncates it first
        app.check_file()
        app.check_file()
        await pilot.pause()
        told = [n.message for n in app._notifications]
        assert len(told) == 1 and "ctrl+r reloads" in told[0]
        await press(pilot, "ctrl+r")
    assert isinstance(app.return_value, Reload) and app.return_value.path == str(path)
