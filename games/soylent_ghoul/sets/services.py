"""Drone sets: one function per operation, each in a transaction.

Numbers come from the catalogue (``rules_entries("soylent-ghoul", ...)``,
house rules included): the Ghoul groups' M, Nerve, actions and Snapped
effects, the five tokens per drone ("For each drone they should have five
tokens") and the suggested four drones ("4 is a good number").

Secrecy: which token is true is read only by ``owner_key`` (and by the
export when the owner asks for it); everything shown to anyone else is built
by ``public_view``, which never reads ``Token.is_true``. Codes are dealt with
``secrets`` and the true token's place with ``random.SystemRandom``, each
independently, so neither a token's code nor its place tells anything.
"""

from __future__ import annotations

import json
import random
import secrets as _secrets
from dataclasses import dataclass
from typing import Callable

from django.db import DatabaseError, transaction
from django.utils import timezone

from catalogue.loader import current_system, load_catalogues
from core.locking import run_locked
from crewbuilder.crewfile import BadFormat, check_text
from crewbuilder.models import Crew, RulesEntry
from rules.soylent_ghoul.panic import CATALOGUE

from .models import CODE_ALPHABET, Drone, DroneSet, Token, new_code

SYSTEM = "soylent-ghoul"
NAME_MAX = 100
MAX_DRONES = 12  # an app limit (a page and a token sheet stay printable), not a rule
CODE_MAX = 8  # Token.code max_length

_deal = random.SystemRandom()

# Callables (drone_set) -> message or None that can forbid a change while a
# game uses the set (the game tracker adds its own); a message refuses it.
CHANGE_GUARDS: list[Callable[[DroneSet], str | None]] = []


class DroneSetError(ValueError):
    """A change that cannot be made; the message is for the player."""


class StaleDroneSet(DroneSetError):
    """The form was drawn before the set last changed (another tab or device): nothing is saved."""


# --------------------------------------------------------------- catalogue


@dataclass(frozen=True)
class RulesData:
    """What the drone sets read of the catalogue, loaded in one go (2 queries)."""

    groups: dict  # slug -> group entry, in the rules' order
    tokens_per_drone: int  # "For each drone they should have five tokens"
    suggested_drones: int  # "4 is a good number"


def rules_data() -> RulesData:
    """The catalogue of the database (house rules included), else the shipped data file."""
    try:
        system = current_system(SYSTEM)
        rows = (
            []
            if system is None
            else list(
                RulesEntry.objects.filter(system=system, part__in=("ghoul_groups", "rules")).order_by(
                    "house_rule", "position", "id"
                )
            )
        )
        parts = {"ghoul_groups": [], "rules": []}
        for row in rows:
            parts[row.part].append(row.to_entry())
    except DatabaseError:  # no tables (the CLI validating a file)
        parts = {"ghoul_groups": [], "rules": []}
    if not parts["ghoul_groups"] or not parts["rules"]:
        data = json.loads(CATALOGUE.read_text(encoding="utf-8"))
        parts = {
            "ghoul_groups": parts["ghoul_groups"] or data["ghoul_groups"],
            "rules": parts["rules"] or data["rules"],
        }
    rules = {entry.get("slug"): entry for entry in parts["rules"]}
    essentials = rules.get("gameplay-essentials", {})
    return RulesData(
        groups={entry["slug"]: entry for entry in parts["ghoul_groups"]},
        tokens_per_drone=int(essentials.get("tokens_per_drone") or rules["place"]["tokens_per_drone"]),
        suggested_drones=int(essentials["suggested_drones"]),
    )


def groups() -> dict[str, dict]:
    """The Ghoul groups by slug, in the rules' order, house rules included."""
    return rules_data().groups


def tokens_per_drone() -> int:
    return rules_data().tokens_per_drone


def suggested_drones() -> int:
    return rules_data().suggested_drones


