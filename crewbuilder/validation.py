"""Cybernekr0 crew rules -> the validation report of crew-format.md.

One function, ``validate_crew(crew, catalogue, accepted_findings=None)``, works
on plain data: the parsed crew-file dict and a ``CatalogueSnapshot`` built from
the database (``catalogue.loader.snapshot_for_system``) or from the data file
(``CatalogueSnapshot.from_file``). Web pages, the admin, import and the CLI all
call it, so they give the same report.

Report extras beyond crew-format.md (added, never renamed):
- per character: ``ap`` (AP cap: 3, Bestial 4) and ``weapons`` (effective
  profiles, fists first);
- per finding: ``rule`` (the rules section it comes from);
- ``accepted``: findings the crew accepted as house rules (code + character
  match an entry of ``accepted_findings``), each with its ``note``; they leave
  ``errors``/``warnings``. ``valid`` stays the strict answer (False when any
  error exists, accepted or not); ``valid_with_house_rules`` says whether the
  crew is legal once the accepted findings are set aside, and
  ``house_rules: true`` marks a report that accepted findings or uses
  house-rule catalogue entries.

Nothing here imports Django or knows a cost or a limit: numbers come from the
catalogue's entries and its ``crew_rules``.
"""

import json
import pickle
from collections import Counter
from functools import cached_property
from pathlib import Path

from crewbuilder.finding_lines import message_tokens
from crewbuilder.wording import count_noun
from rules.cybernekro.character import (
    ap_cap,
    armor_points,
    carry_capacity,
    effective_attributes,
    halves_as_number,
    item_halves,
    keyword_parts,
    keyword_x,
    move_distance,
    valid_raise_choice,
    weapon_profile,
    worn_armor,
)

ITEM_SECTIONS = {"equipment": "equipment", "armor": "armor", "weapons": "weapon"}


class CatalogueSnapshot:
    """The parts of a system's catalogue the crew rules read, indexed by slug."""

    def __init__(self, data: dict):
        self.system = data.get("system")
        self.edition = data.get("edition")
        self.rules = data.get("crew_rules") or {}
        self.traits = {e["slug"]: e for e in data.get("traits", [])}
        self.body_mods = {e["slug"]: e for e in data.get("body_mods", [])}
        self.items, self.category = {}, {}
        for section, category in ITEM_SECTIONS.items():
            for entry in data.get(section, []):
                self.items[entry["slug"]] = entry
                self.category[entry["slug"]] = category
        self.sections = self.rules.get("sections", {})
        # A character's report and findings depend only on its own data and this catalogue: a crew edit changes
        # one character, and the others are checked once (``check_character``).
        self.checked_characters: dict[str, bytes] = {}

    @classmethod
    def from_file(cls, path) -> "CatalogueSnapshot":
        return cls(json.loads(Path(path).read_text(encoding="utf-8")))

    def section(self, key: str) -> str:
        return self.sections.get(key, key)

    @cached_property
    def message_tokens(self):
        """Words of a finding's message, each trait, body-mod or item name one word (crewbuilder.finding_lines)."""
        entries = [*self.traits.values(), *self.body_mods.values(), *self.items.values()]
        return message_tokens(entry.get("name") for entry in entries)


# ---------------------------------------------------------------- findings


def finding(code: str, character, message: str, rule: str) -> dict:
    return {"code": code, "character": character, "message": message, "rule": rule}


class Findings:
    def __init__(self):
        self.errors, self.warnings = [], []

    def error(self, code, character, message, rule):
        self.errors.append(finding(code, character, message, rule))

    def warning(self, code, character, message, rule):
        self.warnings.append(finding(code, character, message, rule))


# ---------------------------------------------------------------- the entry point


def validate_crew(crew: dict, catalogue: CatalogueSnapshot, accepted_findings=None) -> dict:
    """The report of crew-format.md for a parsed Cybernekr0 crew-file dict."""
    rules = catalogue.rules
    budget = crew.get("budget", rules["budget"])
    findings = Findings()
    crew_findings = Findings()
    characters = [check_character(c, catalogue, findings) for c in crew.get("characters", [])]
    points = sum(c["points"] for c in characters)
    check_crew_size(len(characters), rules, catalogue, crew_findings)
    if points > budget:
        crew_findings.error(
            "over-budget",
            None,
            f"The crew costs {points} points, more than its budget of {budget}.",
            catalogue.section("crew"),
        )
    check_varied_traits(crew.get("characters", []), catalogue, findings)
    house_rule_used = any(c.pop("_house_rule", False) for c in characters)
    report = {
        "valid": not (crew_findings.errors or findings.errors),
        "points": points,
        "budget": budget,
        "characters": characters,
        "errors": crew_findings.errors + findings.errors,
        "warnings": crew_findings.warnings + findings.warnings,
    }
    set_aside_accepted(report, accepted_findings or [])
    if house_rule_used:
        report["house_rules"] = True
    return report


