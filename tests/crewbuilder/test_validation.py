"""Every error and warning code: one test triggers it, one just avoids it.

Pure: the catalogue snapshot comes from the data file, no database.
"""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from catalogue import DATA_DIR
from crewbuilder.validation import CatalogueSnapshot, validate_crew

CATALOGUE_FILE = DATA_DIR / "cybernekro-1.1.3.json"
CAT = CatalogueSnapshot.from_file(CATALOGUE_FILE)
ATTRS = ("strength", "toughness", "agility", "intellect", "discipline")
# A legal placement: +1 and -1 cancel on agility (sum +1, positives 3, negatives -2).
LEGAL = {"strength": 2, "toughness": 1, "agility": 0, "intellect": -1, "discipline": -1}


def char(name="A", attributes=None, traits=(), body_mods=(), gear=()):
    return {
        "name": name,
        "attributes": dict(attributes or LEGAL),
        "traits": list(traits),
        "body_mods": list(body_mods),
        "gear": list(gear),
    }


def crew(*characters, budget=150, fill=3):
    """A crew of the given characters, topped up with plain ones to ``fill``."""
    chars = list(characters)
    while len(chars) < fill:
        chars.append(char(f"Filler {len(chars)}"))
    return {
        "format": "crewbuilder.crew/1",
        "system": "cybernekro",
        "name": "Test",
        "budget": budget,
        "characters": chars,
    }


def report_of(*characters, **kw):
    return validate_crew(crew(*characters, **kw), CAT)


def codes(report, kind="errors"):
    return [f["code"] for f in report[kind]]


def test_plain_crew_is_valid():
    report = report_of()
    assert report["valid"] and report["errors"] == [] and report["warnings"] == []
    assert report["points"] == 45 and report["budget"] == 150


# ---- crew size


def test_three_characters_is_enough():
    assert "too-few-characters" not in codes(report_of(fill=3))


def test_two_characters_is_too_few():
    report = validate_crew({**crew(), "characters": [char("A"), char("B")]}, CAT)
    assert codes(report) == ["too-few-characters"] and report["errors"][0]["character"] is None


def test_seven_characters_is_allowed():
    assert report_of(fill=7)["valid"]


def test_eight_characters_is_too_many():
    assert codes(report_of(fill=8)) == ["too-many-characters"]


# ---- budget

EXACTLY_150 = [
    char("A", gear=["powered-armor", "grenade-launcher", "archeogun"]),  # 15 + 24 + 10 + 10 = 59
    char("B", gear=["powered-armor", "grenade-launcher", "archeogun"]),  # 59
    char("C", gear=["energy-weapon", "archeogun"]),  # 15 + 7 + 10 = 32
]


def test_exactly_the_budget_is_allowed():
    report = report_of(*EXACTLY_150)
    assert report["points"] == 150 and report["valid"], report["errors"]


def test_one_point_over_budget():
    chars = [dict(c) for c in EXACTLY_150]
    chars[2] = char("C", gear=["energy-weapon", "archeogun", "rope-and-hook"])
    report = report_of(*chars)
    assert report["points"] == 151 and codes(report) == ["over-budget"]


def test_budget_of_the_file_is_used():
    assert codes(report_of(*EXACTLY_150, budget=149)) == ["over-budget"]
    assert report_of(budget=45)["valid"]


def test_character_points_add_traits_mods_and_every_copy():
    c = char(
        "Vox",
        traits=["big", {"slug": "deformed", "raise": ["strength", "agility"]}],
        body_mods=["neural-cabling"],
        gear=["sword", "light-armor", "trauma-kit", "trauma-kit"],
    )
    assert report_of(c)["characters"][0]["points"] == 15 + 5 + 3 + 5 + 4 + 4 + 2 + 2


def test_negative_trait_costs_reduce_points():
    assert report_of(char(traits=["one-shotter", "unpredictable"]))["characters"][0]["points"] == 15 - 5 - 3


# ---- attributes


