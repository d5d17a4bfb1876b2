"""What the action fuzz tests (tests/battles, tests/games/*/test_fuzz_actions.py) share: one POST per
example, examples run one after another on the same game, so the fuzzer walks the game through its states."""

from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st

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
