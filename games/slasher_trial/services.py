"""The Slasher trial's operations: one transactional function per change.

Each change locks the trial row, rebuilds the engine's ``Trial`` from the rows,
calls the engine (rules/slasher_trial.py, which owns every rule), writes
the new state back and appends a public LogEntry, all in one transaction; so two
actions at the same moment cannot both spend the same Energy. Randomness (the
Generators, Cage, the winner's draw) uses ``random.Random(seed)`` with a seed
from ``secrets.randbits(32)`` stored in the log entry.
"""

from __future__ import annotations

import random
import secrets
from dataclasses import dataclass

from django.db import transaction

from core.games import kit
from core.games.sentences import as_sentence
from core.locking import run_locked
from crewbuilder.models import RulesEntry
from games.slasher_trial.errors import TrialError
from games.slasher_trial.models import Generator, LogEntry, Participant, Trial
from games.slasher_trial.permissions import check_is_monster, check_user_is_participant
from rules import slasher_trial as sl

SYSTEM = "slasher-trial"
SECTIONS = ("grid", "defaults", "advance", "survivor_actions", "monster_actions")
SURVIVOR_ACTIONS = ("move", "repair", "heal", "rescue")
MONSTER_ACTIONS = ("move", "hit", "cage")
# Escaping is a house reading (the text defines no way out): free, needs the Repaired Generators.
ESCAPE_COST = 0


LABEL = Trial._meta.label_lower  # the key of the trial's version in the cache (the polls')


def current_version(pk: int) -> int | None:
    """The trial's version from the database (the polls' fallback when the cache has none)."""
    return Trial.objects.filter(pk=pk).values_list("version", flat=True).first()


# ---------------------------------------------------------------------------
# Reading the rules data and the rows
# ---------------------------------------------------------------------------


def rules_sections() -> dict[str, list[dict]]:
    """The catalogue sections of the last loaded edition (house rules included), one query."""
    rows = list(
        RulesEntry.objects.filter(system__slug=SYSTEM, part__in=SECTIONS).order_by(
            "-system_id", "house_rule", "position", "id"
        )
    )
    if not rows:
        return {}
    latest = rows[0].system_id
    sections: dict[str, list[dict]] = {}
    for row in rows:
        if row.system_id == latest:
            sections.setdefault(row.part, []).append(row.to_entry())
    return sections


def numbers(sections: dict | None = None) -> sl.Numbers:
    return sl.numbers_from_entries(rules_sections() if sections is None else sections)


def engine_trial(
    trial: Trial, participants: list[Participant], generators: list[Generator], rules: sl.Numbers
) -> sl.Trial:
    """The engine's state, rebuilt from the rows."""
    monster = next(p for p in participants if p.is_monster)
    survivors = tuple(
        sl.Survivor(
            name=p.user.username,
            energy=p.energy,
            location=p.location or None,
            health=p.health,
            status=sl.Status(p.status) if p.status else None,
            points=p.points,
            readiness=sl.Readiness(p.readiness or sl.Readiness.UNREADY.value),
            participated=p.participated,
        )
        for p in participants
        if not p.is_monster
    )
    return sl.Trial(
        monster=sl.Monster(name=monster.user.username, energy=monster.energy, location=monster.location or None),
        survivors=survivors,
        generators=tuple(sl.Generator(g.square, g.progress) for g in generators) if trial.generators_placed else None,
        hit_since_advance=frozenset(trial.hit_since_advance),
        advancing=trial.advancing,
        diagonals=trial.diagonals,
        numbers=rules,
    )