def set_aside_accepted(report: dict, accepted_findings: list) -> None:
    """Move findings the crew accepted (house rules) to ``accepted``; ``valid`` is unchanged."""
    notes = {}
    for accepted in accepted_findings:
        if isinstance(accepted, dict) and "code" in accepted:
            notes[(accepted["code"], accepted.get("character"))] = accepted.get("note", "")
    if not notes:
        return
    report["accepted"] = []
    for kind in ("errors", "warnings"):
        kept = []
        for item in report[kind]:
            key = (item["code"], item["character"])
            if key in notes:
                report["accepted"].append({**item, "note": notes[key], "was": kind[:-1]})
            else:
                kept.append(item)
        report[kind] = kept
    if report["accepted"]:
        report["house_rules"] = True
    report["valid_with_house_rules"] = not report["errors"]


def for_programs(report: dict) -> dict:
    """The report as crew-format.md states it, for programs outside ours (``crew validate``): every error and
    warning in ``errors`` and ``warnings`` whatever the crew accepted, so ``valid: false`` always comes with its
    errors; a finding accepted as a house rule says so (``house_rule``, with its note) and ``accepted`` stays."""
    if not report.get("accepted"):
        return report
    out = {**report, "errors": list(report["errors"]), "warnings": list(report["warnings"])}
    for item in report["accepted"]:
        finding = {k: v for k, v in item.items() if k not in ("note", "was")}
        out[item["was"] + "s"].append({**finding, "house_rule": item["note"] or True})
    return out


def check_crew_size(count: int, rules: dict, catalogue, findings: Findings) -> None:
    size = rules["crew_size"]
    if count < size["min"]:
        findings.error(
            "too-few-characters",
            None,
            f"The crew has {count_noun(count, 'character')}; it needs at least {size['min']}.",
            catalogue.section("crew"),
        )
    elif count > size["max"]:
        findings.error(
            "too-many-characters",
            None,
            f"The crew has {count_noun(count, 'character')}; it may have at most {size['max']}.",
            catalogue.section("crew"),
        )


def check_varied_traits(characters: list, catalogue, findings: Findings) -> None:
    """Warn for each character taking a trait an earlier crew member already took."""
    taken_by = {}
    for character in characters:
        for slug in dict.fromkeys(trait_slug(t) for t in character.get("traits", [])):
            if slug not in catalogue.traits:
                continue
            if slug in taken_by:
                findings.warning(
                    "duplicate-trait-in-crew",
                    character["name"],
                    f"{catalogue.traits[slug]['name']} is already taken by {taken_by[slug]}; "
                    "the rules ask for varied crews.",
                    catalogue.section("traits"),
                )
            else:
                taken_by[slug] = character["name"]


# ---------------------------------------------------------------- one character


def trait_slug(trait) -> str:
    return trait if isinstance(trait, str) else trait.get("slug")


def trait_choices(trait) -> dict:
    return {} if isinstance(trait, str) else {k: v for k, v in trait.items() if k != "slug"}


MAX_CHECKED_CHARACTERS = 1024


def check_character(character: dict, catalogue: CatalogueSnapshot, findings: Findings) -> dict:
    """The character's report, its findings added to ``findings``: worked out once per content and catalogue.

    Kept pickled, so each report gets its own objects (validate_crew and the pages change theirs)."""
    key = repr(character)
    kept = catalogue.checked_characters.get(key)
    if kept is None:
        own = Findings()
        report = _check_character(character, catalogue, own)
        kept = pickle.dumps((report, own.errors, own.warnings), pickle.HIGHEST_PROTOCOL)
        if len(catalogue.checked_characters) >= MAX_CHECKED_CHARACTERS:
            catalogue.checked_characters.clear()  # bounded: each character is checked again once
        catalogue.checked_characters[key] = kept
    report, errors, warnings = pickle.loads(kept)
    findings.errors += errors
    findings.warnings += warnings
    return report


