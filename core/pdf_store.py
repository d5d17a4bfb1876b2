"""Rendered PDFs on disk, shared by every worker process and kept across restarts.

One file per PDF, named by the digest of what it was rendered from (the HTML,
the paper, the stylesheet, the WeasyPrint version), under ``PDF_CACHE_DIR``
(default ``var/pdf-cache``). Writes go to a temporary file renamed into place,
so a reader never sees half a PDF. Beside a PDF's name can sit a ``.pending``
marker (a render is queued: do not queue another) or a ``.refused`` note (the
render went over its budget: say so instead of trying again).

The folder is pruned to ``MAX_FILES`` PDFs, oldest first, when a new one is
stored. Usable without Django set up: the settings value is read only if settings are configured.
"""

from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path

from django.conf import settings

BASE_DIR = Path(__file__).resolve().parent.parent
MAX_FILES = 2000
PENDING_TTL_SECONDS = 120  # a queued render not done by then is queued again (a worker died)
REFUSAL_TTL_SECONDS = 600


def cache_dir() -> Path:
    try:
        configured = getattr(settings, "PDF_CACHE_DIR", None)
    except Exception:  # noqa: BLE001 - settings not configured: a script without Django
        configured = None
    path = Path(configured or os.environ.get("PDF_CACHE_DIR") or BASE_DIR / "var" / "pdf-cache")
    path.mkdir(parents=True, exist_ok=True)
    return path


def _path(key: str, suffix: str = ".pdf") -> Path:
    if not key.isalnum():
        raise ValueError("a PDF key is a hex digest")
    return cache_dir() / f"{key}{suffix}"


def get(key: str) -> bytes | None:
    try:
        return _path(key).read_bytes()
    except FileNotFoundError:
        return None


def _write(path: Path, data: bytes) -> None:
    handle, temp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
    try:
        with os.fdopen(handle, "wb") as file:
            file.write(data)
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise


def put(key: str, data: bytes) -> None:
    _write(_path(key), data)
    _path(key, ".pending").unlink(missing_ok=True)
    _prune()


def _prune() -> None:
    folder = cache_dir()
    files = list(folder.glob("*.pdf"))
    if len(files) <= MAX_FILES:
        return

    def age(path):
        try:
            return path.stat().st_mtime
        except FileNotFoundError:
            return 0

    for path in sorted(files, key=age)[: len(files) - MAX_FILES]:
        path.unlink(missing_ok=True)


def claim_pending(key: str) -> bool:
    """True if the caller should queue the render (no fresh marker was there); sets the marker."""
    marker = _path(key, ".pending")
    try:
        if time.time() - marker.stat().st_mtime < PENDING_TTL_SECONDS:
            return False
        marker.unlink(missing_ok=True)
    except FileNotFoundError:
        pass
    try:
        os.close(os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
    except FileExistsError:
        return False  # another worker claimed it a moment ago
    return True


def keep_pending(key: str) -> None:
    """Renew a render's marker: it is still queued (a task that queued itself again for later)."""
    marker = _path(key, ".pending")
    try:
        os.utime(marker)
    except FileNotFoundError:
        os.close(os.open(marker, os.O_CREAT | os.O_WRONLY))


def release_pending(key: str) -> None:
    _path(key, ".pending").unlink(missing_ok=True)


def refuse(key: str, message: str) -> None:
    _write(_path(key, ".refused"), message.encode("utf-8"))
    release_pending(key)


def refusal(key: str) -> str | None:
    """The refusal stored for this PDF in the last REFUSAL_TTL_SECONDS (a time-out may have been a busy machine)."""
    path = _path(key, ".refused")
    try:
        if time.time() - path.stat().st_mtime > REFUSAL_TTL_SECONDS:
            path.unlink(missing_ok=True)
            return None
        return path.read_text("utf-8")
    except FileNotFoundError:
        return None
