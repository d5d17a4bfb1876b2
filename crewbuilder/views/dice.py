"""The dice assistant: exact odds as you set up an attack, then seeded rolls.

Every number comes from the reference engine: attacks from
``rules/cybernekro.py`` (planned once, the odds and the roll from the same
plan), quick rolls from ``rules.odds(request)`` (odds-format.md),
seeded rolls from ``rules/rolls.py`` with ``random.Random(seed)``.
Everything is a GET with the set-up in the query string, so any page (and any
roll, with its seed) can be shared by link and shows the same dice to all.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction

from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import resolve, reverse
from django.views.decorators.http import require_GET, require_POST

from core.htmx import vary_on_htmx
from core.percent import percent
from crewbuilder import dice_links, dice_service
from crewbuilder.models import StoredRoll
from rules import OddsRequestError, odds, rolls
from rules.cybernekro import engine as cn
from rules.follow_ups import after_attack

LOG_SIZE = 20


def _bars(dist: dict, labels: dict | None = None) -> list[dict]:
    """{key: Fraction or "p/q"} -> the bars of _bars.html."""
    labels = labels or {}
    out = []
    for key, value in dist.items():
        p = Fraction(value)
        out.append({"key": key, "label": labels.get(key, key), "p": float(p), "pct": percent(p), "exact": str(p)})
    return out


TO_HIT_KEYS = {
    cn.Outcome.CRITICAL: "critical",
    cn.Outcome.SUCCESS: "hit",
    cn.Outcome.FAILURE: "miss",
    cn.Outcome.FUMBLE: "fumble",
}
TO_HIT_LABELS = {"critical": "Critical hit", "hit": "Hit", "miss": "Miss", "fumble": "Fumble"}
TARGET_LABELS = {state.value: label for state, label in rolls.STATE_LABELS.items()}


def _percent(p) -> str:
    return percent(p, 0)


def _tell_crews_apart(characters: list[dict]) -> list[dict]:
    """Two crews in the lists named alike (an imported file, a copy renamed): each of their characters' labels adds
    the crew's number, as My crews shows it beside a name shown twice ("Vox (Saints of Rust #12)"). Others' labels
    are left as they are."""
    crews: dict[tuple, set] = {}
    for c in characters:
        crews.setdefault((c["label"][len(c["name"]) :].strip().casefold(), c["own"]), set()).add(c["crew_id"])
    for c in characters:
        # the label is "<character> (<crew>)", or "<character> (<crew>, shared)"
        name, rest = c["label"][: len(c["name"])], c["label"][len(c["name"]) :]
        if len(crews[(rest.strip().casefold(), c["own"])]) < 2 or not rest.endswith(")"):
            continue
        end = ", shared)" if rest.endswith(", shared)") else ")"
        c["label"] = f"{name}{rest[: -len(end)]} #{c['crew_id']}{end}"
    return characters


def _attack_context(request: HttpRequest) -> dict:
    params = request.GET
    search = params.get("crews_q", "").strip()[:100]
    characters = dice_service.visible_characters(
        request.user,
        request.session.get("seen_shares", []),
        search,
        (params.get("attacker", ""), params.get("target", "")),
    )
    _tell_crews_apart(characters)
    npc_list = dice_service.npcs()
    attacker = dice_service.attacker_side(params, characters)
    target = dice_service.target_side(params, characters, npc_list)
    inputs, errors = dice_service.build_inputs(params, attacker, target)
    context = {
        "characters": characters,
        "npcs": npc_list,
        "attacker": attacker,
        "target": target,
        "params": params,
        "complications": dice_service.COMPLICATION_CHOICES,
        "crews_q": search,
        "dice_crews": dice_service.DICE_CREWS,
        "fate_cards": FATE_CARDS,
        "chosen_complications": params.getlist("complication"),
        "errors": errors,
        "pickers": _pickers(attacker, target),
        "show_all_weapons": params.get("all_weapons") == "1",
        "attacker_fields": _stat_fields(attacker, ATTACKER_FIELDS),
        "target_fields": _stat_fields(target, TARGET_FIELDS),
        "light_ticks": _light_ticks(params, inputs),
    }
    if inputs:
        if target.typed:
            target.label = dice_service.typed_target_label(inputs.target)
        if inputs.weapon_entry.get("not_carried"):
            context["show_all_weapons"] = True
        answer = cn.attack_odds_for_plan(inputs.plan)
        context.update(
            inputs=inputs,
            to_hit=_bars({TO_HIT_KEYS[o]: p for o, p in answer.to_hit.items()}, TO_HIT_LABELS),
            outcome=_bars({s.value: p for s, p in answer.target.items()}, TARGET_LABELS),
            expected_wounds=f"{float(answer.expected_wounds):.2f}",
            compare=_compare(inputs, attacker),
            by_wounds=_by_wounds(inputs),
            share_query=_share_query(params, attacker, target, inputs),
        )
    return context


def _light_ticks(params, inputs) -> dict:
    """The ticks for light near the shot: offered for a Shoot in (partial) darkness, else kept hidden."""
    dark = set(params.getlist("complication")) & set(cn.RANGED_PENALTY)
    return {
        "shown": bool(dark) and (inputs is None or inputs.action == "shoot"),
        "after": [name for name in cn.COMPLICATIONS if name in cn.RANGED_PENALTY][-1],  # under the last darkness
        "ticks": [(name, label, dice_service.flag(params, name)) for name, label in cn.LIGHT_TICKS.items()],
    }


ATTACKER_FIELDS = (
    ("a_agility", "Agility", -9, 9),
    ("a_discipline", "Discipline", -9, 9),
    ("a_strength", "Strength", -9, 9),
)
TARGET_FIELDS = (("t_toughness", "Toughness", -9, 9), ("t_strength", "Strength", -9, 9), ("t_armor", "Armor", 0, 9))


def _stat_fields(side, fields) -> list[dict]:
    """A side's number fields, filled from its character; a changed one keeps the character's own value to show."""
    out = []
    for name, label, low, high in fields:
        value = side.stats.get(name, "")
        own = side.overrides.get(name)
        out.append(
            {
                "name": name,
                "label": label,
                "value": 0 if value in ("", None) else value,
                "min": low,
                "max": high,
                "changed": own is not None,
                "own": own,
            }
        )
    return out


def _pickers(attacker, target) -> list[dict]:
    """The trait, body-mod and gear pickers of both sides: names to tick, the side's own ticked."""
    options = dice_service.picker_options()
    out = []
    for side, field_name, label, kind in (
        (attacker, "a_traits", "Traits", "traits"),
        (attacker, "a_body_mods", "Body-mods", "body_mods"),
        (attacker, "a_gear", "Gear", "gear"),
        (target, "t_traits", "Traits", "traits"),
        (target, "t_body_mods", "Body-mods", "body_mods"),
        (target, "t_gear", "Gear", "gear"),
    ):
        chosen = {cn.slug(p) for p in str(side.stats.get(field_name, "")).split(",") if p.strip()}
        known = {o["slug"] for o in options[kind]}
        own = side.overrides.get(field_name)
        out.append(
            {
                "side": "attacker" if side is attacker else "target",
                "name": field_name,
                "label": label,
                "options": [{**o, "checked": o["slug"] in chosen} for o in options[kind]],
                "chosen": [o["name"] for o in options[kind] if o["slug"] in chosen],
                "unknown": sorted(chosen - known),
                "changed": own is not None,
                "own": [o["name"] for o in options[kind] if o["slug"] in str(own or "").split(",")],
            }
        )
    return out


