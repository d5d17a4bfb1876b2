"""The ``soylent-ghoul`` crew file body (crew-format.md, "Other systems"):

    {"format": "crewbuilder.crew/1", "system": "soylent-ghoul", "name": "The Lamplit",
     "group": "gardeners",
     "drones": [{"name": "Drone 1", "tokens": ["4K7P", "XW3C", "9HRA", "TQ6M", "E8DN"]}, ...]}

- ``group``: the slug of a Ghoul group of the catalogue.
- ``drones[].tokens`` (optional): the printed codes of the drone's five tokens,
  in their dealt order. Codes are public (they are on the token sheet).
- ``drones[].true_token`` (optional): the code of the drone's true token. The
  app writes it only when the owner asks for it explicitly; a file without it
  is dealt a fresh secret true token on import.

Reading gives ``bad-format`` for a missing or mistyped field; the rules checks
are findings (``validate``). Importing stores nothing when there is any error.
"""

from __future__ import annotations

import json

from crewbuilder import crewfile
from crewbuilder.crewfile import FORMAT, BadFormat, check_list, check_object, check_text, missing

from . import services
from .models import DroneSet

NAME_MAX = services.NAME_MAX
SECTION_TOKENS = "Gameplay Essentials (soylent-ghoul.txt)"
SECTION_GROUPS = "Ghoul Groups (soylent-ghoul.txt)"
SECTION_APP = "Drone sets (crew-format.md, soylent-ghoul body)"

# Findings that mean the set cannot be stored (crewbuilder.crewfile.UNSTORABLE).
UNSTORABLE = {
    "unknown-group",
    "too-few-drones",
    "too-many-drones",
    "token-count",
    "token-code",
    "duplicate-token-code",
    "true-token-unknown",
}


def read_soylent_crew(data: dict, **_ignored) -> dict:
    """The soylent-ghoul body, type-checked and normalised (unknown keys dropped)."""
    crew = {
        "format": FORMAT,
        "system": data["system"],
        "name": check_text(data["name"], "name", limit=NAME_MAX) if "name" in data else missing("name"),
        "group": check_text(data["group"], "group", limit=100) if "group" in data else missing("group"),
        "drones": [],
    }
    if "drones" not in data:
        missing("drones")
    for index, drone in enumerate(check_list(data["drones"], "drones")):
        where = f"drones[{index}]"
        drone = check_object(drone, where)
        if "name" not in drone:
            missing(f"{where}.name")
        entry = {"name": check_text(drone["name"], f"{where}.name", limit=NAME_MAX)}
        if "tokens" in drone:
            entry["tokens"] = [
                check_text(code, f"{where}.tokens[{i}]", limit=services.CODE_MAX)
                for i, code in enumerate(check_list(drone["tokens"], f"{where}.tokens"))
            ]
        if "true_token" in drone:
            entry["true_token"] = check_text(drone["true_token"], f"{where}.true_token", limit=services.CODE_MAX)
        crew["drones"].append(entry)
    return crew


def _finding(code: str, drone, message: str, rule: str) -> dict:
    return {"code": code, "character": drone, "message": message, "rule": rule}


