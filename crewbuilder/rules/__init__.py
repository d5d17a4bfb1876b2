"""The rules engine: pure Python, no Django import anywhere below this package.

``from crewbuilder.rules import odds`` gives the ``odds(request)`` entry point of
odds-format.md (crewbuilder/rules/odds.py).
"""

from crewbuilder.rules.odds import OddsRequestError, odds

__all__ = ["odds", "OddsRequestError"]