def test_minus_three_is_out_of_range():
    # three -1 on one attribute is a legal placement; the value is not
    report = report_of(char(attributes=dict(zip(ATTRS, (-3, 2, 2, 0, 0)))))
    assert codes(report) == ["attribute-range"]


def test_minus_two_is_in_range():
    assert report_of(char(attributes=dict(zip(ATTRS, (-2, 2, 1, 0, 0)))))["valid"]


def test_plus_three_is_in_range():
    assert report_of(char(attributes=dict(zip(ATTRS, (3, -1, -1, 0, 0)))))["valid"]


def test_plus_four_is_out_of_range():
    # four +1 on one attribute is a legal placement; the value is not
    assert codes(report_of(char(attributes=dict(zip(ATTRS, (4, -1, -1, -1, 0)))))) == ["attribute-range"]


def test_all_zero_is_not_a_placement():
    assert codes(report_of(char(attributes=dict.fromkeys(ATTRS, 0)))) == ["attribute-modifiers"]


@pytest.mark.parametrize(
    "values",
    [
        (1, 1, 1, 1, 0),  # sum 4: a -1 missing
        (2, 2, 1, -1, -3),  # positives 5
        (3, 1, -1, -1, -1),  # sum 1 but positives 4 and negatives -3: legal -> control below
    ],
)
def test_attribute_modifier_sets(values):
    report = report_of(char(attributes=dict(zip(ATTRS, values))))
    expected = [] if values == (3, 1, -1, -1, -1) else ["attribute-modifiers"]
    assert [c for c in codes(report) if c == "attribute-modifiers"] == expected


def test_traits_may_push_effective_attributes_past_range():
    report = report_of(char(attributes=dict(zip(ATTRS, (3, -1, -1, 0, 0))), traits=["gifted"]))
    assert report["valid"] and report["characters"][0]["attributes"]["strength"] == 4


def test_effective_attributes_after_traits():
    c = char(attributes=LEGAL, traits=["big", {"slug": "deformed", "raise": ["strength", "agility"]}, "withered"])
    attributes = report_of(c)["characters"][0]["attributes"]
    # strength 2+1-1, toughness 1+2-1-1, agility 0+1-1, intellect -1-1, discipline -1-1
    assert attributes == {"strength": 2, "toughness": 1, "agility": 0, "intellect": -2, "discipline": -2}


# ---- traits


def test_same_trait_twice_on_one_character():
    assert codes(report_of(char(traits=["big", "big"]))) == ["duplicate-trait"]


def test_different_traits_on_one_character():
    assert report_of(char(traits=["big", "small"]))["valid"]


@pytest.mark.parametrize(
    "trait",
    [
        "deformed",
        {"slug": "deformed"},
        {"slug": "deformed", "raise": ["strength"]},
        {"slug": "deformed", "raise": ["strength", "strength"]},
        {"slug": "deformed", "raise": ["strength", "luck"]},
        {"slug": "deformed", "raise": "strength"},
        {"slug": "big", "raise": ["strength", "agility"]},
    ],
)
def test_trait_choice_wrong(trait):
    assert codes(report_of(char(traits=[trait]))) == ["trait-choice"]


def test_trait_choice_right():
    assert report_of(char(traits=[{"slug": "deformed", "raise": ["intellect", "discipline"]}]))["valid"]


def test_duplicate_trait_in_crew_is_a_warning():
    report = report_of(char("A", traits=["big"]), char("B", traits=["big"]))
    assert report["valid"] and codes(report, "warnings") == ["duplicate-trait-in-crew"]
    assert report["warnings"][0]["character"] == "B" and report["warnings"][0]["rule"] == "Traits, p.7"


def test_varied_traits_in_crew_give_no_warning():
    assert report_of(char("A", traits=["big"]), char("B", traits=["small"]))["warnings"] == []


# ---- unknown slugs do not stop the rest of the report


def test_unknown_slugs_are_reported_and_the_rest_still_computed():
    report = report_of(char("A", traits=["lucky", "big"], body_mods=["wings"], gear=["bazooka", "sword"]))
    assert sorted(codes(report)) == ["unknown-body-mod", "unknown-item", "unknown-trait"]
    character = report["characters"][0]
    assert character["points"] == 15 + 5 + 4 and character["attributes"]["toughness"] == 3
    assert [w["slug"] for w in character["weapons"]] == ["fists", "sword"]


