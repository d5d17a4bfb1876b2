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
