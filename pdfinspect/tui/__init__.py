"""The Textual app. ``run_app`` is the only entry point the CLI uses."""
from __future__ import annotations

import sys

from pdfinspect.core.diagnostics import PasswordError, PdfError
from pdfinspect.core.document import Document
from pdfinspect.present.text import safe_line

from .graphics import choose
from .messages import OpenRevisions, Reload, Target, object_ref


def start_target(doc: Document, object_num: int | None, page: int | None) -> Target | None:
    """Where ``--object N`` / ``--page N`` open the app; ``None`` for the overview.

    Raises ``ValueError`` for a page the file does not have.
    """
    if object_num is not None:
        return Target(object_ref(doc, object_num))
    if page is not None:
        ref = doc.page_ref(page)
        if ref is None:
            raise ValueError(f"no page {page}: the file has {doc.page_count()} pages")
        return Target(ref, None, "/Kids")
    return None


def run_app(path, password: str = "", object_num: int | None = None, page: int | None = None,
            step: bool = False, glyphs: bool = False, images: str = "auto",
            log_path: str | None = None) -> int:
    """Open ``path`` and run the app; returns the exit status, as the CLI does: 1 when the
    file cannot be read (or no password given opens it), 2 for a page the file does not have.

    ``step`` opens the content stepper and ``glyphs`` the glyph inspector on page ``page``
    (default 1) instead of the browser. An encrypted file that the password does not open
    asks for one (:mod:`.password`). ``log_path`` receives the traceback of any failure;
    ``images`` is the ``--images`` mode of the page preview.
    """
    from .app import PdfInspectApp

    try:
        try:
            doc = Document.open(path, password)
        except PasswordError as e:
            from .password import PasswordApp

            prompt = PasswordApp(path, encryption_facts(path), str(e.diagnostic.message))
            doc, password = prompt.run(), prompt.password
            if doc is None:
                print(f"pdfinspect: {safe_line(str(e))} (no password given)", file=sys.stderr)
                return 1
        start = start_target(doc, object_num, page)
    except PdfError as e:
        print(f"pdfinspect: {safe_line(str(e))}", file=sys.stderr)
        return 1
    except ValueError as e:
        print(f"pdfinspect: {e}", file=sys.stderr)
        return 2
    view = "stepper" if step else "glyphs" if glyphs else None
    images, images_why = choose(images)  # before the app starts: it may ask the terminal
    app = PdfInspectApp(doc, password, start, (view, page or 1) if view else None, log_path=log_path)
    app.images, app.images_why = images, images_why  # how the page preview draws (widgets/preview.py)
    result = app.run()
    while isinstance(result, (OpenRevisions, Reload)):  # a fixed copy to show, or the file changed
        try:
            doc = Document.open(result.path, password)
        except PdfError as e:
            print(f"pdfinspect: {safe_line(str(e))}", file=sys.stderr)
            return 1
        if isinstance(result, Reload):
            app = PdfInspectApp(doc, password, result.start, log_path=log_path)
        else:
            app = PdfInspectApp(doc, password, None, ("revisions", 0), log_path=log_path)
        app.images, app.images_why = images, images_why
        result = app.run()
    return 0


def encryption_facts(path) -> list[str]:
    """What can be told about a file's encryption before its password is known (as
    ``qpdf --show-encryption`` does): the handler as declared and each permission."""
    from pdfinspect.present.summary import encryption_text, security_lines

    try:
        doc = Document.open(path, allow_locked=True)
    except PdfError as e:  # the encryption dictionary itself is unreadable
        return [f"encryption: {safe_line(str(e))}"]
    return [f"Encryption: {encryption_text(doc)}", *security_lines(doc)]
