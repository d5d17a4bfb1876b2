from .accounts import User
from .catalogue import (
    BodyMod,
    Complication,
    EnvironmentEffect,
    GameSystem,
    Item,
    Keyword,
    Npc,
    Scenario,
    Sorcery,
    TableRow,
    Trait,
)
from .crews import Character, CharacterBodyMod, CharacterGear, CharacterTrait, Crew

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
    "Crew",
    "Character",
    "CharacterTrait",
    "CharacterBodyMod",
    "CharacterGear",
]