def _compare(inputs: dice_service.AttackInputs, attacker) -> list[dict]:
    """Each weapon of the attacker against this target (its own action: Fight or Shoot)."""
    rows = []
    for entry in attacker.weapons:
        try:
            weapon = dice_service.engine_weapon(entry)
        except ValueError:
            continue  # a house-rule weapon with a keyword the engine does not know: not compared
        action = dice_service.action_for(weapon, None)
        answer = cn.attack_odds_for_plan(
            dice_service.plan(action, inputs.attacker, weapon, inputs.target, inputs.situation, inputs.complications)
        )
        hit = answer.to_hit[cn.Outcome.CRITICAL] + answer.to_hit[cn.Outcome.SUCCESS]
        rows.append(
            {
                "name": entry["name"],
                "action": action,
                "hit": _percent(hit),
                **{s.value: _percent(p) for s, p in answer.target.items()},
                "selected": entry is inputs.weapon_entry,
            }
        )
    return rows


def _by_wounds(inputs: dice_service.AttackInputs) -> list[dict]:
    rows = []
    for wounds in range(0, cn.MAX_WOUNDS + 1):
        answer = cn.attack_odds_for_plan(dice_service.with_target_wounds(inputs, wounds))
        rows.append({"wounds": wounds, **{s.value: _percent(p) for s, p in answer.target.items()}})
    return rows


