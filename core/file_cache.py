"""Django's file cache, without a listing of its folder on every write.

Django's ``FileBasedCache`` counts its entries before each ``set`` (``_cull``
lists the whole folder) to keep them under ``MAX_ENTRIES``. With a few
thousand entries (game versions, shared parts of every table, sessions) that
listing costs more than the rest of a move. Here each process counts at most
once every ``CULL_EVERY`` seconds (an option, 30 by default): the folder can
pass its limit by the writes of that span before a count culls it, which is
harmless since everything in this cache can be lost (a miss reads the database).
"""

from __future__ import annotations

import time

from django.core.cache.backends.filebased import FileBasedCache


class FileCache(FileBasedCache):
    def __init__(self, dir, params):
        options = dict(params.get("OPTIONS", {}))
        self._cull_every = float(options.pop("CULL_EVERY", 30))
        super().__init__(dir, {**params, "OPTIONS": options})
        self._next_count = 0.0

    def _cull(self):
        now = time.monotonic()
        if now < self._next_count:
            return
        self._next_count = now + self._cull_every
        super()._cull()