def _check_character(character: dict, catalogue: CatalogueSnapshot, findings: Findings) -> dict:
    rules = catalogue.rules
    name = character["name"]
    traits = known_traits(character, catalogue, findings)
    body_mods = known_body_mods(character, catalogue, traits, findings)
    gear = known_gear(character, catalogue, findings)
    check_base_attributes(character, rules, catalogue, findings)
    points = (
        rules["character_base_cost"]
        + sum(entry["cost"] for entry, _ in traits)
        + sum(mod["cost"] for mod in body_mods)
        + sum(item["cost"] for item in gear)
    )
    # A trait or body-mod listed twice is paid twice but works once: the second copy is a
    # duplicate-trait error or a duplicate-body-mod warning ("a second copy adds nothing").
    traits = once(traits, lambda pair: pair[0]["slug"])
    body_mods = once(body_mods, lambda mod: mod["slug"])

    attribute_names = rules["attributes"]
    # The creation placement (checked above) plus what a campaign changed since (injuries), then traits.
    played = with_changes(character["attributes"], character.get("attribute_changes"))
    attributes = effective_attributes(played, traits, attribute_names)
    strength = attributes["strength"]

    carry_halves = sum(item_halves(item, rules["carry"]) for item in gear)
    carry_used = halves_as_number(carry_halves)
    carry_max = carry_capacity(strength, rules["carry"], traits)
    if carry_halves > 2 * carry_max:
        findings.error(
            "over-capacity",
            name,
            f"{name} carries {carry_used} items; the most is {carry_max} ({capacity_reason(strength, rules['carry'], traits)}). "
            "Small items count half; two-handed weapons, heavy armor and tower shields count two.",
            catalogue.section("gear"),
        )

    check_armor_and_shields(name, gear, catalogue, findings)
    weapons = weapon_profiles(character, gear, strength, traits, body_mods, catalogue, findings)
    check_usable_items(name, gear, traits, catalogue, findings)

    armor_items = [item for item in gear if catalogue.category.get(item["slug"]) == "armor"]
    armor_sets = [i for i in armor_items if i.get("kind") != "shield"]
    worn = worn_armor(armor_sets)
    # Only the one worn set moves the numbers (two heavy armors: -1", not -2"). By identity: an item
    # taken twice is the same catalogue dict twice, so the worn set is added back once.
    move_items = [i for i in gear if not any(i is s for s in armor_sets)] + ([worn] if worn else [])
    return {
        "name": name,
        "points": points,
        "attributes": attributes,
        "armor": armor_points(armor_sets, body_mods),
        "move": move_distance(rules["move"], rules["move_minimum"], move_items),
        "carry": {"used": carry_used, "max": carry_max},
        "ap": ap_cap(rules["ap"], traits),
        "weapons": weapons,
        "_house_rule": any(e.get("house_rule") for e in [t for t, _ in traits] + body_mods + gear),
    }


def once(entries: list, slug_of) -> list:
    """The entries with each slug kept at its first place only."""
    seen = set()
    kept = []
    for entry in entries:
        if slug_of(entry) not in seen:
            seen.add(slug_of(entry))
            kept.append(entry)
    return kept


def known_traits(character: dict, catalogue, findings: Findings) -> list:
    """(entry, choices) of the character's known traits; reports unknown, doubled and bad choices."""
    name = character["name"]
    section = catalogue.section("traits")
    found = []
    counts = Counter()
    for trait in character.get("traits", []):
        slug, choices = trait_slug(trait), trait_choices(trait)
        entry = catalogue.traits.get(slug)
        if entry is None:
            findings.error("unknown-trait", name, f"Unknown trait: {slug!r}.", section)
            continue
        counts[slug] += 1
        if counts[slug] == 2:
            findings.error(
                "duplicate-trait", name, f"{entry['name']} is taken more than once.", entry.get("section", section)
            )
        check_trait_choice(name, entry, choices, catalogue, findings)
        found.append((entry, choices))
    return found


