"""The rules engine: pure Python, no Django import anywhere below this package.

``from crewbuilder.rules import odds`` is the ``odds(request)`` entry point of
odds-format.md (crewbuilder/rules/odds_requests.py over rules/exact.py).

The submodule ``crewbuilder.rules.odds`` (the cybernekro.py engine's entry
point, kept for reconciliation) has the same name as this attribute. Python
binds a submodule onto its package when it is first imported, which would
replace the function by the module for everyone imported afterwards; loading
it here first, then binding the function, keeps ``rules.odds`` the function.
"""

from crewbuilder.rules import odds as _odds_module  # noqa: F401  (see above: load before binding)
from crewbuilder.rules.odds_requests import OddsRequestError, odds

__all__ = ["odds", "OddsRequestError"]