def _share_query(params, attacker, target, inputs) -> str:
    """The set-up as typed stats, so a shared link reveals no private crew and needs no login."""
    query = QueryDict(mutable=True)
    query.update({k: str(v) for k, v in {**attacker.stats, **target.stats}.items()})
    query["attacker"], query["target"] = "typed", "typed"
    query["weapon"] = inputs.weapon_entry["slug"]
    query["action"] = inputs.action
    for key in (
        "t_wounds",
        "t_prone",
        "t_queen",
        "card",
        "cover",
        "long_range",
        "surrounded",
        "modifier",
        "over_half_range",
        "auto",
        *cn.LIGHT_TICKS,
    ):
        if params.get(key):
            query[key] = params[key]
    query.setlist("complication", params.getlist("complication"))
    return query.urlencode()


def _with_new_seed(url_name: str, request: HttpRequest, *args) -> HttpResponse:
    query = request.GET.copy()
    query.pop("roll", None)
    query["seed"] = str(dice_service.new_seed())
    return redirect(f"{reverse(url_name, args=args)}?{query.urlencode()}")


@require_GET
def dice_home(request: HttpRequest) -> HttpResponse:
    context = _attack_context(request)
    context["log"] = request.session.get("dice_log", [])
    template = "dice/home.html#attack" if request.htmx else "dice/home.html"
    return vary_on_htmx(render(request, template, context, status=422 if context["errors"] else 200))


@require_GET
def attack_roll(request: HttpRequest) -> HttpResponse:
    if "seed" not in request.GET:
        return _with_new_seed("dice-attack-roll", request)
    errors: list[str] = []
    seed = dice_service.number(request.GET, "seed", "Seed", 0, 0, dice_service.SEED_LIMIT, errors)
    context = _attack_context(request)
    inputs = context.get("inputs")
    if inputs is None or errors:
        query = request.GET.copy()
        query.pop("seed", None)
        return redirect(f"{reverse('dice-home')}?{query.urlencode()}")
    roll = rolls.planned_attack(random.Random(seed), inputs.plan, seed)
    context.update(
        roll=roll, outcome_label=roll.summary, seed=seed, seed_text=str(seed), follow_ups=_follow_ups(inputs, roll)
    )
    _remember(
        request,
        f"{inputs.weapon_entry['name']} vs {context['target'].label}: {roll.summary}",
        f"{reverse('dice-attack-roll')}?{context['share_query']}&seed={seed}",
    )
    return render(request, "dice/attack_roll.html", context)


@require_POST
def short_link(request: HttpRequest) -> HttpResponse:
    """Store the roll on this page and go to its short link."""
    form = dice_links.ShortLinkForm(request.POST)
    if not form.is_valid():
        return render(request, "dice/short_link_refused.html", {"form": form}, status=422)
    stored = dice_links.store(form.cleaned_data["link"])
    return redirect("dice-stored-roll", token=stored.token)


@require_GET
def stored_roll(request: HttpRequest, token: str) -> HttpResponse:
    """The stored roll, shown at its short link (the same dice for everyone)."""
    stored = get_object_or_404(StoredRoll, token=token[:16])
    path, _, query = stored.link.partition("?")
    match = resolve(path)
    request.GET = QueryDict(query)
    request.short_link = request.build_absolute_uri(reverse("dice-stored-roll", args=[stored.token]))
    return match.func(request, *match.args, **match.kwargs)