def check_trait_choice(name: str, entry: dict, choices: dict, catalogue, findings: Findings) -> None:
    choice = entry.get("choice")
    attribute_names = catalogue.rules["attributes"]
    if choice:
        if valid_raise_choice(choices, choice, attribute_names) is None:
            findings.error(
                "trait-choice",
                name,
                f'{entry["name"]} needs "raise": {choice.get("raise", 2)} different attributes '
                f"(from {', '.join(attribute_names)}).",
                entry.get("section", catalogue.section("traits")),
            )
        extra = set(choices) - {"raise"}
        if extra:
            findings.error(
                "trait-choice",
                name,
                f"{entry['name']} takes no choice {', '.join(sorted(extra))}.",
                entry.get("section", catalogue.section("traits")),
            )
    elif choices:
        findings.error(
            "trait-choice", name, f"{entry['name']} takes no choice.", entry.get("section", catalogue.section("traits"))
        )


def known_body_mods(character: dict, catalogue, traits: list, findings: Findings) -> list:
    name = character["name"]
    section = catalogue.section("body_mods")
    artificial = [entry for entry, _ in traits if entry.get("artificial")]
    found, counts = [], Counter()
    for slug in character.get("body_mods", []):
        mod = catalogue.body_mods.get(slug)
        if mod is None:
            findings.error("unknown-body-mod", name, f"Unknown body-mod: {slug!r}.", section)
            continue
        counts[slug] += 1
        if counts[slug] == 2:
            findings.warning(
                "duplicate-body-mod",
                name,
                f"{mod['name']} is taken more than once; a second one has no further effect.",
                mod.get("section", section),
            )
        if artificial and not mod.get("artificial"):
            findings.error(
                "artificial-body-mod",
                name,
                f"{artificial[0]['name']} models can only take body-mods marked // A; {mod['name']} is not.",
                artificial[0].get("section", catalogue.section("traits")),
            )
        found.append(mod)
    return found


def known_gear(character: dict, catalogue, findings: Findings) -> list:
    """One entry per carried copy; unknown slugs and items not for sale are reported and left out.

    ``not-purchasable`` is an added code for an item the catalogue has but does not sell (a house rule made in the
    admin): the crew is judged and kept as a draft. A crew file listing fists never gets here (crew-format.md:
    "Fists are never listed", so the reader refuses it as bad-format, reading 8); a crew dict that does gets the
    same error, worded for fists."""
    name = character["name"]
    fists = catalogue.rules.get("fists", "fists")
    found = []
    for slug in character.get("gear", []):
        item = catalogue.items.get(slug)
        if item is None:
            findings.error("unknown-item", name, f"Unknown item: {slug!r}.", catalogue.section("gear"))
            continue
        if item.get("purchasable") is False:
            findings.error(
                "not-purchasable",
                name,
                "Fists are never listed as gear: every character has them."
                if slug == fists
                else f"{item['name']} is not for sale, so it cannot be listed as gear.",
                item.get("section", catalogue.section("gear")),
            )
            continue
        found.append(item)
    return found


def with_changes(base: dict, changes: dict | None) -> dict:
    """Base attributes plus a campaign's changes to them (``attribute_changes``: injuries, advancement): the
    values as played, before traits. The creation check never sees the changes (reading C10)."""
    return {name: value + int((changes or {}).get(name, 0)) for name, value in base.items()}


def check_base_attributes(character: dict, rules: dict, catalogue, findings: Findings) -> None:
    """Four +1 and three -1 placed (they may cancel), each base value in range: the attributes as created,
    whatever a campaign changed since (``attribute_changes``, reading C10)."""
    name = character["name"]
    values = [character["attributes"][a] for a in rules["attributes"]]
    modifiers = rules["attribute_modifiers"]
    positives = sum(v for v in values if v > 0)
    negatives = sum(v for v in values if v < 0)
    if (
        sum(values) != modifiers["plus"] - modifiers["minus"]
        or positives > modifiers["plus"]
        or -negatives > modifiers["minus"]
    ):
        findings.error(
            "attribute-modifiers",
            name,
            f"Base attributes must place exactly {modifiers['plus']} +1 and {modifiers['minus']} -1 modifiers "
            f"(they add up to {sum(values):+d}, positives {positives:+d}, negatives {negatives:+d}).",
            catalogue.section("attributes"),
        )
    low, high = rules["attribute_range"]["min"], rules["attribute_range"]["max"]
    for attribute in rules["attributes"]:
        value = character["attributes"][attribute]
        if not low <= value <= high:
            findings.error(
                "attribute-range",
                name,
                f"Base {attribute} is {value:+d}; it must be from {low:+d} to {high:+d}.",
                catalogue.section("attributes"),
            )