def _write_back(trial: Trial, participants: list[Participant], generators: list[Generator], new: sl.Trial) -> None:
    """Save the rows whose state the engine changed (and only those)."""
    changed = []
    by_name = {p.user.username: p for p in participants}
    monster = next(p for p in participants if p.is_monster)
    if (monster.energy, monster.location or None) != (new.monster.energy, new.monster.location):
        monster.energy, monster.location = new.monster.energy, new.monster.location or ""
        changed.append(monster)
    for s in new.survivors:
        p = by_name[s.name]
        values = {
            "energy": s.energy,
            "location": s.location or "",
            "health": s.health,
            "status": s.status.value if s.status else "",
            "points": s.points,
            "readiness": s.readiness.value,
            "participated": s.participated,
        }
        if any(getattr(p, k) != v for k, v in values.items()):
            for k, v in values.items():
                setattr(p, k, v)
            changed.append(p)
    if changed:
        Participant.objects.bulk_update(
            changed, ["energy", "location", "health", "status", "points", "readiness", "participated"]
        )
    if new.generators is not None and not trial.generators_placed:
        Generator.objects.bulk_create(
            [
                Generator(trial=trial, square=g.square, progress=g.progress, position=i)
                for i, g in enumerate(new.generators)
            ]
        )
        trial.generators_placed = True
    elif new.generators is not None:
        progress = {g.square: g.progress for g in new.generators}
        moved = [g for g in generators if g.progress != progress[g.square]]
        for g in moved:
            g.progress = progress[g.square]
        if moved:
            Generator.objects.bulk_update(moved, ["progress"])
    trial.advancing = new.advancing
    trial.hit_since_advance = sorted(new.hit_since_advance)


def _log(
    trial: Trial, actor, action: str, text: str, target: str = "", energy: int = 0, seed: int | None = None
) -> LogEntry:
    number = kit.next_event_number(trial.log.all())
    # the column lengths (a PostgreSQL database refuses longer values: a 500, not a message);
    # "ready" and "end" take no target, so a posted one is whatever the request sent
    return LogEntry.objects.create(
        trial=trial,
        number=number,
        actor=actor,
        action=action[:20],
        target=target[:150],
        text=text[:500],
        energy_spent=energy,
        seed=seed,
    )


def _locked(pk: int, work):
    """Run ``work(trial)`` in a transaction holding the trial row's lock (core.locking, which bumps its
    version); the new version is published to the polls once committed."""

    def locked(trial: Trial):
        result = work(trial)
        kit.bump_version(LABEL, trial.pk, trial.version)
        return result

    return run_locked(
        Trial, pk, locked, missing=TrialError("No such trial."), busy=TrialError("The trial is busy: try again.")
    )


# ---------------------------------------------------------------------------
# Creating and joining
# ---------------------------------------------------------------------------


def _survivor_defaults(sections: dict) -> dict:
    n = sl.numbers_from_entries(sections)
    defaults = {e["slug"]: e for e in sections.get("defaults", [])}
    status = sl.status_at_health(n.health, defaults.get("status", {}).get("default") or sl.Status.HEALTHY.value)
    return {
        "energy": int(defaults.get("energy", {}).get("number") or 0),
        "health": n.health,
        "status": getattr(status, "value", status),  # the catalogue's text, or Dead
        "points": int(defaults.get("points", {}).get("number") or 0),
        "readiness": defaults.get("readiness", {}).get("default") or sl.Readiness.UNREADY.value,
    }


def create_trial(user, name: str, diagonals: bool = True) -> Trial:
    """A new trial with ``user`` as its Monster; Survivors join by the trial's link."""
    name = (name or "").strip()[:100]
    if not name:
        raise TrialError("Give the trial a name.")
    defaults = _survivor_defaults(rules_sections())
    with transaction.atomic():
        trial = Trial.objects.create(name=name, monster=user, diagonals=diagonals)
        Participant.objects.create(
            trial=trial, user=user, role=Participant.MONSTER, position=0, energy=defaults["energy"]
        )
        _log(
            trial,
            user,
            "create",
            f"{user.username} opened the trial as the Monster "
            f"(adjacency {'includes' if diagonals else 'excludes'} diagonals).",
        )
    return trial


def join(trial: Trial, user) -> Participant:
    """A user joins as a Survivor, with the rules' defaults, until the Generators are placed."""
    defaults = _survivor_defaults(rules_sections())

    def work(t: Trial) -> Participant:
        if t.state != Trial.OPEN:
            raise TrialError("The trial has started: it takes no more Survivors.")
        existing = Participant.objects.filter(trial=t, user=user).first()
        if existing:
            raise TrialError(
                "You are already in this trial." if not existing.is_monster else "You are this trial's Monster."
            )
        position = Participant.objects.filter(trial=t).count()
        p = Participant.objects.create(trial=t, user=user, role=Participant.SURVIVOR, position=position, **defaults)
        _log(t, user, "join", f"{user.username} joined as a Survivor.")
        return p

    return _locked(trial.pk, work)