def test_fists_in_gear_is_an_error():
    report = report_of(char(gear=["fists"]))
    assert codes(report) == ["not-purchasable"]


# ---- body-mods


def test_artificial_with_unmarked_body_mod():
    assert codes(report_of(char(traits=["artificial"], body_mods=["neural-cabling"]))) == ["artificial-body-mod"]


def test_artificial_with_marked_body_mod():
    assert report_of(char(traits=["artificial"], body_mods=["mechanical-claw", "reinforced-body"]))["valid"]


def test_body_mod_taken_twice_is_a_warning():
    report = report_of(char(body_mods=["extra-organs", "extra-organs"]))
    assert report["valid"] and codes(report, "warnings") == ["duplicate-body-mod"]


# ---- capacity (Strength 0: 5 items)

STR0 = {"strength": 0, "toughness": 1, "agility": 1, "intellect": 0, "discipline": -1}


def test_capacity_exactly_full_is_legal():
    report = report_of(char(attributes=STR0, gear=["sword", "axe", "lantern", "rifle"]))  # 1+1+1+2
    assert report["valid"] and report["characters"][0]["carry"] == {"used": 5, "max": 5}


def test_one_item_over_capacity():
    report = report_of(char(attributes=STR0, gear=["sword", "axe", "lantern", "rifle", "gas-mask"]))
    assert codes(report) == ["over-capacity"]


def test_small_items_count_half():
    gear = ["sword", "axe", "lantern", "gas-mask", "knife", "extra-ammo"]  # 4 + 2 halves = 5
    report = report_of(char(attributes=STR0, gear=gear))
    assert report["valid"] and report["characters"][0]["carry"]["used"] == 5


def test_half_an_item_over_capacity():
    gear = ["sword", "axe", "lantern", "gas-mask", "knife", "extra-ammo", "gas-grenade"]
    report = report_of(char(attributes=STR0, gear=gear))
    assert codes(report) == ["over-capacity"] and report["characters"][0]["carry"]["used"] == 5.5


def test_heavy_armor_and_tower_shield_count_two():
    report = report_of(char(attributes=STR0, gear=["heavy-armor", "tower-shield", "sword"]))
    assert report["characters"][0]["carry"]["used"] == 5 and report["valid"]


def test_extra_limbs_carry_one_more():
    gear = ["sword", "axe", "lantern", "rifle", "gas-mask"]
    report = report_of(char(attributes=STR0, traits=["extra-limbs"], gear=gear))
    assert report["valid"] and report["characters"][0]["carry"]["max"] == 6


def test_the_over_capacity_message_names_every_part_of_the_most():
    gear = ["sword", "axe", "lantern", "rifle", "gas-mask", "knife"]
    report = report_of(char(attributes=STR0, traits=["extra-limbs"], gear=gear))
    assert report["errors"][0]["message"].startswith(
        "A carries 6.5 items; the most is 6 (5 + Strength, with Strength +0; +1 for EXTRA LIMBS). "
    )
    report = report_of(char(attributes=STR0, traits=["withered"], gear=gear[:4]))
    assert "the most is 4 (5 + Strength, with Strength -1). " in report["errors"][0]["message"]


def test_gifted_strength_raises_capacity():
    assert report_of(char(attributes=STR0, traits=["gifted"]))["characters"][0]["carry"]["max"] == 6


def test_withered_strength_lowers_capacity():
    gear = ["sword", "axe", "lantern", "rifle"]
    assert codes(report_of(char(attributes=STR0, traits=["withered"], gear=gear))) == ["over-capacity"]


# ---- armor and shields


def test_two_sets_of_armor():
    assert codes(report_of(char(gear=["light-armor", "medium-armor"]))) == ["too-many-armor"]


