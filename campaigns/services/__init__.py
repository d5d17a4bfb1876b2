"""One function per campaign operation, by subject in this package's modules.

Each runs in one transaction and writes a HistoryEntry (who, when, what,
before and after), so a failure half-way leaves nothing applied and every
change can be read back, and reversed by the organiser with a new entry.

Callers import the package (``from campaigns import services``) and call
``services.enrol(...)``; the names below are that public surface.
"""

from campaigns.errors import CampaignError
from campaigns.services.base import catalogue_for
from campaigns.services.edits import edit_character, edit_crew
from campaigns.services.enrolment import approve_enrolment, enrol, needs_approval, refuse_enrolment
from campaigns.services.games import confirm_game, record_game, withdraw_game
from campaigns.services.membership import create_campaign, invite, respond
from campaigns.services.reversal import REVERSIBLE, UNDO, reverse_entry
from campaigns.services.scenarios import create_scenario, generate_scenario, scenario_choices
from campaigns.services.tables import TableResult, create_table, parse_rows, roll_on_table
from campaigns.services.treasury import buy_gear, hire_character

__all__ = [
    "CampaignError",
    "REVERSIBLE",
    "UNDO",
    "TableResult",
    "approve_enrolment",
    "buy_gear",
    "catalogue_for",
    "confirm_game",
    "create_campaign",
    "create_scenario",
    "create_table",
    "edit_character",
    "edit_crew",
    "enrol",
    "generate_scenario",
    "hire_character",
    "invite",
    "needs_approval",
    "parse_rows",
    "record_game",
    "refuse_enrolment",
    "respond",
    "reverse_entry",
    "roll_on_table",
    "scenario_choices",
    "withdraw_game",
]