# ---------------------------------------------------------------------------
# Acting
# ---------------------------------------------------------------------------


@dataclass
class Outcome:
    entry: LogEntry
    finished: LogEntry | None = None


def act(trial: Trial, user, action: str, target: str = "", times: int = 1) -> Outcome:
    """One action by ``user`` for themselves (never for someone else); ``times`` > 1 repeats a Repair
    (``repeat``), each one checked and logged.

    Actions: ``location`` (set a blank Location), ``ready``, ``escape``; the
    Survivor Actions ``move`` ``repair`` ``heal`` ``rescue``; the Monster's
    ``generators`` (place them, which starts the trial), ``advance`` (steps 1-2),
    ``move`` ``hit`` ``cage`` inside the Advance and ``end`` (steps 4-6).
    """
    action = (action or "").strip().lower()
    target = (target or "").strip()

    def work(t: Trial) -> Outcome:
        participants = list(t.participants.select_related("user"))
        me = check_user_is_participant(user, participants)
        if t.state == Trial.OVER:
            raise TrialError("The trial is over.")
        generators = list(t.generators.all())
        state = engine_trial(t, participants, generators, numbers())
        name = user.username
        seed = None
        if times != 1:
            return _repeat(t, participants, generators, state, me, user, action, target, times)
        try:
            if action == "generators":
                check_is_monster(me)
                if not any(not p.is_monster for p in participants):
                    raise TrialError("Wait for at least one Survivor to join.")
                seed = secrets.randbits(32)
                new = sl.place_generators(state, random.Random(seed))
                text = (
                    f"{name} placed the {len(new.generators)} Generators on "
                    f"{', '.join(g.square for g in new.generators)}. The trial begins."
                )
            elif t.state == Trial.OPEN:
                raise TrialError("Wait for the Monster to place the Generators.")
            elif action == "location":
                new = sl.set_location(state, name, target)
                text = f"{name} set their Location to {_location_of(new, name, me)}."
            elif me.is_monster:
                new, text, seed = _monster_act(state, t, action, target, name)
            else:
                new, text = _survivor_act(state, action, target, name)
        except sl.IllegalAction as exc:
            raise TrialError(_sentence(exc.reason, state)) from None
        spent = _energy(state, me, name) - _energy(new, me, name)
        if spent > 0:
            text += f" (-{spent} Energy)"
        _write_back(t, participants, generators, new)
        if action == "generators":
            t.state = Trial.PLAYING
        if action == "end":
            t.advances += 1
        entry = _log(t, user, action, text, target=target, energy=max(spent, 0), seed=seed)
        finished = None
        if sl.is_over(new) and not new.advancing:
            finished = _finish(t, new)
        t.save()
        return Outcome(entry, finished)

    return _locked(trial.pk, work)


# Survivor Actions a player may repeat in one go ("Repair xN"): the target stays the same each time
REPEATABLE = ("repair",)


def _repeat(
    t: Trial, participants, generators, state: sl.Trial, me: Participant, user, action: str, target: str, times: int
) -> Outcome:
    """``times`` Survivor Actions in a row, as if sent one by one: the engine checks each (Energy, an adjacent
    Unrepaired Generator: 3.5.2), all or nothing; the log gets one line for them all ("×N"), with the progress
    before and after and the Energy spent in all (ST13)."""
    if me.is_monster or action not in REPEATABLE:
        raise TrialError("Only a Survivor's Repair can be repeated in one go.")
    if t.state != Trial.PLAYING:
        raise TrialError("Wait for the Monster to place the Generators.")
    try:
        states = sl.repeat_survivor_action(state, user.username, action, target, times)
    except sl.IllegalAction as exc:
        raise TrialError(_sentence(exc.reason, state)) from None
    new = states[-1]
    spent = max(_energy(state, me, user.username) - _energy(new, me, user.username), 0)
    text = _repeat_text(state, new, target, user.username, times)
    if spent > 0:
        text += f" (-{spent} Energy)"
    _write_back(t, participants, generators, new)
    entry = _log(t, user, action, text, target=target, energy=spent)
    finished = _finish(t, new) if sl.is_over(new) and not new.advancing else None
    t.save()
    return Outcome(entry, finished)