def test_suit_counts_as_the_set_of_armor():
    assert codes(report_of(char(gear=["light-armor", "hazard-suit"]))) == ["too-many-armor"]
    assert report_of(char(gear=["hazard-suit"]))["valid"]


def test_armor_and_shield_together():
    report = report_of(char(gear=["light-armor", "shield"]))
    assert report["valid"] and report["characters"][0]["armor"] == 1


def test_two_shields():
    assert codes(report_of(char(gear=["shield", "tower-shield"]))) == ["too-many-shields"]


@pytest.mark.parametrize("weapon", ["rifle", "heavy-weapon", "staff", "crossbow", "chain-gun"])
def test_shield_with_two_handed(weapon):
    assert codes(report_of(char(gear=["shield", weapon]))) == ["shield-with-two-handed"]


@pytest.mark.parametrize("weapon", ["spear", "sword", "pistol", "brutal-weapon"])
def test_shield_with_allowed_weapon(weapon):
    assert "shield-with-two-handed" not in codes(report_of(char(gear=["shield", weapon])))


@pytest.mark.parametrize("weapon", ["polearm", "heavy-weapon", "heavy-rifle", "excavation-laser"])
def test_tower_shield_forbidden(weapon):
    report = report_of(char(attributes={**LEGAL, "strength": 3, "toughness": 0}, gear=["tower-shield", weapon]))
    assert codes(report) == ["shield-with-two-handed"]


@pytest.mark.parametrize("weapon", ["spear", "rifle", "chain-gun", "brutal-weapon", "pistol"])
def test_tower_shield_allowed(weapon):
    report = report_of(char(attributes={**LEGAL, "strength": 3, "toughness": 0}, gear=["tower-shield", weapon]))
    assert "shield-with-two-handed" not in codes(report)


def test_stealth_suit_with_shield_is_a_warning():
    report = report_of(char(gear=["stealth-suit", "shield"]))
    assert report["valid"] and codes(report, "warnings") == ["stealth-suit-with-shield"]


def test_stealth_suit_alone():
    assert report_of(char(gear=["stealth-suit"]))["warnings"] == []


# ---- weapons: Heavy X


def test_unwieldy_when_heavy_not_met():
    report = report_of(char(attributes={**LEGAL, "strength": 1, "agility": 1}, gear=["heavy-weapon"]))
    assert report["valid"] and codes(report, "warnings") == ["unwieldy"]
    assert "Unwieldy" in report["characters"][0]["weapons"][1]["keywords"]


def test_heavy_met_exactly():
    report = report_of(char(attributes=LEGAL, gear=["heavy-weapon"]))  # strength +2, Heavy 2
    assert report["warnings"] == [] and "Unwieldy" not in report["characters"][0]["weapons"][1]["keywords"]


def test_unwieldy_uses_effective_strength():
    attributes = {**LEGAL, "strength": 1, "agility": 1}
    deformed = {"slug": "deformed", "raise": ["strength", "agility"]}
    assert report_of(char(attributes=attributes, traits=[deformed], gear=["heavy-weapon"]))["warnings"] == []


def test_augmented_arms_ignore_heavy():
    report = report_of(char(attributes=STR0, body_mods=["augmented-arms"], gear=["heavy-weapon"]))
    assert report["warnings"] == []


def test_printed_unwieldy_gives_no_warning():
    report = report_of(char(gear=["industrial-tool"]))
    assert report["warnings"] == [] and "Unwieldy" in report["characters"][0]["weapons"][1]["keywords"]


# ---- weapons: fists and trait keywords


def test_fists_always_listed():
    fists = report_of(char())["characters"][0]["weapons"][0]
    assert fists["slug"] == "fists" and fists["damage"] == 1 and fists["keywords"] == ["Feeble"]


def test_mechanical_claw_fists():
    fists = report_of(char(body_mods=["mechanical-claw"]))["characters"][0]["weapons"][0]
    assert fists["keywords"] == ["Brutal"]


def test_long_arms_give_melee_reach():
    weapons = report_of(char(traits=["long-arms"], gear=["sword", "pistol"]))["characters"][0]["weapons"]
    assert [("Reach" in w["keywords"]) for w in weapons] == [True, True, False]


