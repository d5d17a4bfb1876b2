"""The dice assistant: exact odds as you set up an attack, then seeded rolls.

Everything is a GET with the set-up in the query string, so any page (and any
roll, with its seed) can be shared by link and shows the same dice to all.
"""

from __future__ import annotations

from urllib.parse import urlencode

from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET

from crewbuilder import dice_service
from crewbuilder.rules import exact, ghoul_role, rolling, soylent
from crewbuilder.rules.odds_requests import format_answer

LOG_SIZE = 20


def _vary(response):
    response["Vary"] = "HX-Request"
    return response


def _bars(dist: dict, labels: dict) -> list[dict]:
    return [{"key": k, "label": labels.get(k, k), "p": float(v), "pct": f"{100 * float(v):.1f}", "exact": str(v)}
            for k, v in dist.items()]


TO_HIT_LABELS = {"critical": "Critical hit", "hit": "Hit", "miss": "Miss", "fumble": "Fumble"}
TARGET_LABELS = {"unharmed": "Unharmed", "wounded": "Wounded", "prone": "Knocked prone", "out_of_action": "Out of Action"}


def _attack_context(request: HttpRequest) -> dict:
    params = request.GET
    characters = dice_service.visible_characters(request.user, request.session.get("seen_shares", []))
    npc_list = dice_service.npcs()
    attacker = dice_service.attacker_side(params, characters)
    target = dice_service.target_side(params, characters, npc_list)
    inputs = dice_service.build_inputs(params, attacker, target)
    context = {"characters": characters, "npcs": npc_list, "attacker": attacker, "target": target,
               "params": params, "complications": dice_service.COMPLICATION_CHOICES,
               "chosen_complications": params.getlist("complication")}
    if inputs:
        answer = exact.attack_odds(inputs["action"], inputs["attacker"], inputs["weapon"], inputs["target"], inputs["situation"])
        context.update(
            inputs=inputs,
            to_hit=_bars(answer["to_hit"], TO_HIT_LABELS),
            outcome=_bars(answer["target"], TARGET_LABELS),
            expected_wounds=f"{float(answer['expected_wounds']):.2f}",
            compare=_compare(inputs, attacker),
            by_wounds=_by_wounds(inputs),
            share_query=_share_query(params, attacker, target, inputs),
        )
    return context


def _compare(inputs, attacker) -> list[dict]:
    rows = []
    for entry in attacker.weapons:
        weapon = exact.Weapon(int(entry["damage"]), entry.get("range"), exact.Keywords.parse(entry.get("keywords")))
        action = "fight" if weapon.range is None else "shoot"
        answer = exact.attack_odds(action, inputs["attacker"], weapon, inputs["target"], inputs["situation"])
        hit = answer["to_hit"]["critical"] + answer["to_hit"]["hit"]
        rows.append({"name": entry["name"], "action": action, "hit": f"{100 * float(hit):.0f}",
                     **{k: f"{100 * float(v):.0f}" for k, v in answer["target"].items()},
                     "selected": entry is inputs["weapon_entry"]})
    return rows


def _by_wounds(inputs) -> list[dict]:
    rows = []
    for wounds in range(0, 7):
        t = inputs["target"]
        target = exact.Target(t.toughness, t.strength, t.armor, wounds, t.prone, t.traits, t.body_mods, t.gear)
        answer = exact.attack_odds(inputs["action"], inputs["attacker"], inputs["weapon"], target, inputs["situation"])
        rows.append({"wounds": wounds, **{k: f"{100 * float(v):.0f}" for k, v in answer["target"].items()}})
    return rows


def _share_query(params, attacker, target, inputs) -> str:
    """The set-up as typed stats, so a shared link reveals no private crew and needs no login."""
    query = QueryDict(mutable=True)
    query.update({k: str(v) for k, v in {**attacker.stats, **target.stats}.items()})
    query["attacker"], query["target"] = "typed", "typed"
    query["weapon"] = inputs["weapon_entry"]["slug"]
    query["action"] = inputs["action"]
    for key in ("t_wounds", "t_prone", "cover", "long_range", "surrounded", "modifier", "over_half_range", "auto"):
        if params.get(key):
            query[key] = params[key]
    query.setlist("complication", params.getlist("complication"))
    return query.urlencode()