def _repeat_text(before: sl.Trial, new: sl.Trial, target: str, name: str, times: int) -> str:
    """The one log line of a Repair ×N: each Repair is 1 progress and 1 Point (3.5.2), so the line gives the
    Generator's progress before and after."""
    square = target.strip().upper()
    was = next(g for g in before.generators if g.square == square)
    g = next(g for g in new.generators if g.square == square)
    done = " It is Repaired." if new.is_repaired(g) else ""
    return (
        f"{name} repaired the Generator on {g.square} \u00d7{times} "
        f"({was.progress} \u2192 {g.progress}/{new.numbers.repair_max}).{done}"
    )


def _sentence(reason: str, state: sl.Trial) -> str:
    """The engine's reason as a sentence: a capital first, unless it starts with a player's name, which is
    written as the player wrote it ("bob_qa is already Ready.")."""
    return as_sentence(reason, [state.monster.name, *(s.name for s in state.survivors)], empty="Not allowed.")


def _energy(state: sl.Trial, me: Participant, name: str) -> int:
    return state.monster.energy if me.is_monster else state.survivor(name).energy


def _location_of(state: sl.Trial, name: str, me: Participant) -> str:
    return state.monster.location if me.is_monster else state.survivor(name).location


def _survivor_act(state: sl.Trial, action: str, target: str, name: str) -> tuple[sl.Trial, str]:
    if action == "ready":
        return sl.set_ready(state, name), f"{name} is Ready."
    if action == "escape":
        return sl.escape(state, name, ESCAPE_COST), f"{name} escaped the Trial Grounds."
    if action not in SURVIVOR_ACTIONS:
        raise TrialError(f"A Survivor has no action {action!r}.")
    new = sl.survivor_action(state, name, action, target)
    if action == "move":
        return new, f"{name} moved to {new.survivor(name).location}."
    if action == "repair":
        return new, _survivor_text(new, action, target, name)
    before, after = state.survivor(target), new.survivor(target)
    verb = "healed" if action == "heal" else "rescued"
    change = (
        f"{before.status.value} → {after.status.value}"
        if before.status != after.status
        else f"still {after.status.value if after.status else 'blank'}"
    )
    return new, f"{name} {verb} {target} ({change})."


def _survivor_text(new: sl.Trial, action: str, target: str, name: str) -> str:
    """The log line of a Repair just taken (``new`` is the state after it)."""
    g = next(g for g in new.generators if g.square == target.strip().upper())
    done = " It is Repaired." if new.is_repaired(g) else ""
    return f"{name} repaired the Generator on {g.square} ({g.progress}/{new.numbers.repair_max}).{done}"


def _monster_act(state: sl.Trial, t: Trial, action: str, target: str, name: str):
    if action == "advance":
        new = sl.begin_advance(state)
        gain = sl.survivor_energy_per_advance(
            sum(1 for s in state.survivors if s.status is not None), state.numbers.survivor_energy_pool
        )
        return (
            new,
            (
                f"{name} begins Advance {t.advances + 1}: the Monster gains "
                f"{state.numbers.monster_energy} Energy, each Living Survivor {gain}."
            ),
            None,
        )
    if action == "end":
        new = sl.end_advance(state)
        changes = [
            f"{s.name} {b.health} → {s.health} Health"
            + (" (Dead)" if s.status == sl.Status.DEAD and b.status != sl.Status.DEAD else "")
            for b, s in zip(state.survivors, new.survivors)
            if b.health != s.health
        ]
        losses = "; ".join(changes) if changes else "no Caged or Dying Survivor loses Health"
        return new, f"{name} ends Advance {t.advances + 1}: {losses}; every Survivor is Unready.", None
    if action not in MONSTER_ACTIONS:
        raise TrialError(f"The Monster has no action {action!r}.")
    seed = secrets.randbits(32) if action == "cage" else None
    rng = random.Random(seed) if seed is not None else random.Random(0)  # only Cage draws
    new = sl.monster_action(state, sl.MonsterAction(action, target), rng)
    if action == "move":
        return new, f"{name} moved to {new.monster.location}.", None
    before, after = state.survivor(target), new.survivor(target)
    if action == "hit":
        change = (
            f"{before.status.value} → {after.status.value}"
            if before.status != after.status
            else f"still {after.status.value}"
        )
        return new, f"{name} hit {target} ({change}, Health {before.health} → {after.health}).", None
    return new, f"{name} caged {target}: Caged on {after.location} (random Square).", seed


