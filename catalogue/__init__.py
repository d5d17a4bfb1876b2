"""Rules content as data: one JSON file per game and edition in ``data/``.

``DATA_DIR`` is importable without Django, so the pure engines in ``rules/`` read
their defaults from the same files the loader puts into the database.
"""

from pathlib import Path

DATA_DIR = Path(__file__).resolve().parent / "data"
