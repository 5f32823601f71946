"""Pictures of pages, headless: pdfium renders (:mod:`.page`), boxes are drawn over the
picture with Pillow (:mod:`.boxes`), and :mod:`.halfblock` turns a picture into rows of
(foreground, background) cell colours for ``▀`` characters, which a front end turns into
its own segments. Nothing here imports Rich or Textual.

pdfium renders; our own interpreter says where each glyph is (``content.geometry``), so
the boxes drawn are ours, not pdfium's: a box off its glyph shows where we disagree.
"""