@require_GET
def dice_home(request: HttpRequest) -> HttpResponse:
    context = _attack_context(request)
    context["log"] = request.session.get("dice_log", [])
    template = "dice/home.html#odds" if request.htmx else "dice/home.html"
    return _vary(render(request, template, context))


@require_GET
def attack_roll(request: HttpRequest) -> HttpResponse:
    if "seed" not in request.GET:
        query = request.GET.copy()
        query["seed"] = str(dice_service.new_seed())
        return redirect(f"{reverse('dice-attack-roll')}?{query.urlencode()}")
    context = _attack_context(request)
    inputs = context.get("inputs")
    if inputs is None:
        return redirect("dice-home")
    seed = dice_service._int(request.GET, "seed", 0, 0, 2**31)
    log = rolling.roll_attack(seed, inputs["action"], inputs["attacker"], inputs["weapon"], inputs["target"], inputs["situation"])
    context.update(roll=log, outcome_label=TARGET_LABELS[log.outcome], seed=seed)
    _remember(request, f"{inputs['weapon_entry']['name']} vs {context['target'].label}: {TARGET_LABELS[log.outcome]}",
              f"{reverse('dice-attack-roll')}?{request.GET.urlencode()}")
    return render(request, "dice/attack_roll.html", context)


def _remember(request, text: str, url: str) -> None:
    log = request.session.get("dice_log", [])
    log.insert(0, {"text": text, "url": url})
    request.session["dice_log"] = log[:LOG_SIZE]


QUICK = {
    "test": ("Attribute test", [("modifier", "Attribute + modifiers", 0), ("jinxed", "Jinxed (0/1)", 0)]),
    "damage": ("Damage roll", [("dice", "Damage dice", 2), ("armor", "Armor", 0), ("wounds", "Wounds", 0)]),
    "neural-overload": ("Neural Overload", [("dread", "Dread", 0)]),
    "morale": ("Morale Phase", [("discipline", "Discipline", 0), ("dread", "Dread", 1), ("wounds", "Wounds", 0), ("allies_in_los", "Allies in LoS", 0)]),
    "panic": ("Soylent Ghoul panic", [("nerve", "Nerve", 6), ("tokens", "Panic tokens already on it", 0)]),
    "ghoul-dice": ("Ghoul dice", [("dice", "Dice (3, or 2 on Stalker/Hunter)", 3)]),
    "ghoul-battle": ("Ghoulash: Ghoul battle", [("strength", "Ghoul strength", 5), ("vp", "Victory Points on the token", 2),
                                                ("icv", "Initial Combat Value", 1)]),
}
CARD_FIELDS = (("played", "Value cards played"), ("challenge", "Challenge (up to two cards)"), ("response", "Response"))


def _cards(text: str) -> tuple:
    return tuple(int(part) for part in text.replace(",", " ").split() if part.strip().isdigit())


@require_GET
def quick_roll(request: HttpRequest, kind: str) -> HttpResponse:
    if kind not in QUICK:
        return redirect("dice-home")
    title, fields = QUICK[kind]
    values = {name: dice_service._int(request.GET, name, default, -20, 30) for name, _label, default in fields}
    keywords = [k.strip() for k in request.GET.get("keywords", "").split(",") if k.strip()]
    cards = {name: request.GET.get(name, "") for name, _label in CARD_FIELDS}
    if kind == "ghoul-battle":
        odds_groups, log = {}, _battle(values, cards)
    else:
        odds_groups, log = _quick(kind, values, keywords, request.GET.get("seed"))
    if log is not None:
        _remember(request, f"{title}: {log.outcome}", request.get_full_path())
    context = {"kind": kind, "title": title, "fields": [(n, l, values[n]) for n, l, _d in fields],
               "card_fields": [(n, l, cards[n]) for n, l in CARD_FIELDS] if kind == "ghoul-battle" else [],
               "keywords": ",".join(keywords), "odds": odds_groups, "roll": log, "seed": request.GET.get("seed")}
    return _vary(render(request, "dice/quick.html#quick" if request.htmx else "dice/quick.html", context))