def check_armor_and_shields(name: str, gear: list, catalogue, findings: Findings) -> None:
    rules = catalogue.rules
    armor = [i for i in gear if catalogue.category.get(i["slug"]) == "armor" and i.get("kind") != "shield"]
    shields = [i for i in gear if catalogue.category.get(i["slug"]) == "armor" and i.get("kind") == "shield"]
    if len(armor) > rules.get("armor_sets", 1):
        findings.error(
            "too-many-armor",
            name,
            f"{name} has {len(armor)} sets of armor ({', '.join(i['name'] for i in armor)}); "
            "the most is one (suits count as armor).",
            catalogue.section("armor"),
        )
    if len(shields) > rules.get("shields", 1):
        findings.error(
            "too-many-shields", name, f"{name} has {len(shields)} shields; the most is one.", catalogue.section("armor")
        )
    weapons = list({i["slug"]: i for i in gear if catalogue.category.get(i["slug"]) == "weapon"}.values())
    for shield in {s["slug"]: s for s in shields}.values():
        for weapon in weapons:
            if shield_forbids(shield, weapon):
                findings.error(
                    "shield-with-two-handed",
                    name,
                    f"The {shield['name']} cannot be used with the {weapon['name']}.",
                    shield.get("section", catalogue.section("armor")),
                )
    if shields:
        for suit in {i["slug"]: i for i in armor if i.get("disabled_by_shield")}.values():
            findings.warning(
                "stealth-suit-with-shield",
                name,
                f"The {suit['name']} does not work while {name} carries a shield.",
                suit.get("section", catalogue.section("armor")),
            )


def shield_forbids(shield: dict, weapon: dict) -> bool:
    """Whether one of the shield's "cannot be used with" rules matches the weapon."""
    for rule in shield.get("cannot_be_used_with", []):
        if weapon["slug"] in rule.get("except", []):
            continue
        if "hands" in rule and weapon.get("hands") != rule["hands"]:
            continue
        if "kind" in rule and weapon.get("kind") != rule["kind"]:
            continue
        if "keyword" in rule and not any(keyword_parts(k)[0] == rule["keyword"] for k in weapon.get("keywords", [])):
            continue
        return True
    return False


def weapon_profiles(character, gear, strength, traits, body_mods, catalogue, findings: Findings) -> list:
    """Fists first, then each carried weapon once, in gear order."""
    name = character["name"]
    fists_slug = catalogue.rules.get("fists", "fists")
    profiles = []
    fists = catalogue.items.get(fists_slug)
    if fists:
        profiles.append(weapon_profile(fists, strength, traits, body_mods, is_fists=True))
    carried = {i["slug"]: i for i in gear if catalogue.category.get(i["slug"]) == "weapon"}
    for weapon in carried.values():
        profile = weapon_profile(weapon, strength, traits, body_mods)
        # Two swords bought (Ambidextrous) are one profile carried twice: say so wherever it is listed.
        profile["copies"] = sum(1 for i in gear if i["slug"] == weapon["slug"])
        if weapon.get("house_rule"):
            profile["house_rule"] = True
        profiles.append(profile)
        if profile["unwieldy_from_heavy"]:
            needed = keyword_x(profile["keywords"], "Heavy")
            findings.warning(
                "unwieldy",
                name,
                f"The {weapon['name']} needs Strength {needed:+d} (Heavy {needed}); {name} has "
                f"{strength:+d}, so it is Unwieldy (2 AP to attack).",
                weapon.get("section", catalogue.section("weapons")),
            )
    for profile in profiles:
        del profile["unwieldy_from_heavy"]
    return profiles


def action_names(actions) -> str:
    """{"get-up", "move"} -> "get up, move": action slugs as words for messages."""
    return ", ".join(action.replace("-", " ") for action in sorted(actions))


def actions_needed(item: dict, category: str) -> set:
    """The actions a character must be able to take to get any use from an item."""
    if category == "weapon":
        return {"shoot"} if item.get("kind") == "ranged" else {"fight"}
    return set(item.get("needs_actions", []))


def capacity_reason(strength: int, carry_rules: dict, traits: list) -> str:
    """How carry_capacity came to its number, every part named: "5 + Strength, with Strength -2; +1 for EXTRA LIMBS"."""
    reason = f"{carry_rules['base']} + Strength, with Strength {strength:+d}"
    if carry_rules["base"] + strength < carry_rules["minimum"]:
        reason += f", never below {carry_rules['minimum']}"
    bonuses = [f"+{entry['carry_bonus']} for {entry['name']}" for entry, _ in traits if entry.get("carry_bonus")]
    return "; ".join([reason, *bonuses])