def validate(crew: dict, snapshot=None, house_rules=None, rules=None) -> dict:
    """The report of a soylent-ghoul body: the group's numbers and each drone's,
    with the findings. The same for a set in the app and its exported file
    (never shows a true token)."""
    errors, warnings = [], []
    rules = rules or services.rules_data()
    groups = rules.groups
    group = groups.get(crew["group"])
    if group is None:
        names = ", ".join(g.get("slug", "") for g in groups.values())
        errors.append(
            _finding("unknown-group", None, f"Unknown Ghoul group {crew['group']!r} (one of {names}).", SECTION_GROUPS)
        )
    drones = crew["drones"]
    if not drones:
        errors.append(_finding("too-few-drones", None, "A drone set needs at least one drone.", SECTION_TOKENS))
    elif len(drones) > services.MAX_DRONES:
        errors.append(
            _finding(
                "too-many-drones", None, f"This app keeps at most {services.MAX_DRONES} drones in a set.", SECTION_APP
            )
        )
    suggested = rules.suggested_drones
    if drones and len(drones) != suggested:
        warnings.append(
            _finding(
                "drone-count-advice",
                None,
                f"The rules suggest {suggested} drones (“{suggested} is a good number”); every player needs the same number.",
                SECTION_TOKENS,
            )
        )
    per_drone = rules.tokens_per_drone
    seen: set[str] = set()
    for drone in drones:
        name = drone["name"]
        codes = drone.get("tokens")
        if codes is not None:
            if len(codes) != per_drone:
                errors.append(
                    _finding(
                        "token-count",
                        name,
                        f"{name} has {len(codes)} tokens; each drone has {per_drone}.",
                        SECTION_TOKENS,
                    )
                )
            bad = [c for c in codes if not services.valid_code(c)]
            if bad:
                errors.append(
                    _finding(
                        "token-code",
                        name,
                        f"Token codes use only the letters and digits {services.CODE_ALPHABET}: {', '.join(bad)}.",
                        SECTION_APP,
                    )
                )
            repeated = sorted({c for c in codes if c in seen or codes.count(c) > 1})
            if repeated:
                errors.append(
                    _finding(
                        "duplicate-token-code",
                        name,
                        f"Token codes appear twice in the set: {', '.join(repeated)}.",
                        SECTION_APP,
                    )
                )
            seen.update(codes)
        if "true_token" in drone and (codes is None or drone["true_token"] not in codes):
            errors.append(
                _finding("true-token-unknown", name, f"{name}'s true token is not one of its tokens.", SECTION_APP)
            )
    return {
        "valid": not errors,
        # crew-format.md's report keys; a drone set has no points or budget
        "points": None,
        "budget": None,
        "system": services.SYSTEM,
        "group": services.group_card(group) if group else None,
        "characters": [
            {
                "name": d["name"],
                "move": group.get("M", group.get("move")) if group else None,
                "nerve": group.get("nerve") if group else None,
                "tokens": len(d["tokens"]) if "tokens" in d else per_drone,
            }
            for d in drones
        ],
        "errors": errors,
        "warnings": warnings,
    }


def import_soylent(data: dict, owner):
    """Store a read and valid soylent-ghoul body as a drone set; returns its Crew."""
    drones = data["drones"]
    tokens = [d.get("tokens") for d in drones]
    drone_set = services.create_drone_set(
        owner,
        data["name"],
        data["group"],
        [d["name"] for d in drones],
        tokens=tokens if any(t is not None for t in tokens) else None,
        true_tokens=[d.get("true_token") for d in drones],
    )
    return drone_set.crew


def export_data(drone_set, *, include_truth: bool = False, view: dict | None = None) -> dict:
    """The file body of a set: codes always, true tokens only when asked for."""
    view = view or services.public_view(drone_set)
    drones = [{"name": d.name, "tokens": list(d.codes)} for d in view["drones"]]
    if include_truth:
        key = services.owner_key(drone_set, view)
        for drone, entry in zip(drones, key):
            drone["true_token"] = entry["true_token"]
    return {
        "format": FORMAT,
        "system": services.SYSTEM,
        "name": drone_set.crew.name,
        "group": drone_set.group,
        "drones": drones,
    }


def export_text(drone_set, *, include_truth: bool = False) -> str:
    return json.dumps(export_data(drone_set, include_truth=include_truth), indent=2, ensure_ascii=False) + "\n"


def export_crew(crew, *, true_tokens: bool = False, **_ignored) -> str:
    """crewbuilder.crewfile.export_crew for a soylent-ghoul crew."""
    return export_text(DroneSet.objects.select_related("crew", "crew__owner").get(crew=crew), include_truth=true_tokens)


def report_for(drone_set, view: dict | None = None, rules=None) -> dict:
    """The validation report of a stored set (the same as for its exported file)."""
    return validate(export_data(drone_set, view=view), rules=rules)


def register() -> None:
    """Plug the body into crewbuilder's crew files (called from SoylentConfig.ready)."""
    crewfile.CREW_READERS[services.SYSTEM] = (read_soylent_crew, validate)
    crewfile.CREW_IMPORTERS[services.SYSTEM] = import_soylent
    crewfile.CREW_EXPORTERS[services.SYSTEM] = export_crew
    crewfile.UNSTORABLE.update(UNSTORABLE)


__all__ = [
    "BadFormat",
    "read_soylent_crew",
    "validate",
    "import_soylent",
    "export_data",
    "export_text",
    "export_crew",
    "report_for",
    "register",
]