def _quick(kind, v, keywords, seed):
    seed_value = int(seed) if seed and seed.isdigit() else None
    log = None
    if kind == "test":
        groups = {"Result": exact.test_distribution(v["modifier"], bool(v["jinxed"]))}
        if seed_value is not None:
            log = rolling.roll_test(seed_value, v["modifier"], bool(v["jinxed"]))
    elif kind == "damage":
        kw = exact.Keywords.parse(keywords)
        groups = {"Damage table row": exact.damage_row_distribution(
            max(v["dice"], 0), max(v["armor"], 0), min(max(v["wounds"], 0), 6), kw.has("overkill"),
            kw.x("piercing", 0), kw.has("electric"), kw.has("energy"))}
        if seed_value is not None:
            log = rolling.roll_damage(seed_value, max(v["dice"], 0), max(v["armor"], 0), min(max(v["wounds"], 0), 6), keywords)
    elif kind == "neural-overload":
        dread = min(max(v["dread"], 0), 6)
        groups = {"Highest row reached": exact.neural_overload_distribution(dread)}
        if seed_value is not None:
            log = rolling.roll_neural_overload(seed_value, dread)
    elif kind == "morale":
        dread = min(max(v["dread"], 0), 6)
        left, flees, npc = exact.morale_distribution(v["discipline"], dread, min(max(v["wounds"], 0), 6), max(v["allies_in_los"], 0))
        groups = {"Dread left": left, "Flee moves": flees, "Becomes an NPC": {"yes": npc, "no": 1 - npc}}
        if seed_value is not None:
            log = rolling.roll_morale(seed_value, v["discipline"], dread, min(max(v["wounds"], 0), 6), max(v["allies_in_los"], 0))
    elif kind == "panic":
        groups = {"Panic test": soylent.panic_distribution(v["nerve"], max(v["tokens"], 0))}
        if seed_value is not None:
            import random

            roll = soylent.roll_panic(random.Random(seed_value), v["nerve"], max(v["tokens"], 0))
            step = rolling.Step("Panic: D8 + tokens", (roll.die,), (roll.die,), (), (),
                                f"{roll.die} + {roll.tokens_before} = {roll.die + roll.tokens_before} vs Nerve {roll.nerve}")
            log = rolling.RollLog(seed_value, "panic", (step,), "snapped" if roll.snapped else "holds")
    else:
        dice = 2 if v["dice"] == 2 else 3
        answer = ghoul_role.ghoul_dice_odds(dice)
        groups = {"Terror card": answer["terror"], "Movement (best pair)": answer["max_movement"]["movement"],
                  "Attack (best pair)": answer["max_movement"]["attack"]}
        if seed_value is not None:
            import random

            roll = ghoul_role.roll_ghoul_dice(random.Random(seed_value), dice, seed_value)
            movement, attack = ghoul_role.choose(roll.dice, "movement")
            step = rolling.Step("Ghoul dice", roll.dice, (movement, attack), (), (),
                                f"sum {sum(roll.dice)}: {'Terror card!' if roll.terror else 'no Terror card'}; movement {movement}, attack {attack}")
            log = rolling.RollLog(seed_value, "ghoul-dice", (step,), "terror" if roll.terror else "no terror")
    bars = {name: _bars(dist, {}) for name, dist in groups.items()}
    return bars, log


def _battle(values, cards):
    from crewbuilder.rules import ghoulash

    try:
        result = ghoulash.ghoul_battle(values["strength"], values["vp"], values["icv"], _cards(cards["played"]),
                                       _cards(cards["challenge"]), _cards(cards["response"]))
    except ghoulash.IllegalPlay as exc:
        return rolling.RollLog(0, "ghoul-battle", (rolling.Step("Not a legal battle", result=str(exc)),), "illegal")
    steps = [rolling.Step("Needed", result=f"strength {values['strength']} + 1 = {result.needed}"),
             rolling.Step("Player", result=f"Initial Combat Value {values['icv']} + cards = {result.total_before_challenge}")]
    if result.stage != "no-value" and cards["challenge"].strip():
        steps.append(rolling.Step("After the challenge and response", result=f"total {result.total}"))
    outcome = (f"won: {result.victory_points} Victory Points" if result.won else f"lost: {result.wounds} wounds")
    return rolling.RollLog(0, "ghoul-battle", tuple(steps), outcome)
