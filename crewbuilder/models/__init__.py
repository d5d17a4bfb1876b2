from .accounts import User
from .catalogue import (
    BodyMod,
    Complication,
    EnvironmentEffect,
    GameSystem,
    Item,
    Keyword,
    Npc,
    RulesEntry,
    Scenario,
    Sorcery,
    TableRow,
    Trait,
)
from .crews import Character, CharacterBodyMod, CharacterGear, CharacterTrait, Crew
from .dice import StoredRoll
from .throttle import ThrottleHit

__all__ = [
    "User",
    "GameSystem",
    "Trait",
    "BodyMod",
    "Item",
    "Keyword",
    "Sorcery",
    "Scenario",
    "Complication",
    "EnvironmentEffect",
    "TableRow",
    "Npc",
    "RulesEntry",
    "Crew",
    "Character",
    "CharacterTrait",
    "CharacterBodyMod",
    "CharacterGear",
    "ThrottleHit",
    "StoredRoll",
]