def group_card(group: dict) -> dict:
    """What a drone card prints of its group: name, M, Nerve, actions, Snapped."""
    return {
        "slug": group.get("slug", ""),
        "name": group.get("name", ""),
        "move": group.get("M", group.get("move")),
        "nerve": group.get("nerve"),
        "actions": [{"name": a.get("name", ""), "text": a.get("text", "")} for a in group.get("actions") or ()],
        "snapped": group.get("snapped", ""),
        "house_rule": bool(group.get("house_rule")),
    }


# --------------------------------------------------------------- checks


def clean_name(value, field: str) -> str:
    value = (value or "").strip() if isinstance(value, str) else value
    try:
        return check_text(value, field, limit=NAME_MAX)
    except BadFormat as exc:
        message = str(exc).split(": ", 1)[-1]
        raise DroneSetError(f"{field.capitalize()} {message}.") from None


def _check_group(group: str) -> str:
    if group not in groups():
        raise DroneSetError(f"Choose a Ghoul group ({', '.join(g['name'] for g in groups().values())}).")
    return group


def _guard(drone_set: DroneSet) -> None:
    for guard in CHANGE_GUARDS:
        message = guard(drone_set)
        if message:
            raise DroneSetError(message)


def valid_code(code) -> bool:
    return isinstance(code, str) and 1 <= len(code) <= CODE_MAX and all(c in CODE_ALPHABET for c in code)


def _fresh_codes(count: int, taken: set[str]) -> list[str]:
    codes = []
    while len(codes) < count:
        code = new_code()
        if code not in taken:
            taken.add(code)
            codes.append(code)
    return codes


def _make_tokens(drone: Drone, codes: list[str], true_index: int) -> list[Token]:
    """Tokens in the given order of codes; the true one is at ``true_index``."""
    return [Token(drone=drone, code=code, position=i, is_true=(i == true_index)) for i, code in enumerate(codes)]


# --------------------------------------------------------------- operations


def _system():
    system = current_system(SYSTEM)
    if system is None:
        load_catalogues()
        system = current_system(SYSTEM)
    if system is None:  # pragma: no cover - the data file ships with the app
        raise DroneSetError("The Soylent Ghoul catalogue is not loaded: run `python manage.py loadcatalogue`.")
    return system


@transaction.atomic
def create_drone_set(
    owner,
    name: str,
    group: str,
    drone_names=None,
    count: int | None = None,
    tokens: list[list[str]] | None = None,
    true_tokens: list[str | None] | None = None,
) -> DroneSet:
    """A new drone set: ``drone_names`` (or ``count`` drones named Drone 1..n,
    the suggested four by default), each with its tokens and one secret true token.

    ``tokens``/``true_tokens`` (from an imported file) keep printed codes and,
    when given, the true token; anything missing is dealt afresh.
    """
    name = clean_name(name, "set name")
    _check_group(group)
    if drone_names is None:
        count = suggested_drones() if count is None else count
        if not isinstance(count, int) or not 1 <= count <= MAX_DRONES:
            raise DroneSetError(f"A drone set has from 1 to {MAX_DRONES} drones.")
        drone_names = [f"Drone {i + 1}" for i in range(count)]
    drone_names = [clean_name(n, "drone name") for n in drone_names]
    if not 1 <= len(drone_names) <= MAX_DRONES:
        raise DroneSetError(f"A drone set has from 1 to {MAX_DRONES} drones.")
    per_drone = tokens_per_drone()
    given = [list(t) if t is not None else None for t in tokens] if tokens else [None] * len(drone_names)
    if len(given) != len(drone_names):
        raise DroneSetError("Give tokens for every drone or for none.")
    taken = {code for codes in given if codes for code in codes}
    if sum(len(codes) for codes in given if codes) != len(taken):
        raise DroneSetError("Token codes must be different within a drone set.")
    for codes in given:
        if codes is not None and (len(codes) != per_drone or not all(valid_code(c) for c in codes)):
            raise DroneSetError(f"Each drone has {per_drone} tokens with codes of the letters {CODE_ALPHABET}.")
    crew = Crew.objects.create(owner=owner, system=_system(), name=name, budget=0)
    drone_set = DroneSet.objects.create(crew=crew, group=group)
    rows = []
    for position, drone_name in enumerate(drone_names):
        drone = Drone.objects.create(drone_set=drone_set, name=drone_name, position=position)
        codes = given[position] or _fresh_codes(per_drone, taken)
        wanted = (true_tokens or [None] * len(drone_names))[position]
        if wanted is not None and wanted not in codes:
            raise DroneSetError(f"{drone_name}: the true token {wanted} is not one of its tokens.")
        true_index = codes.index(wanted) if wanted is not None else _deal.randrange(len(codes))
        rows.extend(_make_tokens(drone, codes, true_index))
    Token.objects.bulk_create(rows)
    return drone_set


