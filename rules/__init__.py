"""The rules engine: pure Python, no Django import anywhere below this package.

``from rules import odds`` is the ``odds(request)`` entry point of
odds-format.md, served by the one Cybernekr0 engine (``rules/odds.py`` over
``rules/cybernekro.py`` and ``rules/dice.py``). The dice assistant reads its
odds from the same engine and rolls its seeded, step-by-step rolls with
``rules/rolls.py``, which follows the engine's decisions (every rolling
function takes a ``random.Random``).

``rules.odds`` is also a submodule name: Python binds a submodule
onto its package when first imported, so the function is bound last, here.
"""

from rules import odds as _odds_module  # noqa: F401  (load before binding the function)
from rules.odds import OddsRequestError, odds  # noqa: F811

__all__ = ["odds", "OddsRequestError"]
