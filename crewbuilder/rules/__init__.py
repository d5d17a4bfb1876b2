"""The rules engine: pure Python, no Django import anywhere below this package."""

from crewbuilder.rules.odds_requests import OddsRequestError, odds

__all__ = ["odds", "OddsRequestError"]