def _under_lock(drone_set: DroneSet, work, expected_version: int | None = None):
    """``work(locked set)`` holding the set's lock (two requests cannot interleave): the lock of every
    game at the table (``core.locking.run_locked``) on the set's crew row, which bumps the crew's
    version. With the version the form was drawn with, a set changed since then refuses the edit (an
    older tab never overwrites)."""

    def locked(crew: Crew):
        if expected_version is not None and expected_version != crew.version - 1:
            raise StaleDroneSet(
                "This drone set changed elsewhere (another tab or device saved a newer version), "
                "so your change was not saved. Here it is as it is now."
            )
        return work(DroneSet.objects.select_related("crew").get(pk=drone_set.pk))

    return run_locked(
        Crew,
        drone_set.crew_id,
        locked,
        missing=DroneSetError("This drone set no longer exists."),
        busy=DroneSetError("The drone set is busy; try again."),
    )


def _touch(drone_set: DroneSet) -> None:
    # its version was bumped by the lock
    drone_set.crew.save(update_fields=["version", "updated_at"])


def redeal(drone_set: DroneSet) -> DroneSet:
    """Deal each drone's true token afresh (codes stay, so printed tokens still serve).

    Every token of a drone is equally likely to be the new true one, the old
    one included: a deal that always moved the truth would tell an opponent who
    saw the old key which token it is not.
    """

    def work(locked: DroneSet) -> DroneSet:
        _guard(locked)
        for drone in Drone.objects.filter(drone_set=locked).prefetch_related("tokens"):
            tokens = list(drone.tokens.all())
            if not tokens:
                continue
            chosen = tokens[_deal.randrange(len(tokens))]
            Token.objects.filter(drone=drone).exclude(pk=chosen.pk).update(is_true=False)
            Token.objects.filter(pk=chosen.pk).update(is_true=True)
        locked.dealt_at = timezone.now()
        locked.save(update_fields=["dealt_at"])
        _touch(locked)
        return locked

    return _under_lock(drone_set, work)


def rename(drone_set: DroneSet, name: str, expected_version: int | None = None) -> DroneSet:
    def work(locked: DroneSet) -> DroneSet:
        locked.crew.name = clean_name(name, "set name")
        locked.crew.save(update_fields=["name", "version", "updated_at"])
        return locked

    return _under_lock(drone_set, work, expected_version)


def set_group(drone_set: DroneSet, group: str, expected_version: int | None = None) -> DroneSet:
    def work(locked: DroneSet) -> DroneSet:
        _guard(locked)
        locked.group = _check_group(group)
        locked.save(update_fields=["group"])
        _touch(locked)
        return locked

    return _under_lock(drone_set, work, expected_version)


def add_drone(drone_set: DroneSet, name: str = "", expected_version: int | None = None) -> Drone:
    def work(locked: DroneSet) -> Drone:
        _guard(locked)
        drones = list(locked.drones.all())
        if len(drones) >= MAX_DRONES:
            raise DroneSetError(f"A drone set has at most {MAX_DRONES} drones.")
        drone_name = clean_name(name or f"Drone {len(drones) + 1}", "drone name")
        taken = set(Token.objects.filter(drone__drone_set=locked).values_list("code", flat=True))
        drone = Drone.objects.create(
            drone_set=locked, name=drone_name, position=max((d.position for d in drones), default=-1) + 1
        )
        codes = _fresh_codes(tokens_per_drone(), taken)
        Token.objects.bulk_create(_make_tokens(drone, codes, _deal.randrange(len(codes))))
        _touch(locked)
        return drone

    return _under_lock(drone_set, work, expected_version)