def check_usable_items(name: str, gear: list, traits: list, catalogue, findings: Findings) -> None:
    """Advice: items and traits a trait keeps the character from using (Bestial, Lobotomised, Artificial)."""
    restricting = [
        entry
        for entry, _ in traits
        if "allowed_actions" in entry
        or "forbidden_actions" in entry
        or "not_healed_by" in entry
        or entry.get("never_gains_dread")
    ]
    if not restricting:
        return  # the common case: no trait limits what the character can use
    distinct = list({i["slug"]: i for i in gear}.values())
    needs_of = [(item, actions_needed(item, catalogue.category.get(item["slug"]))) for item in distinct]
    for entry in restricting:
        allowed = set(entry.get("allowed_actions", [])) or None
        forbidden = set(entry.get("forbidden_actions", []))
        for item, needs in needs_of:
            if allowed is not None and needs and not needs <= allowed:
                findings.warning(
                    "bestial-unusable-item",
                    name,
                    f"{entry['name']} models can only {action_names(allowed)}; "
                    f"{item['name']} is carried but cannot be used.",
                    entry.get("section"),
                )
            elif forbidden and needs and needs <= forbidden:
                findings.warning(
                    "lobotomised-unusable-item",
                    name,
                    f"{entry['name']} models cannot {action_names(needs)}; "
                    f"{item['name']} is carried but cannot be used.",
                    entry.get("section"),
                )
        if allowed is not None:
            for other, _ in traits:
                needs = set(other.get("needs_actions", []))
                if needs and not needs <= allowed:
                    findings.warning(
                        "bestial-unusable-trait",
                        name,
                        f"{entry['name']} models can only {action_names(allowed)}; "
                        f"{other['name']} needs {action_names(needs)} and is wasted.",
                        entry.get("section"),
                    )
        if entry.get("never_gains_dread"):
            # Artificial "can never gain Dread": what works from Dread never works for it
            wasted = [f"{other['name']} needs Dread and is wasted" for other, _ in traits if other.get("needs_dread")]
            wasted += [f"{item['name']} is carried but never needed" for item in distinct if item.get("needs_dread")]
            for what in wasted:
                findings.warning(
                    "artificial-no-dread",
                    name,
                    f"{entry['name']} models never gain Dread; {what}.",
                    entry.get("section"),
                )
        for slug in entry.get("not_healed_by", []):
            if any(item["slug"] == slug for item in distinct):
                findings.warning(
                    "artificial-trauma-kit",
                    name,
                    f"{entry['name']} models cannot be healed with a {catalogue.items[slug]['name']} "
                    "(it can still heal others).",
                    entry.get("section"),
                )


# ---------------------------------------------------------------- Crew model -> crew-file dict


def crew_to_data(crew, characters: list[dict] | None = None) -> dict:
    """The crew-file dict of a Crew loaded with ``with_everything()`` (no further query); ``characters``, its
    characters' (``character_to_data``) when the caller has them."""
    data = {
        "format": "crewbuilder.crew/1",
        "system": crew.system.slug,
        "name": crew.name,
        "budget": crew.budget,
        "characters": [character_to_data(c) for c in crew.characters.all()] if characters is None else characters,
    }
    if crew.notes:
        data["notes"] = crew.notes
    return data


def character_to_data(character) -> dict:
    data = {
        "name": character.name,
        "attributes": {
            "strength": character.strength,
            "toughness": character.toughness,
            "agility": character.agility,
            "intellect": character.intellect,
            "discipline": character.discipline,
        },
    }
    changes = {a: v for a, v in (character.attribute_changes or {}).items() if v}
    if changes:  # an optional key (reading C10): only a character a campaign changed has it
        data["attribute_changes"] = changes
    data |= {
        "traits": [{"slug": t.trait.slug, **t.choices} if t.choices else t.trait.slug for t in character.traits.all()],
        "body_mods": [m.body_mod.slug for m in character.body_mods.all()],
        "gear": [g.item.slug for g in character.gear.all() for _ in range(g.copies)],
    }
    if character.notes:
        data["notes"] = character.notes
    return data