def _follow_ups(inputs: dice_service.AttackInputs, roll: rolls.Roll) -> list[dict]:
    """Every roll the rules call for after this one, as a link to that quick roll (with its rule's text)."""
    found = after_attack(
        inputs.action,
        inputs.weapon,
        list(inputs.weapon_entry.get("keywords") or []),
        inputs.plan,
        cn.Outcome(roll.get("to_hit")),
        roll.get("wounds_after", 0),
        roll.outcome == cn.TargetState.OUT_OF_ACTION.value,
        roll.get("stagger_rolled", False),
    )
    texts = dice_service.keyword_texts([f.keyword for f in found if f.keyword])
    out = []
    for f in found:
        query = QueryDict(mutable=True)
        for name, value in f.values:
            if value is True:
                query[name] = "1"
            elif value is not False and value not in (None, ""):
                query[name] = str(value)
        out.append(
            {
                "key": f.key,
                "name": f.name,
                "asks": f.asks,
                "rule": texts.get(f.keyword, ""),
                "url": f"{reverse('dice-quick', args=[f.roll])}?{query.urlencode()}",
            }
        )
    return out


def _remember(request, text: str, url: str) -> None:
    log = request.session.get("dice_log", [])
    log.insert(0, {"text": text, "url": url})
    request.session["dice_log"] = log[:LOG_SIZE]


# --------------------------------------------------------------------------
# quick rolls
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class Field:
    name: str
    label: str
    default: int | str = 0
    low: int = -20
    high: int = 20
    kind: str = "number"  # "number", "check", "text", "choice" or "names" (a picker of trait names)
    choices: tuple = ()  # for "choice": (value, label) pairs


# The fate cards an Attribute Test can take (rules, Fate Cards): the engine's names; a numbered card's sign
# is the player's choice, so each is offered both ways.
FATE_CARDS = (
    ("", "No fate card"),
    ("ace", "Ace: passes without rolling"),
    *((f"{n:+d}", f"Numbered card {n:+d}") for sign in (1, -1) for n in (sign * v for v in range(2, 11))),
    ("jack-critical", "Jack: a regular success becomes a Critical"),
    ("jack-fumble", "Jack: a regular failure becomes a Fumble"),
)

QUICK = {
    "test": (
        "Attribute test",
        (
            Field("modifier", "Attribute + modifiers"),
            Field("jinxed", "Jinxed (critical on 19-20, fumble on 1-2)", kind="check"),
            Field("card", "Fate card", "", kind="choice", choices=FATE_CARDS),
        ),
    ),
    "damage": (
        "Damage roll",
        (
            Field("dice", "Damage dice (every bonus die included)", 2, 0, 40),
            Field("armor", "Armor", 0, 0, 50),
            Field("wounds", "Wounds", 0, 0, cn.MAX_WOUNDS),
            Field("keywords", "Keywords", "", kind="text"),
            Field("shield", "Shield (re-roll 6s)", kind="check"),
        ),
    ),
    "neural-overload": ("Neural Overload", (Field("dread", "Dread", 0, 0, cn.MAX_DREAD),)),
    "morale": (
        "Morale Phase",
        (
            Field("discipline", "Discipline"),
            Field("dread", "Dread", 1, 0, cn.MAX_DREAD),
            Field("wounds", "Wounds", 0, 0, cn.MAX_WOUNDS),
            Field("allies_in_los", "Allies in LoS", 0, 0, 50),
            Field("traits", "Traits", "", kind="names"),
        ),
    ),
    "panic": (
        "Soylent Ghoul panic",
        (Field("nerve", "Nerve", 6), Field("tokens", "Panic tokens already on it", 0, 0, 20)),
    ),
    "ghoul-dice": ("Ghoul dice", (Field("dice", "Dice (3, or 2 on Stalker/Hunter)", 3, 2, 3),)),
    "ghoul-battle": (
        "Ghoulash: Ghoul battle",
        (
            Field("strength", "Ghoul strength", 5, 0, 30),
            Field("vp", "Victory Points on the token", 2, 0, 30),
            Field("icv", "Initial Combat Value", 1, -20, 30),
        ),
    ),
}
CARD_FIELDS = (("played", "Value cards played"), ("challenge", "Challenge (up to two cards)"), ("response", "Response"))
PLACEHOLDERS = {"keywords": "Overkill, Piercing 2, Energy, Electric", "traits": "Jinxed, Demonic (names)"}


