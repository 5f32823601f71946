"""Tables from ISO 32000 as plain data, importing nothing: every layer may read them."""
