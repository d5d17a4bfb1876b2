"""Where the shared templates and static files live, inside the installed package."""

from pathlib import Path

CORE_DIR = Path(__file__).resolve().parent
TEMPLATES_DIR = CORE_DIR / "templates"
STATIC_DIR = CORE_DIR / "static"