def _words(text: str) -> list[str]:
    return [part.strip() for part in (text or "").split(",") if part.strip()]


def _cards(text: str, label: str, errors: list) -> tuple:
    parts = (text or "").replace(",", " ").split()
    if not all(part.isdigit() for part in parts):
        errors.append(f"{label}: card values are whole numbers separated by spaces (got “{text}”).")
        return ()
    return tuple(int(part) for part in parts)


def _values(kind: str, params, errors: list) -> dict:
    values = {}
    for f in QUICK[kind][1]:
        if f.kind == "number":
            values[f.name] = dice_service.number(params, f.name, f.label, f.default, f.low, f.high, errors)
        elif f.kind == "check":
            values[f.name] = params.get(f.name) in ("1", "on", "true")
        elif f.kind == "names":
            values[f.name] = dice_service.multi(params, f.name)
        elif f.kind == "choice":
            value = params.get(f.name, f.default)
            if value not in dict(f.choices):
                errors.append(f"{f.label}: choose one from the list (got “{value}”).")
                value = f.default
            values[f.name] = value
        else:
            values[f.name] = params.get(f.name, f.default)
    return values


def _card(value: str):
    """A FATE_CARDS value -> the engine's card ("ace", "jack-…", or a signed int)."""
    return int(value) if value[:1] in "+-" else value


def _odds_request(kind: str, v: dict) -> dict:
    if kind == "test":
        request = {"roll": "test", "modifier": v["modifier"], "jinxed": v["jinxed"]}
        if v["card"]:
            request["card"] = _card(v["card"])
        return request
    if kind == "damage":
        return {
            "roll": "damage",
            "dice": v["dice"],
            "keywords": _words(v["keywords"]),
            "armor": v["armor"],
            "wounds": v["wounds"],
            "shield": v["shield"],
        }
    if kind == "neural-overload":
        return {"roll": "neural-overload", "dread": v["dread"]}
    if kind == "morale":
        return {
            "roll": "morale",
            "discipline": v["discipline"],
            "dread": v["dread"],
            "wounds": v["wounds"],
            "allies_in_los": v["allies_in_los"],
            "traits": [cn.slug(t) for t in _words(v["traits"])],
        }
    if kind == "panic":
        return {"roll": "panic", "nerve": v["nerve"], "tokens": v["tokens"]}
    return {"roll": "ghoul-dice", "dice": v["dice"]}


def _odds_groups(kind: str, exact: dict) -> dict:
    """The answer's exact fractions, grouped as the page shows them."""
    if kind == "test":
        return {"Result": exact}
    if kind == "damage":
        return {"Damage table row (before Tough it Out)": exact}
    if kind == "neural-overload":
        return {"Highest row reached": {f"{row}+": p for row, p in exact.items()}}
    if kind == "morale":
        npc = Fraction(exact["becomes_npc"])
        return {
            "Dread left": {k: v for k, v in exact.items() if k.isdigit()},
            "Flee moves": exact["flees"],
            "Becomes an NPC": {"yes": npc, "no": 1 - npc},
        }
    if kind == "panic":
        return {"Panic test": exact}
    return {
        "Terror card": exact["terror"],
        "Movement (best pair)": exact["max_movement"]["movement"],
        "Attack (best pair)": exact["max_movement"]["attack"],
    }


def _roll(kind: str, v: dict, seed: int) -> rolls.Roll:
    rng = random.Random(seed)
    if kind == "test":
        return rolls.test(rng, v["modifier"], v["jinxed"], seed=seed, card=_card(v["card"]) if v["card"] else None)
    if kind == "damage":
        return rolls.damage(
            rng, v["dice"], cn.Keywords.parse(_words(v["keywords"])), v["armor"], v["wounds"], v["shield"], seed=seed
        )
    if kind == "neural-overload":
        return rolls.neural_overload(rng, v["dread"], seed=seed)
    if kind == "morale":
        return rolls.morale(
            rng,
            v["discipline"],
            v["dread"],
            v["wounds"],
            v["allies_in_los"],
            frozenset(cn.slug(t) for t in _words(v["traits"])),
            seed=seed,
        )
    if kind == "panic":
        return rolls.panic(rng, v["nerve"], v["tokens"], seed=seed)
    return rolls.ghoul_dice(rng, v["dice"], seed=seed)


