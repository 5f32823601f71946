"""The domain core: PDF syntax, file structure, filters, crypto. No Textual, no Rich."""
