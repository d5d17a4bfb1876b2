"""Derived Cybernekr0 character numbers: pure Python, no Django.

Every number comes from catalogue data passed in (trait/body-mod/item entries
as flat dicts and the system's ``crew_rules``); nothing here knows a cost, a
bonus or a limit by heart.
"""

import re

KEYWORD_X = re.compile(r"^(?P<name>.*?)\s+(?P<x>-?\d+)$")


def keyword_parts(keyword: str):
    """("Heavy 2") -> ("Heavy", 2); ("Reach") -> ("Reach", None)."""
    match = KEYWORD_X.match(keyword.strip())
    if match:
        return match.group("name"), int(match.group("x"))
    return keyword.strip(), None


def keyword_x(keywords, name: str):
    """The X of keyword ``name`` among ``keywords`` (None when absent)."""
    for keyword in keywords:
        base, x = keyword_parts(keyword)
        if base == name and x is not None:
            return x
    return None


def has_keyword(keywords, name: str) -> bool:
    return any(keyword_parts(k)[0] == name for k in keywords)


def effective_attributes(base: dict, traits: list, attribute_names) -> dict:
    """Base attributes changed by traits.

    ``traits`` holds (entry, choices) pairs. An entry's ``attributes`` adds
    fixed amounts; its ``choice`` (Deformed) raises the chosen attributes and
    lowers all the others. A choice that is not valid is skipped here (the
    validator reports it) so the numbers stay computable.
    """
    values = {name: base.get(name, 0) for name in attribute_names}
    for entry, choices in traits:
        for name, delta in (entry.get("attributes") or {}).items():
            if name in values:
                values[name] += delta
        choice = entry.get("choice")
        if choice:
            raised = valid_raise_choice(choices, choice, attribute_names)
            if raised is not None:
                for name in attribute_names:
                    values[name] += choice.get("raise_by", 1) if name in raised else -choice.get("lower_others_by", 1)
    return values


def valid_raise_choice(choices, choice: dict, attribute_names):
    """The chosen attributes when they are a legal choice, else None."""
    raised = (choices or {}).get("raise")
    if not isinstance(raised, list) or len(raised) != choice.get("raise", 2):
        return None
    # Strings first: a list or dict inside "raise" cannot go into a set.
    if not all(isinstance(r, str) and r in attribute_names for r in raised) or len(set(raised)) != len(raised):
        return None
    return raised


def carry_capacity(strength: int, carry_rules: dict, traits: list) -> int:
    """5 + Strength, never below the minimum, plus trait bonuses (Extra Limbs).

    The floor applies to "5 + Strength" (what the Gear rule bounds); an
    additional item from a trait is added on top of it.
    """
    capacity = max(carry_rules["minimum"], carry_rules["base"] + strength)
    return capacity + sum(entry.get("carry_bonus", 0) for entry, _ in traits)


def item_halves(item: dict, carry_rules: dict) -> int:
    """How many half items one copy counts as: armor/shields by their "items",
    two-handed weapons two, [small] half.

    Counted in halves (an int) because [small] is the only fraction the rules
    have; integer sums keep the validator fast and exact.
    """
    if item.get("hands") == 2:
        load = carry_rules.get("two_handed_counts", 2)
    else:
        load = item.get("items", 1) or 1
    return load if item.get("small") else 2 * load


def halves_as_number(halves: int):
    """9 halves -> 4.5, 8 halves -> 4: whole numbers stay integers in JSON."""
    return halves // 2 if halves % 2 == 0 else halves / 2


def move_distance(base_move: int, minimum: int, items: list) -> int:
    """Move after items' move modifiers (heavy armor -1"), never below the minimum."""
    return max(minimum, base_move + sum(item.get("move_modifier", 0) for item in items))


def worn_armor(armor_items: list):
    """The one set of armor a model wears ("at most one set of armor ... equipped"):
    the one with the most points (the first listed on a tie); None without armor.

    A crew carrying more (a ``too-many-armor`` error) still gets the numbers of
    one worn set: its armor points and its move modifier, never two sets' worth.
    """
    worn = None
    for item in armor_items:
        if worn is None or (item.get("armor") or 0) > (worn.get("armor") or 0):
            worn = item
    return worn


def armor_points(armor_items: list, body_mods: list) -> int:
    """Points of the worn armor set plus body-mod bonuses (Reinforced body)."""
    worn = worn_armor(armor_items)
    points = (worn.get("armor") or 0) if worn else 0
    return points + sum(mod.get("armor_bonus", 0) for mod in body_mods)


def ap_cap(base_ap: int, traits: list) -> int:
    """Most AP a model may be assigned: the rules' 3, or a trait's cap (Bestial 4)."""
    return max([base_ap] + [entry["ap_cap"] for entry, _ in traits if "ap_cap" in entry])


def ignores_heavy(body_mods: list) -> bool:
    return any(mod.get("ignore_heavy") for mod in body_mods)


def weapon_profile(weapon: dict, strength: int, traits: list, body_mods: list, is_fists: bool = False) -> dict:
    """The weapon as this character uses it.

    Heavy X without X Strength adds Unwieldy (unless a body-mod ignores Heavy);
    fists change with body-mods (Mechanical claw); melee weapons gain trait
    keywords (Long arms: Reach).
    """
    keywords = list(weapon.get("keywords") or [])
    if is_fists:
        for mod in body_mods:
            change = mod.get("fists") or {}
            keywords = [k for k in keywords if keyword_parts(k)[0] not in change.get("remove", [])]
            keywords += [k for k in change.get("add", []) if k not in keywords]
    if weapon.get("kind") == "melee":
        for entry, _ in traits:
            keywords += [k for k in entry.get("melee_keywords_add", []) if k not in keywords]
    heavy = keyword_x(keywords, "Heavy")
    unwieldy_from_heavy = heavy is not None and strength < heavy and not ignores_heavy(body_mods)
    if unwieldy_from_heavy and not has_keyword(keywords, "Unwieldy"):
        keywords.append("Unwieldy")
    return {
        "slug": weapon["slug"],
        "name": weapon["name"],
        "hands": weapon.get("hands"),
        "kind": weapon.get("kind"),
        "damage": weapon.get("damage"),
        "range": weapon.get("range"),
        "keywords": keywords,
        "unwieldy_from_heavy": unwieldy_from_heavy,
    }