def _name_options(value: str) -> list[dict]:
    """The Morale Phase's traits by name, ticked as in ``value`` (names or slugs, comma-separated)."""
    chosen = {cn.slug(p) for p in (value or "").split(",") if p.strip()}
    return [
        {**o, "checked": o["slug"] in chosen}
        for o in dice_service.picker_options(kinds=("traits",))["traits"]
        if o["slug"] in dice_service.MORALE_TRAITS
    ]


def _field_message(message: str, fields) -> str:
    """The engine's "request.keywords: ..." -> "Keywords: ..." (the label on the form)."""
    for f in fields:
        prefix = f"request.{f.name}"
        if message.startswith(prefix):
            return f.label + message[len(prefix) :]
    return message


def _quick_query(kind: str, values: dict, cards: dict, seed: int | None) -> str:
    """The roll as typed values (a picked character's numbers included), shareable without a login."""
    query = QueryDict(mutable=True)
    for f in QUICK[kind][1]:
        value = values[f.name]
        if f.kind == "check":
            if value:
                query[f.name] = "1"
        elif value not in ("", None):
            query[f.name] = str(value)
    for name, value in cards.items():
        if value:
            query[name] = value
    if seed is not None:
        query["seed"] = str(seed)
    return query.urlencode()


@require_GET
def quick_roll(request: HttpRequest, kind: str) -> HttpResponse:
    if kind not in QUICK:
        return redirect("dice-home")
    if "roll" in request.GET and "seed" not in request.GET and kind != "ghoul-battle":
        return _with_new_seed("dice-quick", request, kind)
    title, fields = QUICK[kind]
    params = request.GET
    errors: list[str] = []
    values = _values(kind, params, errors)
    character, characters = None, []
    if kind == "morale":
        visible = dice_service.visible_characters(request.user, picked=(params.get("character", ""),))
        characters = _tell_crews_apart([c for c in visible if c["own"]])
        character = dice_service.morale_character(params, characters)
        if character:
            values.update(discipline=character["discipline"], traits=character["traits"])
    seed = None
    if params.get("seed") and kind != "ghoul-battle":
        seed = dice_service.number(params, "seed", "Seed", 0, 0, dice_service.SEED_LIMIT, errors)
    cards = {name: params.get(name, "") for name, _label in CARD_FIELDS} if kind == "ghoul-battle" else {}
    odds_groups, roll = {}, None
    if not errors and kind == "ghoul-battle":
        if any(name in params for name in cards):
            played = {name: _cards(text, label, errors) for (name, label), text in zip(CARD_FIELDS, cards.values())}
            if not errors:
                roll = rolls.ghoul_battle(
                    values["strength"],
                    values["vp"],
                    values["icv"],
                    played["played"],
                    played["challenge"],
                    played["response"],
                )
    elif not errors:
        try:
            answer = odds(_odds_request(kind, values))
        except OddsRequestError as exc:
            errors.append(_field_message(str(exc), fields))
        else:
            odds_groups = {name: _bars(dist) for name, dist in _odds_groups(kind, answer["exact"]).items()}
            if seed is not None:
                roll = _roll(kind, values, seed)
    share_query = _quick_query(kind, values, cards, seed)
    if roll is not None:
        _remember(request, f"{title}: {roll.summary}", f"{reverse('dice-quick', args=[kind])}?{share_query}")
    context = {
        "kind": kind,
        "title": title,
        "errors": errors,
        "odds": odds_groups,
        "roll": roll,
        "seed": seed,
        "fields": [
            {
                "field": f,
                "value": values[f.name],
                "placeholder": PLACEHOLDERS.get(f.name, ""),
                "options": _name_options(values[f.name]) if f.kind == "names" else [],
            }
            for f in fields
        ],
        "card_fields": [(n, label, cards[n]) for n, label in CARD_FIELDS] if kind == "ghoul-battle" else [],
        "characters": characters,
        "character": character,
        "params": params,
        "share_query": share_query,
    }
    template = "dice/quick.html#quick" if request.htmx else "dice/quick.html"
    return vary_on_htmx(render(request, template, context, status=422 if errors else 200))
