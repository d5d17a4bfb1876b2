"""Chances as players read them: rounded, but never rounded to a certainty or an impossibility.

An exact chance of 1 in 5,000 rounds to "0.0" and one of 4,999 in 5,000 to "100.0": a player reads both as
sure. Every page that prints a chance goes through ``percent`` so the odds stay honest at their edges (the
exact fraction is a tap away where a page shows it).
"""

from fractions import Fraction


def percent(p: Fraction | float, places: int = 1) -> str:
    """``p`` (0..1) as a percentage with ``places`` decimals and no sign: "37.5", "<0.1", ">99.9", "0", "100"."""
    value = float(p) * 100
    if value <= 0:
        return "0"
    if value >= 100:
        return "100"
    step = 10.0**-places
    text = f"{value:.{places}f}"
    if float(text) == 0:
        return f"<{step:.{places}f}"
    if float(text) == 100:
        return f">{100 - step:.{places}f}"
    return text
