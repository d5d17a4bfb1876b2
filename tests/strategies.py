"""Hypothesis strategies for the fuzz tests: JSON-like values, and requests
built from the right key names with wrong (or right) values, so the fuzzer
reaches past the first check."""

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