def _drone_of(drone_set: DroneSet, drone_id) -> Drone:
    try:
        return Drone.objects.get(drone_set=drone_set, pk=int(drone_id))
    except (TypeError, ValueError, Drone.DoesNotExist):
        raise DroneSetError("That drone is not in this set.") from None


def rename_drone(drone_set: DroneSet, drone_id: int, name: str, expected_version: int | None = None) -> Drone:
    def work(locked: DroneSet) -> Drone:
        drone = _drone_of(locked, drone_id)
        drone.name = clean_name(name, "drone name")
        drone.save(update_fields=["name"])
        _touch(locked)
        return drone

    return _under_lock(drone_set, work, expected_version)


def remove_drone(drone_set: DroneSet, drone_id: int, expected_version: int | None = None) -> None:
    def work(locked: DroneSet) -> None:
        _guard(locked)
        drone = _drone_of(locked, drone_id)
        if locked.drones.count() <= 1:
            raise DroneSetError("A drone set keeps at least one drone.")
        drone.delete()
        _touch(locked)

    _under_lock(drone_set, work, expected_version)


def set_sharing(drone_set: DroneSet, on: bool) -> DroneSet:
    def work(locked: DroneSet) -> DroneSet:
        locked.crew.share_token = _secrets.token_urlsafe(24) if on else None
        locked.crew.save(update_fields=["share_token"])
        return locked

    return _under_lock(drone_set, work)


def delete(drone_set: DroneSet) -> None:
    def work(locked: DroneSet) -> None:
        _guard(locked)
        locked.crew.delete()

    _under_lock(drone_set, work)


# --------------------------------------------------------------- reading


def sets_for(owner):
    """The owner's drone sets, newest change first, with their drones (3 queries)."""
    return (
        DroneSet.objects.owned_by(owner)
        .select_related("crew")
        .prefetch_related("drones")
        .order_by("-crew__updated_at", "-id")
    )


def shared_set(token: str) -> DroneSet | None:
    return DroneSet.objects.shared_by_token(token).for_page().first()


@dataclass
class PublicDrone:
    """A drone as anyone may see it: its name and its token codes in their
    dealt order. No field says which token is true."""

    pk: int
    number: int
    name: str
    codes: list[str]


def public_view(drone_set: DroneSet, rules: RulesData | None = None) -> dict:
    """Everything pages, PDFs and share links show: no truth in it (2 queries and the catalogue's)."""
    rules = rules or rules_data()
    drones = []
    tokens: dict[int, list[str]] = {}
    for drone_id, code in (
        Token.objects.filter(drone__drone_set=drone_set)
        .order_by("drone__position", "drone_id", "position", "id")
        .values_list("drone_id", "code")
    ):
        tokens.setdefault(drone_id, []).append(code)
    for number, drone in enumerate(Drone.objects.filter(drone_set=drone_set).order_by("position", "id"), start=1):
        drones.append(PublicDrone(drone.pk, number, drone.name, tokens.get(drone.pk, [])))
    group = rules.groups.get(drone_set.group)
    return {
        "name": drone_set.crew.name,
        "owner": drone_set.crew.owner.username,
        "group": group_card(group) if group else {"slug": drone_set.group, "name": drone_set.group, "unknown": True},
        "drones": drones,
        "tokens_per_drone": rules.tokens_per_drone,
    }


def owner_key(drone_set: DroneSet, view: dict | None = None) -> list[dict]:
    """The owner's secret: each drone's true token code. Call only for the owner."""
    key = {
        drone_id: code
        for drone_id, code in Token.objects.filter(drone__drone_set=drone_set, is_true=True).values_list(
            "drone_id", "code"
        )
    }
    drones = (
        view["drones"]
        if view is not None
        else [
            PublicDrone(d.pk, number, d.name, [])
            for number, d in enumerate(Drone.objects.filter(drone_set=drone_set).order_by("position", "id"), start=1)
        ]
    )
    return [{"number": d.number, "name": d.name, "pk": d.pk, "true_token": key.get(d.pk)} for d in drones]
