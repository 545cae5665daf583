"""Teaching labs: docs/labs/*.md served to the app (one source for docs and UI)."""
