"""core/file_cache.py: Django's file cache that counts its files at most once per span, not on every write."""

from core import file_cache
from core.file_cache import FileCache


def _cache(tmp_path, **options):
    return FileCache(str(tmp_path), {"OPTIONS": {"MAX_ENTRIES": 10, "CULL_FREQUENCY": 2, **options}})


def _listings(cache, monkeypatch) -> list:
    seen = []
    listing = cache._list_cache_files

    def counted():
        seen.append(1)
        return listing()

    monkeypatch.setattr(cache, "_list_cache_files", counted)
    return seen


def test_writes_within_the_span_do_not_list_the_folder(tmp_path, monkeypatch):
    clock = [100.0]
    monkeypatch.setattr(file_cache.time, "monotonic", lambda: clock[0])
    cache = _cache(tmp_path, CULL_EVERY=30)
    seen = _listings(cache, monkeypatch)
    for n in range(5):
        cache.set(f"k{n}", n)
    assert len(seen) == 1  # the first write of the process counts
    clock[0] += 31
    cache.set("later", 1)
    assert len(seen) == 2
    assert [cache.get(f"k{n}") for n in range(5)] == list(range(5))  # a cache as before otherwise


def test_a_count_past_the_limit_culls_as_djangos_does(tmp_path, monkeypatch):
    clock = [100.0]
    monkeypatch.setattr(file_cache.time, "monotonic", lambda: clock[0])
    cache = _cache(tmp_path, CULL_EVERY=30)
    for n in range(14):
        cache.set(f"k{n}", n)
    assert len(cache._list_cache_files()) == 14  # past MAX_ENTRIES within the span: no count, no cull
    clock[0] += 31
    cache.set("after", 1)
    assert len(cache._list_cache_files()) == 14 - 14 // 2 + 1  # half culled (CULL_FREQUENCY 2), then written


def test_every_write_counts_with_a_span_of_zero(tmp_path, monkeypatch):
    cache = _cache(tmp_path, CULL_EVERY=0)
    seen = _listings(cache, monkeypatch)
    for n in range(3):
        cache.set(f"k{n}", n)
    assert len(seen) == 3


def test_a_rewrite_replaces_the_value_by_a_rename_to_a_free_name(tmp_path, monkeypatch):
    cache = _cache(tmp_path)
    cache.set("k", "old")
    targets = []
    replace = file_cache.os.replace

    def watched(src, dst):
        targets.append(file_cache.os.path.exists(dst))
        replace(src, dst)

    monkeypatch.setattr(file_cache.os, "replace", watched)
    cache.set("k", "new")
    assert cache.get("k") == "new"
    assert targets == [False]  # ext4 flushes a file renamed over another: the old one is gone first
    assert len(list(tmp_path.iterdir())) == 1  # no temporary file left


def test_a_failed_write_leaves_the_old_value_and_no_temporary_file(tmp_path):
    cache = _cache(tmp_path)
    cache.set("k", "old")

    class Unpicklable:
        def __reduce__(self):
            raise TypeError("no")

    try:
        cache.set("k", Unpicklable())
    except TypeError:
        pass
    assert cache.get("k") == "old"
    assert len(list(tmp_path.iterdir())) == 1


def test_a_file_cut_short_reads_as_a_miss_and_is_removed(tmp_path):
    cache = _cache(tmp_path)
    cache.set("k", "x" * 5000)
    path = cache._key_to_file("k")
    with open(path, "rb") as f:
        content = f.read()
    with open(path, "wb") as f:
        f.write(content[: len(content) // 2])
    assert cache.get("k", "missing") == "missing"
    assert not file_cache.os.path.exists(path)
    cache.set("k", "again")
    assert cache.get("k") == "again"


def test_a_small_value_is_kept_as_its_pickle_and_a_large_one_compressed(tmp_path):
    import pickle
    import zlib

    cache = _cache(tmp_path)
    small = {"crew": list(range(100))}
    large = "rows " * 10_000  # 50 KB pickled
    cache.set("small", small)
    cache.set("large", large)
    for key, value, compressed in (("small", small, False), ("large", large, True)):
        with open(cache._key_to_file(key), "rb") as f:
            cache._is_expired(f)  # reads past the expiry
            stored = f.read()
        expected = pickle.dumps(value, pickle.HIGHEST_PROTOCOL)
        assert (stored == expected) is not compressed
        assert (zlib.decompress(stored) if compressed else stored) == expected
        assert cache.get(key) == value


def test_values_written_by_djangos_own_file_cache_still_read(tmp_path):
    from django.core.cache.backends.filebased import FileBasedCache

    FileBasedCache(str(tmp_path), {}).set("version", {"game": 41})
    cache = _cache(tmp_path)
    assert cache.get("version") == {"game": 41}
    assert cache.touch("version", 60)  # rewritten uncompressed, shorter: nothing of the old form left after it
    assert cache.get("version") == {"game": 41}
    cache.set("version", {"game": 42})
    assert cache.get("version") == {"game": 42}


def test_touch_keeps_the_value_and_reports_a_missing_key(tmp_path):
    cache = _cache(tmp_path)
    assert cache.touch("nothing", 60) is False
    cache.set("k", "v", timeout=1)
    assert cache.touch("k", None)  # never expires now
    assert cache.get("k") == "v"
    with open(cache._key_to_file("k"), "rb") as f:
        assert not cache._is_expired(f)
