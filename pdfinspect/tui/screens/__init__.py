"""The app's screens, one per mode (overview, browser, revisions, search, stepper, glyphs) and help."""
