"""Hypothesis strategies for the fuzz tests: JSON-like values, and requests
built from the right key names with wrong (or right) values, so the fuzzer
reaches past the first check."""

from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st

# Numbers an attacker sends: huge, negative, fractional, not finite.
NUMBERS = st.one_of(
    st.integers(min_value=-(10**6), max_value=10**6),
    st.sampled_from([0, 1, -1, 2, 6, 20, 41, 101, 2**63, -(2**63), 10**400]),
    st.floats(allow_nan=True, allow_infinity=True),
)
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    NUMBERS,
    st.text(max_size=12),
    st.sampled_from(
        [
            "",
            "axe",
            "sword",
            "fight",
            "shoot",
            "Piercing 1",
            "Piercing",
            "Overkill",
            "ace",
            "jack-critical",
            "2",
            "-3",
            "jinxed",
            "sturdy",
        ]
    ),
)
JSON = st.recursive(
    SCALARS,
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=8), inner, max_size=3)),
    max_leaves=8,
)


def objects(keys, values=JSON, required=()):
    """Dicts over ``keys`` (some required), values from ``values``; now and then a stray key."""
    optional = [k for k in keys if k not in required]
    return st.fixed_dictionaries(
        {k: values for k in required},
        optional={**{k: values for k in optional}, "stray": values},
    )


def mostly(good, bad):
    """``good`` three times in four: deep fields are reached only past valid outer ones."""
    return st.integers(0, 3).flatmap(lambda pick: bad if pick == 0 else good)


# The game action fuzz tests (tests/battles, tests/games/*/test_fuzz_actions.py): one POST per example,
# examples run one after another on the same game, so the fuzzer walks the game through its states.
FUZZ = settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)
JUNK = st.one_of(
    st.sampled_from(
        [
            "",
            " ",
            "0",
            "1",
            "2",
            "3",
            "6",
            "-1",
            "99999999999999999999999",
            "1e3",
            "nan",
            "NaN",
            "A1",
            "J10",
            "C3",
            "T20",
            "lake",
            "gray",
            "vox",
            "mara",
            "del",
            "brian",
            "true",
            "\x00",
            "1\x00",
        ]
    ),
    st.text(max_size=8),
    st.integers(-5, 400).map(str),
)


def fuzzed_fields(data, ids, names, list_names=()):
    # The game's ids change as it moves on between examples, and Hypothesis wants the same strategy
    # from one example to the next: draw a flag and an index every time, then pick from today's ids.
    def one(label):
        known = data.draw(st.booleans(), label=f"{label}: a known id")
        index = data.draw(st.integers(0, 10**6), label=f"{label}: which")
        junk = data.draw(JUNK, label=label)
        return ids[index % len(ids)] if known and ids else junk

    post = {}
    for name in names:
        if data.draw(st.booleans(), label=f"has {name}"):
            post[name] = one(name)
    for name in list_names:
        if data.draw(st.booleans(), label=f"has {name}"):
            post[name] = [one(name) for _ in range(data.draw(st.integers(0, 4), label=f"{name}: how many"))]
    return post


def check_no_500(response, post):
    event(f"status {response.status_code}")  # --hypothesis-show-statistics: how far the fuzzer got
    assert response.status_code < 500, (response.status_code, post)