# ---- derived numbers


def test_move_armor_and_ap():
    c = report_of(char(gear=["heavy-armor"], body_mods=["reinforced-body"], traits=["bestial"]))["characters"][0]
    assert (c["move"], c["armor"], c["ap"]) == (5, 4, 4)


def test_default_ap_move_armor():
    c = report_of(char())["characters"][0]
    assert (c["move"], c["armor"], c["ap"]) == (6, 0, 3)


def test_a_second_set_of_armor_does_not_slow_the_model_twice():
    """ "A model can have at most one set of armor and one shield equipped." /
    heavy armor "reduces all movement by 1"": two heavy armors are an error
    (too-many-armor), and the report shows the one worn set, as for armor points
    (3, not 6): 5", not 4"."""
    report = report_of(char(gear=["heavy-armor", "heavy-armor"]))
    c = report["characters"][0]
    assert "too-many-armor" in codes(report)
    assert (c["move"], c["armor"]) == (5, 3)
    light_then_heavy = report_of(char(gear=["light-armor", "heavy-armor"]))["characters"][0]
    assert (light_then_heavy["move"], light_then_heavy["armor"]) == (5, 3)


def test_hazard_suit_plain_armor_is_zero():
    assert report_of(char(gear=["hazard-suit"]))["characters"][0]["armor"] == 0


def test_a_body_mod_taken_twice_adds_its_armor_once():
    """Reinforced body: "Increase armor by 1". Body-mods have no "only once" rule,
    and the reading recorded for `duplicate-body-mod` (rules-interpretations.md §7)
    is that "a second copy adds nothing", as the warning itself says: the report
    must not show +2 armor for a crew it calls valid. The points of both copies
    are still counted (they were listed, so bought)."""
    report = report_of(char(gear=["light-armor"], body_mods=["reinforced-body", "reinforced-body"]))
    c = report["characters"][0]
    assert report["valid"] and codes(report, "warnings") == ["duplicate-body-mod"]
    assert c["armor"] == 1 + 1
    assert c["points"] == 15 + 4 + 5 + 5


def test_a_trait_taken_twice_works_once():
    """ "Each trait can only be taken once by each model." A second copy is the
    `duplicate-trait` error; the report's numbers describe the model with the
    trait once (as with a second set of armor, §9b): Gifted twice is +1 to every
    attribute, not +2; Extra Limbs twice carries one more item, not two; Bestial
    twice gives one warning per unusable item. Both copies' points are counted."""
    report = report_of(char(traits=["gifted", "gifted", "extra-limbs", "extra-limbs"]))
    c = report["characters"][0]
    assert codes(report) == ["duplicate-trait", "duplicate-trait"]
    assert c["attributes"] == {name: LEGAL[name] + 1 for name in ATTRS}
    assert c["carry"]["max"] == 5 + LEGAL["strength"] + 1 + 1
    assert c["points"] == 15 + 10 + 10 + 3 + 3
    bestial = report_of(char(traits=["bestial", "bestial"], gear=["pistol"]))
    assert codes(bestial, "warnings") == ["bestial-unusable-item"]


# ---- trait advice


def test_bestial_with_unusable_items():
    report = report_of(char(traits=["bestial"], gear=["pistol", "trauma-kit", "sword", "lantern"]))
    assert report["valid"] and codes(report, "warnings") == ["bestial-unusable-item", "bestial-unusable-item"]


def test_bestial_with_usable_items():
    assert report_of(char(traits=["bestial"], gear=["sword", "light-armor", "lantern"]))["warnings"] == []


def test_bestial_sorcerer_is_a_warning():
    report = report_of(char(traits=["bestial", "sorcerer"]))
    assert report["valid"] and codes(report, "warnings") == ["bestial-unusable-trait"]
    assert report["warnings"][0]["rule"] == "Traits, p.7"


