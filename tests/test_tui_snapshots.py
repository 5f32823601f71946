"""SVG snapshots of the main screens on sample files (accept changes: pytest --snapshot-update)."""
from __future__ import annotations

from conftest import press, sample, settle

from pdfinspect.core.document import Document
from pdfinspect.tui import start_target
from pdfinspect.tui.app import PdfInspectApp

SIZE = (120, 36)


def app_on(name: str, object_num: int | None = None) -> PdfInspectApp:
    doc = Document.open(sample(name))
    return PdfInspectApp(doc, "", start_target(doc, object_num, None))


def test_overview_of_a_repaired_file(snap_compare):
    assert snap_compare(app_on("damaged-bad-offsets.pdf"), terminal_size=SIZE, run_before=settle)


def test_browser_object_with_referrers(snap_compare):
    assert snap_compare(app_on("minimal.pdf", 3), terminal_size=SIZE, run_before=settle)


def test_browser_content_stream(snap_compare):
    assert snap_compare(app_on("content.pdf", 4), terminal_size=SIZE, run_before=settle)


def test_browser_binary_stream_as_hex(snap_compare):
    assert snap_compare(app_on("filters.pdf", 11), terminal_size=SIZE, run_before=settle)


def test_revisions(snap_compare):
    async def open_revisions(pilot) -> None:
        await pilot.press("v")
        await settle(pilot)

    assert snap_compare(app_on("incremental.pdf"), terminal_size=SIZE, run_before=open_revisions)


def test_help(snap_compare):
    async def open_help(pilot) -> None:
        await pilot.press("question_mark")
        await settle(pilot)

    assert snap_compare(app_on("minimal.pdf"), terminal_size=SIZE, run_before=open_help)


# -- 80x24: every screen at the smallest terminal we support -------------------------------
SMALL = (80, 24)


def content_app(name: str, view: str) -> PdfInspectApp:
    return PdfInspectApp(Document.open(sample(name)), "", None, (view, 1))


def test_overview_at_80x24(snap_compare):
    assert snap_compare(app_on("kappa.pdf"), terminal_size=SMALL, run_before=settle)


def test_browser_at_80x24(snap_compare):
    assert snap_compare(app_on("kappa.pdf", 4), terminal_size=SMALL, run_before=settle)


def test_stepper_at_80x24(snap_compare):
    async def to_the_tj(pilot) -> None:
        await settle(pilot)
        await pilot.press("t")  # the first text-showing operator
        await settle(pilot)

    assert snap_compare(content_app("kappa.pdf", "stepper"), terminal_size=SMALL, run_before=to_the_tj)


def test_glyphs_at_80x24(snap_compare):
    assert snap_compare(content_app("kappa.pdf", "glyphs"), terminal_size=SMALL, run_before=settle)


def test_revisions_at_80x24(snap_compare):
    async def open_revisions(pilot) -> None:
        await pilot.press("v")
        await settle(pilot)

    assert snap_compare(app_on("incremental.pdf"), terminal_size=SMALL, run_before=open_revisions)


def test_help_at_80x24(snap_compare):
    async def open_help(pilot) -> None:
        await pilot.press("question_mark")
        await settle(pilot)

    assert snap_compare(app_on("minimal.pdf"), terminal_size=SMALL, run_before=open_help)


def test_search_objects_at_80x24(snap_compare):
    async def search(pilot) -> None:
        await pilot.press("slash", *"page", "enter")
        await settle(pilot)

    assert snap_compare(app_on("pages.pdf"), terminal_size=SMALL, run_before=search)


def test_search_page_text_at_80x24(snap_compare):
    async def search(pilot) -> None:
        await pilot.press("slash", "ctrl+t", *"page", "enter")
        await settle(pilot)

    assert snap_compare(app_on("pages.pdf"), terminal_size=SMALL, run_before=search)


async def _field_reads(pilot, selector: str, value: str) -> None:
    """Put a path in a prompt's field: the proposed one is absolute, and differs per checkout."""
    pilot.app.screen.query_one(selector).value = value
    await settle(pilot)


def test_fix_prompt_at_80x24(snap_compare):
    async def fix(pilot) -> None:
        await press(pilot, "w")
        await _field_reads(pilot, "#fix-output", "kappa-fixed.pdf")

    assert snap_compare(content_app("kappa.pdf", "glyphs"), terminal_size=SMALL, run_before=fix)


def test_export_prompt_at_80x24(snap_compare):
    async def export(pilot) -> None:
        await press(pilot, "e")
        await _field_reads(pilot, "#export-output", "font-8.pfb")

    assert snap_compare(app_on("kappa.pdf", 8), terminal_size=SMALL, run_before=export)


def test_stepper_preview_at_80x24(snap_compare):
    async def preview(pilot) -> None:
        await press(pilot, "t", "i")

    assert snap_compare(content_app("kappa.pdf", "stepper"), terminal_size=SMALL, run_before=preview)


def test_glyphs_preview_at_80x24(snap_compare):
    async def preview(pilot) -> None:
        await press(pilot, "i")

    assert snap_compare(content_app("kappa.pdf", "glyphs"), terminal_size=SMALL, run_before=preview)


def test_preview_numbered_in_content_order_at_80x24(snap_compare):
    async def numbered(pilot) -> None:
        await press(pilot, "t", "O")  # O opens the preview with the lines numbered

    assert snap_compare(content_app("content.pdf", "stepper"), terminal_size=SMALL, run_before=numbered)


def test_password_prompt_at_80x24(snap_compare, tmp_path):
    import pikepdf

    from pdfinspect.tui import encryption_facts
    from pdfinspect.tui.password import PasswordApp

    path = tmp_path / "locked.pdf"
    with pikepdf.new() as pdf:
        pdf.add_blank_page()
        pdf.save(path, encryption=pikepdf.Encryption(user="secret", owner="owner", R=6))
    app = PasswordApp(path, encryption_facts(path), "no password given opens it")
    assert snap_compare(app, terminal_size=SMALL, run_before=settle)
