"""A Cybernekr0 battle's state: frozen dataclasses, changed only by the step functions.

Pure Python, no Django. Every step function of this package takes a
``Battle`` (and, when it rolls, a ``random.Random`` plus the seed to log) and
returns a new ``Battle`` whose log has grown; a step the rules do not allow
raises :class:`Refused` with a message for the player.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import Enum

from rules.cybernekro import engine as cn

SHIELD_ARMOR = 3  # Shield: "gains 3 extra armor points. The shield disappears after reducing damage once."
GM = "gm"  # the game master's seat: no crew, no hand; decides the NPCs' actions when the battle has one (B33)


class Refused(Exception):
    """A step the rules (or the battle's present moment) do not allow; ``str()`` says why."""


class Status(str, Enum):
    IN_PLAY = "in_play"
    OUT_OF_ACTION = "out_of_action"
    DEAD = "dead"  # also Out of Action; in a campaign removed from the crew
    LEFT = "left_the_table"  # left through a board edge: not Out of Action


class Phase(str, Enum):
    SETUP = "setup"  # scenario, complication, deployment initiative
    SORCERIES = "sorceries"  # after deployment, before the first round
    ROUND_START = "round_start"  # the round's Initiative Test
    AP = "ap"  # each player distributes 10 AP
    ACTION = "action"
    NPCS = "npcs"
    MORALE = "morale"
    ROUND_END = "round_end"  # fire, Demonic heal and Tremors are rolled; scenario steps, then the next round
    ENDED = "ended"


@dataclass(frozen=True)
class WeaponUse:
    """One weapon a model carries, as the engine reads it."""

    slug: str
    name: str
    weapon: cn.Weapon
    hands: int | None = None  # the catalogue's 1 or 2; None in a battle stored before it was kept (read by slug)
    copies: int = 1  # the same weapon carried more than once (an Ambidextrous model's two swords)
    near: str | None = None  # lying on the ground (thrown, B63): the model it landed next to

    @property
    def ranged(self) -> bool:
        return self.weapon.ranged


@dataclass(frozen=True)
class Model:
    id: str
    name: str
    seat: str | None  # the controlling player; None for the scenario's NPCs
    agility: int = 0
    strength: int = 0
    toughness: int = 0
    intellect: int = 0
    discipline: int = 0
    armor: int = 0
    ap_cap: int = 3  # "between 1 and 3 AP" (Bestial: 4, from the catalogue)
    traits: frozenset = frozenset()
    body_mods: frozenset = frozenset()
    gear: frozenset = frozenset()
    weapons: tuple[WeaponUse, ...] = ()
    sorcerer: bool = False
    sorceries: tuple[str, ...] = ()  # known this game (chosen or rolled after deployment)
    wounds: int = 0
    dread: int = 0
    ap: int = 0
    prone: bool = False
    on_fire: bool = False
    fire_nerve: bool = False  # passed the on-Fire Discipline test: its next action goes ahead without another
    status: Status = Status.IN_PLAY
    npc: bool = False  # a scenario NPC, or a PC turned NPC by 4+ Dread
    npc_kind: str | None = None  # catalogue slug of a scenario NPC
    npc_friendly: bool = False  # a PC turned NPC under Maddening Terror: friendly to the other NPCs
    cast_this_round: frozenset = frozenset()
    jammed: frozenset = frozenset()  # weapon slugs that need a Fix action (a fumbled shot, Pacify)
    unloaded: frozenset = frozenset()  # Reload weapons fired: "an action must be spent to reload"
    treasure: int = 0  # Treasure Tokens carried
    artifact: bool = False  # Exploration's artifact carried
    imprisoned: bool = False  # Prisoner scenario: behind the prison door now
    was_prisoner: bool = False  # Prisoner scenario: this crew's prisoner (freed or not)
    asleep: bool = False  # Sleep: "cannot perform Reactions this round"
    magic_shield: bool = False  # Shield sorcery: +3 armor until it reduces damage once
    had_a_wound: bool = False  # Extra organs: the first Wound of the game is behind it
    stims_used: bool = False  # Stim injectors: "Once per game"
    wounds_suffered: int = 0  # for the game summary

    @property
    def in_play(self) -> bool:
        return self.status is Status.IN_PLAY

    @property
    def is_pc(self) -> bool:
        return self.seat is not None and not self.npc

    @property
    def gains_dread(self) -> bool:
        """NPCs "never gain Dread"; Artificial "can never gain Dread"."""
        return not self.npc and "artificial" not in self.traits

    def attacker(self) -> cn.Attacker:
        return cn.Attacker(
            self.agility, self.discipline, self.strength, self.traits, self.body_mods, self.dread, self.gear
        )

    def target(self) -> cn.Target:
        traits = self.traits | ({"npc"} if self.npc else set())
        body_mods = self.body_mods if not self.had_a_wound else self.body_mods - {"extra-organs"}
        armor = self.armor + (SHIELD_ARMOR if self.magic_shield else 0)
        return cn.Target(
            self.toughness,
            self.strength,
            armor,
            self.wounds,
            self.prone,
            frozenset(traits),
            frozenset(body_mods),
            self.gear,
            self.dread,
        )

    def weapon(self, slug: str) -> WeaponUse:
        for use in self.weapons:
            if use.slug == slug:
                return use
        raise Refused(f"{self.name} carries no weapon {slug!r}")


@dataclass(frozen=True)
class Player:
    seat: str
    name: str
    deck: tuple[str, ...] = ()  # top first; secret to everyone
    hand: tuple[str, ...] = ()  # secret to the others
    discard: tuple[str, ...] = ()
    passed: bool = False


@dataclass(frozen=True)
class Entry:
    """One line of the public log: who did what, with every roll and its seed."""

    seq: int
    seat: str | None
    text: str
    seed: int | None = None
    rolls: tuple = ()
    final: bool = False  # dice were rolled or a secret shown: this step cannot be undone


@dataclass(frozen=True)
class Pending:
    """A moment that waits for a player's word before the battle goes on.

    kind:
      "to_hit"   an attack's hit roll is rolled; the window for a Jack or a Dread re-roll
                 is open; the attacker's seat resolves it (rolls damage).
      "ooa"      a PC would go Out of Action; its player may play a Queen or accept.
      "reaction" the target of a missed attack (or a model the active model moved
                 close to) may try a reaction.
      "card"     a card was played; an enemy may counter it with a Joker or let it stand.
      "test"     a rolled test held open for the cards; its model's player lets it stand.
      "tough_it_out"  a hit's damage row is known; the PC target's player chooses to roll Tough
                 it Out or to take it (B42); nothing is applied before the answer.
      "second_attack" an Ambidextrous pair's second hit roll, once the first attack is resolved.
    The window is opened whatever anyone holds, so it tells nobody about a hand.
    """

    kind: str
    seat: str | None  # who must answer
    model: str | None = None  # the model concerned
    data: tuple = ()  # kind-specific (key, value) pairs

    def get(self, key, default=None):
        return dict(self.data).get(key, default)


@dataclass(frozen=True)
class Scenario:
    slug: str
    name: str
    rounds: int | None = None  # the game's length when the text fixes it
    complication: str | None = None
    environment: str | None = None  # this round's Quick start effect
    terminals: tuple = ()  # Quick start: (terminal number, seat or None)
    rooms: int = 0  # Exploration: rooms/containers
    explored: int = 0
    artifact_found: bool = False
    artifact_on_table: bool = False  # found (or dropped) and lying on the ground
    exploration_rolls: int = 0
    treasure_on_table: int = 0
    # Thrown: "Once the attack is resolved the weapon lands on the ground next to the target and can be picked
    # up by anyone" (B63): one WeaponUse per weapon lying there
    weapons_on_ground: tuple = ()
    corpses: int = 0  # Exploration's corpse tokens on the table
    ritual: int = 0  # Stop the Ritual counter
    ritual_target: int = 6
    interacts_this_round: int = 0  # Stop the Ritual: the defender's "twice each round"
    kidnapper: str | None = None  # Prisoner: the Active Player
    defender: str | None = None  # Stop the Ritual: the First Player
    carried_off: tuple = ()  # (seat, treasure tokens, artifact) that left the table
    # a campaign's own scenario (C8): no engine rules, its Complication drawn if its organiser said so (B32)
    campaign: bool = False
    draws_complication: bool = False


@dataclass(frozen=True)
class Battle:
    players: tuple[Player, ...]
    models: tuple[Model, ...]
    scenario: Scenario
    phase: Phase = Phase.SETUP
    round: int = 0
    active_seat: str | None = None  # the Active Player
    active_model: str | None = None
    first_seat: str | None = None  # who was chosen Active Player at the round's start
    ap_assigned: frozenset = frozenset()  # seats that have distributed their AP this round
    morale_queue: tuple = ()  # model ids still to roll their Morale Tests, in order
    morale_started: bool = False
    npcs_done: frozenset = frozenset()  # NPC ids activated this round
    npc_actions: int = 0  # actions left to the activated NPC
    sorceries_done: frozenset = frozenset()  # sorcerer ids whose sorceries are known
    pending: tuple[Pending, ...] = ()
    reaction: tuple | None = None  # (model id, actions left) while a reaction is being made
    armed: tuple = ()  # (seat, model id, card, signed value) played before a test, face down
    log: tuple[Entry, ...] = ()
    winner: tuple[str, ...] | None = None  # seats; () is a draw
    game_master: bool = False  # a game master (seat GM) decides the NPCs' actions instead of the players (B10, B33)
    hold_rolls: bool = False  # each roll waits for every player before its roller closes it (B65, holds.py)
    end_asked: tuple[str, ...] = ()  # players who asked to end the game now; it ends once every player has (B67)
    # the model whose Flee move (a failed on-Fire test) the last step made: touching a board edge it may leave
    # the table ("If the character was touching a board edge it leaves the board"); the next step clears it
    fled: str | None = None
    previous: "Battle | None" = field(default=None, repr=False, compare=False)

    # ------------------------------------------------------------------ lookups
    def player(self, seat: str | None) -> Player:
        for p in self.players:
            if p.seat == seat:
                return p
        raise Refused(f"no player in seat {seat!r}")

    def model(self, model_id: str | None) -> Model:
        for m in self.models:
            if m.id == model_id:
                return m
        raise Refused(f"no model {model_id!r} in this battle")

    def crew(self, seat: str | None, in_play: bool = True) -> tuple[Model, ...]:
        return tuple(m for m in self.models if m.seat == seat and not m.npc and (m.in_play or not in_play))

    @property
    def seats(self) -> tuple[str, ...]:
        return tuple(p.seat for p in self.players)

    def enemies_of(self, model: Model) -> tuple[Model, ...]:
        """Models in play hostile to ``model``.

        "NPCs consider all Player Characters to be their enemies and all other NPCs to be friendly
        models"; a character turned NPC by Dread is "hostile to all other models".
        """

        def turned(m: Model) -> bool:
            return m.npc and m.seat is not None and not m.npc_friendly

        out = []
        for m in self.models:
            if m.id == model.id or not m.in_play:
                continue
            if turned(model) or turned(m):
                hostile = True
            elif model.npc or m.npc:
                hostile = model.npc != m.npc
            else:
                hostile = m.seat != model.seat
            if hostile:
                out.append(m)
        return tuple(out)

    # ------------------------------------------------------------------ changes
    def with_model(self, model: Model) -> "Battle":
        """Put ``model`` in; a model that is Prone or out of play drops what it carries.

        "If the model falls prone or goes OoA for any reason the tokens are dropped on the
        ground next to the model" (the artifact "can be carried exactly like a Treasure Token").
        """
        scenario = self.scenario
        if (model.prone or model.status in (Status.OUT_OF_ACTION, Status.DEAD)) and (model.treasure or model.artifact):
            scenario = replace(
                scenario,
                treasure_on_table=scenario.treasure_on_table + model.treasure,
                artifact_on_table=scenario.artifact_on_table or model.artifact,
            )
            model = replace(model, treasure=0, artifact=False)
        return replace(self, scenario=scenario, models=tuple(model if m.id == model.id else m for m in self.models))

    def with_player(self, player: Player) -> "Battle":
        return replace(self, players=tuple(player if p.seat == player.seat else p for p in self.players))

    def logged(self, seat: str | None, text: str, seed: int | None = None, rolls=(), final: bool = False) -> "Battle":
        entry = Entry(len(self.log) + 1, seat, text, seed, tuple(rolls), final or bool(rolls))
        return replace(self, log=self.log + (entry,))


def controls_npcs(state: Battle, seat: str) -> bool:
    """Who decides the NPCs' actions: the game master if the battle has one, else any player (B10, B33)."""
    return seat == GM if state.game_master else seat != GM


def decides_for(state: Battle, model: Model, rolled_by: str) -> str:
    """Who answers a window of ``model`` (lets its test stand, rolls its damage, reacts for it): its player for
    a Player Character; for an NPC the game master when the battle has one ("deciding their actions and
    rolling dice for their tests", B33), else ``rolled_by``, the player who rolled it (B10)."""
    if model.is_pc and model.seat:
        return model.seat
    return GM if state.game_master else rolled_by


def step(before: Battle, after: Battle) -> Battle:
    """Record ``before`` as the state undo returns to (one step deep); a Flee move's end at a board edge
    (``fled``) is open only right after the step that made it."""
    if after.fled is not None and after.fled == before.fled:
        after = replace(after, fled=None)
    return replace(after, previous=replace(before, previous=None))


def undo(state: Battle, seat: str) -> Battle:
    """Take back the last step: only its maker, and never a step that rolled dice or showed a secret.

    A roll once seen stays rolled (as in the Soylent tracker, SG10): undoing it
    would let a player roll again until it suits them.
    """
    if state.previous is None or not state.log:
        raise Refused("there is no step to undo")
    made = last_step(state)
    if any(entry.final for entry in made):
        raise Refused("the last step rolled dice or showed a card: a roll once seen stays rolled")
    if made[0].seat != seat and not (seat == GM and state.game_master):
        raise Refused("only the player who made the last step (or the game master) can undo it")
    before = state.previous
    return replace(before, previous=None).logged(seat, f"undid: {'; '.join(e.text for e in made)}")


def last_step(state: Battle) -> tuple[Entry, ...]:
    """The log lines the last step wrote, its maker's first: a step may log lines for another seat after its own
    (a hit's result is the attacker's line, written when the target's player chose to take it)."""
    if state.previous is None:
        return ()
    made = state.log[len(state.previous.log) :]
    return made or state.log[-1:]


def undoable_by(state: Battle, seat: str | None) -> bool:
    """Whether ``seat`` may take back the last step (``undo`` refuses the rest)."""
    made = last_step(state)
    if not made or any(entry.final for entry in made):
        return False
    return made[0].seat == seat or (seat == GM and state.game_master)


def drop_items(state: Battle, model: Model) -> Battle:
    """The model drops its Treasure Tokens and the artifact on the ground (before a Flee move, for one)."""
    if not (model.treasure or model.artifact):
        return state
    scenario = replace(
        state.scenario,
        treasure_on_table=state.scenario.treasure_on_table + model.treasure,
        artifact_on_table=state.scenario.artifact_on_table or model.artifact,
    )
    return replace(state, scenario=scenario).with_model(replace(model, treasure=0, artifact=False))


def gain_dread(model: Model, amount: int = 1) -> Model:
    """Dread where the rules give it: never for NPCs or Artificial; Demonic a Wound instead; 6 at most."""
    if model.npc or "artificial" in model.traits or amount <= 0:
        return model
    if "demonic" in model.traits:
        for _ in range(amount):
            if model.wounds >= cn.MAX_WOUNDS:  # "If it would receive a 7th Wound it is taken OoA instead"
                return replace(model, status=Status.OUT_OF_ACTION)
            model = replace(model, wounds=model.wounds + 1, had_a_wound=True, wounds_suffered=model.wounds_suffered + 1)
        return model
    return replace(model, dread=min(model.dread + amount, cn.MAX_DREAD))