def test_sorcerer_without_bestial_gives_no_warning():
    assert report_of(char(traits=["sorcerer", "ambidextrous"]))["warnings"] == []
    assert report_of(char(traits=["bestial", "ambidextrous"]))["warnings"] == []


def test_lobotomised_with_use_equipment_items():
    report = report_of(char(traits=["lobotomised"], gear=["trauma-kit", "repair-kit", "rifle"]))
    assert codes(report, "warnings") == ["lobotomised-unusable-item"] * 2


def test_lobotomised_with_usable_items():
    assert report_of(char(traits=["lobotomised"], gear=["rifle", "gas-mask"]))["warnings"] == []


def test_artificial_with_trauma_kit():
    report = report_of(char(traits=["artificial"], gear=["trauma-kit"]))
    assert report["valid"] and codes(report, "warnings") == ["artificial-trauma-kit"]
    assert report_of(char(traits=["artificial"], gear=["repair-kit"]))["warnings"] == []


def test_artificial_never_gains_the_dread_madness_and_concoctions_work_from():
    report = report_of(char(traits=["artificial", "driven-by-madness"], gear=["esoteric-concoction"]))
    assert report["valid"] and [w["message"] for w in report["warnings"]] == [
        "ARTIFICIAL models never gain Dread; DRIVEN BY MADNESS needs Dread and is wasted.",
        "ARTIFICIAL models never gain Dread; esoteric concoction is carried but never needed.",
    ]
    assert codes(report, "warnings") == ["artificial-no-dread"] * 2
    # Demonic still heals a Wound each Morale Phase; without Artificial the same choices are plain
    assert report_of(char(traits=["artificial", "demonic"]))["warnings"] == []
    assert report_of(char(traits=["driven-by-madness"], gear=["esoteric-concoction"]))["warnings"] == []


def test_extra_ammo_is_for_shooters():
    assert codes(report_of(char(traits=["bestial"], gear=["extra-ammo"])), "warnings") == ["bestial-unusable-item"]
    assert report_of(char(traits=["lobotomised"], gear=["extra-ammo", "rifle"]))["warnings"] == []


# ---- every finding cites its rule


def test_findings_cite_rules():
    report = report_of(char(gear=["shield", "rifle", "light-armor", "medium-armor"]), fill=8)
    rules = {f["code"]: f["rule"] for f in report["errors"]}
    assert rules == {
        "too-many-characters": "Creating a crew, p.5",
        "too-many-armor": "Armor, p.12",
        "shield-with-two-handed": "Armor, p.12",
    }


# ---- accepted findings (house rules)


def test_accepted_findings_move_aside_and_valid_stays_strict():
    data = crew(char("A", traits=["big", "big"]))
    accepted = [{"code": "duplicate-trait", "character": "A", "note": "our table allows it"}]
    report = validate_crew(data, CAT, accepted)
    assert report["valid"] is False and report["errors"] == []
    assert report["house_rules"] is True and report["valid_with_house_rules"] is True
    assert report["accepted"][0]["note"] == "our table allows it"


def test_accepted_finding_for_another_character_does_not_match():
    data = crew(char("A", traits=["big", "big"]))
    report = validate_crew(data, CAT, [{"code": "duplicate-trait", "character": "B", "note": ""}])
    assert codes(report) == ["duplicate-trait"] and report["valid_with_house_rules"] is False


# ---- hypothesis: random legal crews are legal

EQUIP = [slug for slug, cat in CAT.category.items() if cat == "equipment"]
BODY_ARMOR = [s for s, e in CAT.items.items() if CAT.category[s] == "armor" and e["kind"] != "shield"]
SHIELDS = [s for s, e in CAT.items.items() if e.get("kind") == "shield"]
WEAPONS = [s for s, e in CAT.items.items() if CAT.category[s] == "weapon" and s != "fists"]
PLAIN_TRAITS = [s for s, e in CAT.traits.items() if s not in ("deformed",)]


@st.composite
def legal_attributes(draw):
    while True:
        values = dict.fromkeys(ATTRS, 0)
        for delta in (1, 1, 1, 1, -1, -1, -1):
            values[draw(st.sampled_from(ATTRS))] += delta
        if all(-2 <= v <= 3 for v in values.values()):
            return values


