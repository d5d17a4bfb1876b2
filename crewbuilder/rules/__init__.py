"""The rules engine: pure Python, no Django import anywhere below this package.

``from crewbuilder.rules import odds`` is the ``odds(request)`` entry point of
odds-format.md (crewbuilder/rules/odds_requests.py over rules/exact.py).
"""

from crewbuilder.rules.odds_requests import OddsRequestError, odds

__all__ = ["odds", "OddsRequestError"]
