"""Django's file cache, without a listing of its folder on every write, and without ext4's flush on a rewrite.

Django's ``FileBasedCache`` counts its entries before each ``set`` (``_cull``
lists the whole folder) to keep them under ``MAX_ENTRIES``. With a few
thousand entries (game versions, shared parts of every table, sessions) that
listing costs more than the rest of a move. Here each process counts at most
once every ``CULL_EVERY`` seconds (an option, 30 by default): the folder can
pass its limit by the writes of that span before a count culls it, which is
harmless since everything in this cache can be lost (a miss reads the database).

Django writes a new value to a temporary file and renames it over the old
one. On ext4 (``auto_da_alloc``, on by default) a rename over an existing file
makes the kernel start writing the new file's data to disk before it returns:
180 µs of a rewrite's 290 µs here, on every rewrite of a kept key (the editor's
shared crew on each click, a game's version on each move). Removing the old
file first turns it into a rename to a new name, 45 µs. A read in between
misses, as after a cull; a file left short by a power cut reads as a miss too.

Django compresses every value with zlib. For the small values kept here (a game's version, the editor's
shared crew: 2.8 KB pickled) setting up zlib's state costs 40-70 µs a write, more than the file write
itself, to save a kilobyte. A value whose pickle is under ``COMPRESS_FROM`` is stored as its pickle; a
pickle starts with the PROTO opcode (0x80), a zlib stream never does, so both forms read back (files
written by Django's own class too).
"""

from __future__ import annotations

import os
import pickle
import tempfile
import time
import zlib

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.filebased import FileBasedCache
from django.core.files import locks

COMPRESS_FROM = 16 * 1024
_PICKLE = b"\x80"  # pickle's PROTO opcode, first byte of every pickle of protocol 2 and above

# what a file cut short or garbled raises while Django reads it
_UNREADABLE = (EOFError, zlib.error, pickle.UnpicklingError, ValueError, TypeError, AttributeError, IndexError)


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

    def set(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        self._createdir()  # the folder can be deleted at any time
        fname = self._key_to_file(key, version)
        self._cull()
        fd, tmp_path = tempfile.mkstemp(dir=self._dir)
        try:
            with open(fd, "wb") as f:
                self._write_content(f, timeout, value)
            try:
                os.remove(fname)
            except FileNotFoundError:
                pass
            os.replace(tmp_path, fname)
        except BaseException:
            try:
                os.remove(tmp_path)
            except FileNotFoundError:
                pass
            raise

    def _write_content(self, file, timeout, value):
        file.write(pickle.dumps(self.get_backend_timeout(timeout), self.pickle_protocol))
        data = pickle.dumps(value, self.pickle_protocol)
        file.write(zlib.compress(data) if len(data) >= COMPRESS_FROM else data)

    def get(self, key, default=None, version=None):
        fname = self._key_to_file(key, version)
        try:
            with open(fname, "rb") as f:
                if not self._is_expired(f):
                    return _loads(f.read())
        except FileNotFoundError:
            pass
        except _UNREADABLE:
            self.delete(key, version)
        return default

    def touch(self, key, timeout=DEFAULT_TIMEOUT, version=None):
        # Django's, reading both forms, and cutting the file where the value now ends
        try:
            with open(self._key_to_file(key, version), "r+b") as f:
                try:
                    locks.lock(f, locks.LOCK_EX)
                    if self._is_expired(f):
                        return False
                    value = _loads(f.read())
                    f.seek(0)
                    self._write_content(f, timeout, value)
                    f.truncate()
                    return True
                except _UNREADABLE:
                    return False
                finally:
                    locks.unlock(f)
        except FileNotFoundError:
            return False


def _loads(data: bytes):
    return pickle.loads(data if data[:1] == _PICKLE else zlib.decompress(data))
