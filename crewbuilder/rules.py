"""The odds function where ../shared/odds-format.md names it: ``crewbuilder.rules.odds(request) -> dict``.

It is the engine's own ``rules.odds`` (rules/odds.py), the one function behind
``manage.py odds`` and ``POST /api/odds/``. Importing it loads no Django: a
program outside ours may call it with nothing configured.
"""

from rules import OddsRequestError, odds

__all__ = ["OddsRequestError", "odds"]