def allowed_with(shield, weapon):
    """Independent reading of the two shield texts."""
    w = CAT.items[weapon]
    if shield == "shield":
        return w["hands"] == 1 or weapon == "spear"
    two_handed_melee = w["hands"] == 2 and w["kind"] == "melee" and weapon != "spear"
    heavy_ranged = w["kind"] == "ranged" and any(k.startswith("Heavy") for k in w["keywords"])
    return not (two_handed_melee or heavy_ranged)


def load(slug):
    e = CAT.items[slug]
    n = 2 if (e.get("hands") == 2 or e.get("items") == 2) else 1
    return n / 2 if e.get("small") else n


@st.composite
def legal_character(draw, index):
    attributes = draw(legal_attributes())
    traits = draw(st.lists(st.sampled_from(PLAIN_TRAITS), unique=True, max_size=3))
    chosen = list(traits)
    strength = attributes["strength"] + sum({"withered": -1, "gifted": 1}.get(t, 0) for t in traits)
    if draw(st.booleans()):
        raise_ = draw(st.lists(st.sampled_from(ATTRS), unique=True, min_size=2, max_size=2))
        chosen.append({"slug": "deformed", "raise": raise_})
        strength += 1 if "strength" in raise_ else -1
    artificial = "artificial" in traits
    mods = [s for s, m in CAT.body_mods.items() if m["artificial"] or not artificial]
    body_mods = draw(st.lists(st.sampled_from(mods), unique=True, max_size=2))
    capacity = max(1, 5 + strength) + (1 if "extra-limbs" in traits else 0)
    gear = []
    armor = draw(st.sampled_from([None] + BODY_ARMOR))
    shield = draw(st.sampled_from([None] + SHIELDS))
    candidates = [a for a in (armor, shield) if a]
    candidates += draw(st.lists(st.sampled_from(WEAPONS + EQUIP), max_size=4))
    for slug in candidates:
        if shield and CAT.category[slug] == "weapon" and not allowed_with(shield, slug):
            continue
        if sum(load(g) for g in gear) + load(slug) <= capacity:
            gear.append(slug)
    return char(f"C{index}", attributes, chosen, body_mods, gear)


def cost_of(character):
    """Independent points of a character: 15 + every trait, body-mod and gear cost."""
    traits = [t if isinstance(t, str) else t["slug"] for t in character["traits"]]
    return (
        CAT.rules["character_base_cost"]
        + sum(CAT.traits[t]["cost"] for t in traits)
        + sum(CAT.body_mods[m]["cost"] for m in character["body_mods"])
        + sum(CAT.items[g]["cost"] for g in character["gear"])
    )


def trim_to_budget(characters, budget):
    """Drop gear, then body-mods, then costly traits, last character first, until the crew fits.

    Dropping only shrinks the load and never adds a shield or an Artificial
    mark, so a legal character stays legal (capacity can only fall with the
    traits, and by then its gear is gone).
    """
    for key in ("gear", "body_mods", "traits"):
        for character in reversed(characters):
            kept = list(character[key])
            while sum(cost_of(c) for c in characters) > budget and kept:
                costly = [
                    e for e in kept if key != "traits" or CAT.traits[e if isinstance(e, str) else e["slug"]]["cost"] > 0
                ]
                if not costly:
                    break
                kept.remove(costly[-1])
                character[key] = list(kept)
    return characters


@st.composite
def legal_crew(draw):
    size = draw(st.integers(3, 7))
    characters = trim_to_budget([draw(legal_character(i)) for i in range(size)], 150)
    return crew(*characters, budget=150, fill=size)


@settings(max_examples=200, deadline=None)
@given(legal_crew())
def test_random_legal_crews_are_valid(data):
    report = validate_crew(data, CAT)
    assert report["valid"], report["errors"]
    assert report["points"] == sum(cost_of(c) for c in data["characters"]) <= 150
    assert report["points"] == sum(c["points"] for c in report["characters"])