def _finish(t: Trial, state: sl.Trial) -> LogEntry:
    """The end: the Monster wins if every Survivor is Dead, else a seeded draw by Points."""
    seed = secrets.randbits(32)
    winner = sl.draw_winner(state, random.Random(seed))
    odds = sl.winner_odds(state)
    t.state = Trial.OVER
    t.winner = winner or ""
    if sl.monster_wins(state):
        t.outcome = Trial.Outcome.MONSTER
        text = f"Every Survivor is Dead: the Monster, {winner}, wins."
        seed = None
    elif winner is None:
        t.outcome = Trial.Outcome.NOBODY
        text = "The trial is over; no Survivor took part, so nobody is drawn."
    else:
        t.outcome = Trial.Outcome.SURVIVOR
        chances = ", ".join(f"{n} {o.numerator}/{o.denominator}" for n, o in odds.items())
        text = f"The trial is over. Winner drawn by Points among those who took part ({chances}): {winner}."
    return _log(t, None, "winner", text, target=t.winner, seed=seed)


# ---------------------------------------------------------------------------
# What a page shows
# ---------------------------------------------------------------------------


def legal_moves(state: sl.Trial, me: Participant | None, name: str) -> dict:
    """The acting user's legal targets, found by asking the engine (never re-deciding a rule)."""
    out = {
        "location": set(),
        "move": set(),
        "repair": set(),
        "repeats": [],
        "people": [],
        "ready": False,
        "escape": False,
        "advance": False,
        "end": False,
    }
    if me is None:
        return out

    def ok(fn, *args) -> bool:
        try:
            fn(*args)
        except (sl.IllegalAction, ValueError):
            return False
        return True

    here = state.monster.location if me.is_monster else state.survivor(name).location
    if state.generators is None:
        return out
    if here is None:
        out["location"] = set(sl.location_choices(state, name))
    if me.is_monster:
        out["advance"] = ok(sl.begin_advance, state)
        out["end"] = ok(sl.end_advance, state)
        if here:
            out["move"] = {sq for sq in sl.neighbours(here, state.diagonals) if ok(sl.monster_move, state, sq)}
            for s in state.survivors:
                for action, fn in (("hit", sl.hit), ("cage", lambda st, n: sl.cage(st, n, random.Random(0)))):
                    if ok(fn, state, s.name):
                        out["people"].append((action, s.name))
    else:
        out["ready"] = state.survivor(name).readiness != sl.Readiness.READY and ok(sl.set_ready, state, name)
        out["escape"] = ok(sl.escape, state, name, ESCAPE_COST)
        if here:
            out["move"] = {sq for sq in sl.neighbours(here, state.diagonals) if ok(sl.survivor_move, state, name, sq)}
            out["repair"] = {g.square for g in state.generators if ok(sl.repair, state, name, g.square)}
            # "Repair xN": how many Repairs in a row each of those Generators takes now (the engine's count)
            out["repeats"] = [
                (sq, sl.most_repeats(state, name, "repair", sq, state.numbers.repair_max))
                for sq in sorted(out["repair"])
            ]
            for s in state.survivors:
                if s.name == name:
                    continue
                for action, fn in (("heal", sl.heal), ("rescue", sl.rescue)):
                    if ok(fn, state, name, s.name):
                        out["people"].append((action, s.name))
    return out
