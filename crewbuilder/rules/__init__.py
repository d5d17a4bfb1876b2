"""The rules engine: pure Python, no Django import anywhere below this package.

``from crewbuilder.rules import odds`` is the ``odds(request)`` entry point of
odds-format.md, served by the reference engine (``rules/odds.py`` over
``rules/cybernekro.py`` and ``rules/dice.py``). The dice assistant's live odds
and seeded rolls use ``rules/exact.py`` and ``rules/rolling.py``, an
independent implementation that gives the same exact answers (tested); the two
are to be merged into one module.

``crewbuilder.rules.odds`` is also a submodule name: Python binds a submodule
onto its package when first imported, so the function is bound last, here.
"""

from crewbuilder.rules import odds as _odds_module  # noqa: F401  (load before binding the function)
from crewbuilder.rules.odds import OddsRequestError, odds  # noqa: F811

__all__ = ["odds", "OddsRequestError"]
