"""Fate cards on the hits no attack roll made: Bolt, Gut Twist, an electric discharge, an Unstable weapon (B36),
and a Fumble made by a Jack counting as a Fumble (B39).

Each hit's Tough it Out waits in the cards' window like an attack's: a card played before it applies (an Ace
on one's own model, a numbered card by anyone), a Jack turns it into a Critical or a Fumble exactly as a rolled
one, a Joker counters a card; no other player's hand changes what a seat is offered. No database.
"""

import random
from dataclasses import dataclass, replace

import pytest

from rules.cybernekro import engine as cn
from rules.cybernekro.battle import actions, codec, fate, legal, sorcery
from rules.cybernekro.battle.state import Refused, WeaponUse
from tests.rules.battle.helpers import Dice, rolled_tio, settle
from tests.rules.battle.test_cards_on_every_test import other, with_hands
from tests.rules.battle.test_complications import in_action

UNSTABLE = WeaponUse(
    "energy-pistol", "energy pistol", cn.Weapon(3, 10, cn.Keywords.parse(["Energy", "Unstable"]), "energy-pistol")
)
HAND_FIVE = {"A": "5♥", "B": "5♠"}
BLADE = WeaponUse("blade", "blade", cn.Weapon(2, None, cn.Keywords(), "blade"))  # no Parry: a miss opens no test


def battle(complication="no-complication"):
    return with_hands(in_action(complication))


def _casting(spell, *effect_faces):
    def prepare():
        state = battle()
        state = state.with_model(replace(state.model("a0"), sorcerer=True, sorceries=(spell,), intellect=1))
        state = sorcery.cast(state, "A", spell, Dice(15), 1, target_id="b0")  # the sorcery's test: a success
        if effect_faces:  # Gut Twist: b0's Toughness test fails (5 + 1), the hit comes once it stands
            state = actions.resolve_test(state, "A", Dice(*effect_faces), 1)
        return state

    return prepare


def _fumbling(complication, weapon=None):
    def prepare():
        state = battle(complication)
        if weapon is not None:
            state = state.with_model(replace(state.model("a0"), weapons=(weapon,)))
        return actions.attack(state, "A", (weapon.slug if weapon else "pistol"), "b0", Dice(1), 1)  # a Fumble

    return prepare


@dataclass(frozen=True)
class Hit:
    """A hit outside an attack's: the window before it (``prepare``), the step that rolls its damage with
    ``damage`` and its Tough it Out with the last face, the model hit, its player and its Toughness."""

    name: str
    prepare: object
    step: str  # resolve_test or resolve_attack, by the window's seat
    damage: tuple
    model: str
    owner: str
    modifier: int

    def roll(self, state, *tio):
        dice = Dice(*self.damage, *tio)
        return rolled_tio(getattr(actions, self.step)(state, state.pending[0].seat, dice, 1), dice)


HITS = {
    h.name: h
    for h in (
        Hit("bolt", _casting("bolt"), "resolve_test", (3,), "b0", "B", 1),
        Hit("gut twist", _casting("gut-twist", 5), "resolve_test", (1, 2), "b0", "B", 1),
        Hit("electric discharge", _fumbling("electric-discharges"), "resolve_attack", (3,), "a0", "A", 0),
        Hit("unstable", _fumbling("no-complication", UNSTABLE), "resolve_attack", (2, 2, 3), "a0", "A", 0),
    )
}
NAMES = list(HITS)
LABELS = {"bolt": "Bolt", "gut twist": "Gut Twist", "electric discharge": "electric discharge", "unstable": "Unstable"}


def face(hit, wanted, delta=0):
    """A d20 face giving ``wanted`` with the hit's modifier, and not with ``delta`` more."""
    return next(
        f
        for f in range(2, 20)
        if cn.classify(f, hit.modifier) is wanted and (not delta or cn.classify(f, hit.modifier + delta) is not wanted)
    )


def held(state, hit):
    top = state.pending[0]
    assert top.kind == "test" and top.model == hit.model and top.seat == hit.owner, top
    assert top.get("test") == "tough it out" and top.get("what") == f"tough it out ({LABELS[hit.name]})"
    return top


def after(state, model_id):
    m = state.model(model_id)
    return m.wounds, m.dread, m.prone, m.status


@pytest.mark.parametrize("name", NAMES)
def test_the_hits_tough_it_out_waits_for_the_cards_and_is_stored(name):
    hit = HITS[name]
    before = hit.prepare()
    rolled = hit.roll(before, face(hit, cn.Outcome.FAILURE))
    held(rolled, hit)
    assert after(rolled, hit.model) == after(before, hit.model)  # nothing applied while a card may change it
    assert codec.loads(codec.dumps(rolled)) == rolled
    failed, passed = settle(rolled), settle(hit.roll(before, face(hit, cn.Outcome.SUCCESS)))
    assert failed.model(hit.model).dread == 1 and passed.model(hit.model).dread == 0  # a failed TiO: 1 Dread
    assert failed.model(hit.model).wounds == 1 and passed.model(hit.model).wounds == 0  # Light: cancelled


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("into", ["critical", "fumble"])
def test_a_jack_on_the_hits_tough_it_out_is_a_rolled_critical_or_fumble(name, into):
    hit = HITS[name]
    regular = cn.Outcome.SUCCESS if into == "critical" else cn.Outcome.FAILURE
    rolled = hit.roll(hit.prepare(), face(hit, regular))
    by = other(hit.owner)  # any player may play it: here the model's enemy
    jack = next(c for c in rolled.player(by).hand if fate.kind(c) == "jack")
    assert legal.Option("play_jack", (jack, into)) in legal.legal(rolled, by)
    jacked = actions.answer_card(actions.play_jack(rolled, by, jack, into), hit.owner)
    assert held(jacked, hit).get("outcome") == into
    natural = hit.roll(hit.prepare(), 20 if into == "critical" else 1)
    assert natural.pending[0].get("outcome") == into
    assert after(settle(jacked), hit.model) == after(settle(natural), hit.model)
    countered = actions.play_jack(rolled, by, jack, into)
    joker = next(c for c in countered.player(hit.owner).hand if fate.kind(c) == "joker")
    countered = actions.answer_card(countered, hit.owner, joker)
    assert held(countered, hit).get("outcome") == regular.value  # the Joker: the roll stands as rolled
    assert jack in countered.player(by).discard and joker in countered.player(hit.owner).discard


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("by", ["A", "B"])
def test_a_numbered_card_played_before_the_hit_modifies_its_tough_it_out(name, by):
    hit = HITS[name]
    before = hit.prepare()
    card = next(c for c in before.player(by).hand if fate.kind(c) == "number")
    assert legal.Option("play_before_test", (card, hit.model)) in legal.legal(before, by)
    sign = 1 if by == hit.owner else -1  # the owner helps, the enemy hinders
    played = actions.play_before_test(before, by, card, hit.model, sign)
    assert card not in str(played.log[-1].text)  # face down: not shown to the others before the roll
    played = actions.answer_card(played, other(by))
    wanted = cn.Outcome.SUCCESS if sign > 0 else cn.Outcome.FAILURE
    d20 = face(hit, cn.Outcome.FAILURE if sign > 0 else cn.Outcome.SUCCESS, sign * fate.value(card))
    rolled = hit.roll(played, d20)
    top = held(rolled, hit)
    assert top.get("outcome") == wanted.value and top.get("event").modifier == hit.modifier + sign * fate.value(card)
    assert any(r.get("card", "").startswith(card) for e in rolled.log for r in e.rolls)  # revealed by the roll
    assert card in rolled.player(by).discard


@pytest.mark.parametrize("name", NAMES)
def test_an_ace_on_ones_own_model_passes_the_hits_tough_it_out_without_a_roll(name):
    hit = HITS[name]
    before = hit.prepare()
    enemy = other(hit.owner)
    enemy_ace = next(c for c in before.player(enemy).hand if fate.kind(c) == "ace")
    assert legal.Option("play_before_test", (enemy_ace, hit.model)) not in legal.legal(before, enemy)
    with pytest.raises(Refused, match="own models"):
        actions.play_before_test(before, enemy, enemy_ace, hit.model)
    ace = next(c for c in before.player(hit.owner).hand if fate.kind(c) == "ace")
    played = actions.answer_card(actions.play_before_test(before, hit.owner, ace, hit.model), enemy)
    dice = Dice(*hit.damage)  # no d20 for it
    rolled = rolled_tio(getattr(actions, hit.step)(played, played.pending[0].seat, dice, 1), dice)
    top = held(rolled, hit)
    assert top.get("outcome") == "success" and top.get("event") is None
    with pytest.raises(Refused, match="Ace"):
        actions.play_jack(
            rolled, enemy, next(c for c in rolled.player(enemy).hand if fate.kind(c) == "jack"), "critical"
        )
    assert after(settle(rolled), hit.model)[:2] == (0, 0)


@pytest.mark.parametrize("name", NAMES)
def test_a_joker_counters_a_card_played_before_the_hit(name):
    hit = HITS[name]
    before = hit.prepare()
    enemy = other(hit.owner)
    card = next(c for c in before.player(enemy).hand if fate.kind(c) == "number")
    played = actions.play_before_test(before, enemy, card, hit.model, -1)
    joker = next(c for c in played.player(hit.owner).hand if fate.kind(c) == "joker")
    assert legal.Option("answer_card", (joker,)) in legal.legal(played, hit.owner)
    countered = actions.answer_card(played, hit.owner, joker)
    assert countered.armed == () and card in countered.player(enemy).discard
    rolled = hit.roll(countered, face(hit, cn.Outcome.SUCCESS, -fate.value(card)))
    top = held(rolled, hit)
    assert top.get("outcome") == "success" and top.get("event").modifier == hit.modifier


@pytest.mark.parametrize("name", NAMES)
def test_another_players_hand_and_face_down_card_never_change_what_a_seat_sees_or_is_offered(name):
    hit = HITS[name]
    before = hit.prepare()
    enemy = other(hit.owner)
    face_down = actions.answer_card(actions.play_before_test(before, enemy, HAND_FIVE[enemy], hit.model, -1), hit.owner)
    for state in (before, face_down, hit.roll(before, face(hit, cn.Outcome.FAILURE))):
        for seat in ("A", "B"):
            hand = state.player(other(seat)).hand
            changed = state.with_player(replace(state.player(other(seat)), hand=("2♦",) * len(hand)))
            assert legal.legal(state, seat) == legal.legal(changed, seat), seat
            assert legal.view_for(state, seat) == legal.view_for(changed, seat), seat
    secret = replace(face_down, armed=((enemy, hit.model, "9♦", -9),))  # only the face-down card changed
    assert legal.view_for(face_down, hit.owner) == legal.view_for(secret, hit.owner)
    assert legal.view_for(face_down, enemy) != legal.view_for(secret, enemy)  # its player sees it


# --------------------------------------------------------------------------
# B39: a Fumble made by a Jack is a Fumble
# --------------------------------------------------------------------------


def _jack_fumble(state, by="B"):
    jack = next(c for c in state.player(by).hand if fate.kind(c) == "jack")
    return actions.answer_card(actions.play_jack(state, by, jack, "fumble"), other(by))


def _discharges(state):
    return [e for e in state.log if e.text.startswith("Electric discharge")]


def test_a_test_turned_into_a_fumble_by_a_jack_brings_the_electric_discharge():
    state = battle("electric-discharges")
    state = actions.act(state, "A", "interact", Dice(5), 1, test="agility")  # 5 + 1: a regular failure
    assert state.pending[0].get("outcome") == "failure"
    assert legal.Option("play_before_test", ("5♠", "a0")) in legal.legal(state, "B")  # its hit's TiO to come
    stands = settle(state, Dice())
    assert not _discharges(stands) and stands.model("a0").wounds == 0
    jacked = _jack_fumble(state)
    dice = Dice(3, 5)  # Damage 1: 3 Light; Tough it Out 5: fails
    shocked = rolled_tio(actions.resolve_test(jacked, "A", dice, 1), dice)
    held(shocked, HITS["electric discharge"])
    done = settle(shocked)
    assert _discharges(done) and done.model("a0").wounds == 1 and done.model("a0").dread == 1
    assert "interact" in " ".join(e.text for e in done.log[-3:])  # then the fumbled interact is applied
    countered = actions.play_jack(state, "B", "J♠", "fumble")
    countered = actions.answer_card(countered, "A", "Joker (red)")
    assert not _discharges(settle(countered, Dice()))


def test_a_hit_roll_turned_into_a_fumble_by_a_jack_discharges_jams_and_turns_an_unstable_weapon():
    state = battle("electric-discharges")
    state = state.with_model(replace(state.model("a0"), weapons=(UNSTABLE, BLADE)))
    missed = actions.attack(state, "A", "energy-pistol", "b0", Dice(5), 1)  # a regular miss
    assert missed.pending[0].get("outcome") == "failure"
    plain = actions.resolve_attack(missed, "A", Dice(), 1)  # a regular miss: no discharge, no jam, no Unstable
    assert not _discharges(plain) and "jams" not in plain.log[-1].text and plain.pending[:1] != missed.pending[:1]
    assert plain.model("a0").wounds == 0 and not any(p.kind == "test" for p in plain.pending)
    jacked = _jack_fumble(missed)
    dice = Dice(3, 15)  # the discharge first: Light, TiO 15 passes
    shocked = rolled_tio(actions.resolve_attack(jacked, "A", dice, 1), dice)
    held(shocked, HITS["electric discharge"])
    dice = Dice(2, 2, 3, 5)  # the discharge stands; Unstable's hit
    unstable = rolled_tio(actions.resolve_test(shocked, "A", dice, 1), dice)
    top = held(unstable, HITS["unstable"])
    assert top.get("outcome") == "failure" and any("energy pistol jams" in e.text for e in unstable.log)
    done = settle(unstable)
    assert done.model("a0").wounds == 1 and done.model("a0").dread == 1
    assert "energy-pistol" in done.model("a0").jammed


def test_the_discharge_follows_the_final_result_a_fumble_rerolled_into_a_success_brings_none():
    state = battle("electric-discharges")
    state = state.with_model(replace(state.model("a0"), body_mods=frozenset({"excessive-neural-cabling"})))
    fumbled = actions.act(state, "A", "interact", Dice(1), 1, test="agility")
    assert fumbled.pending[0].get("outcome") == "fumble"
    rerolled = actions.reroll_with_body(fumbled, "A", Dice(15, 6), 1)  # a success: one Neural Overload (6)
    assert not _discharges(settle(rerolled, random.Random(1)))


def test_a_discharge_inside_a_held_hit_adds_its_wound_to_the_hits():
    def bolt_fumbled(complication):
        state = battle(complication)
        state = state.with_model(replace(state.model("a0"), sorcerer=True, sorceries=("bolt",), intellect=1))
        dice = Dice(3, 5)
        state = actions.resolve_test(sorcery.cast(state, "A", "bolt", Dice(15), 1, target_id="b0"), "A", dice, 1)
        state = rolled_tio(state, dice)
        return _jack_fumble(state, "A")  # the Bolt's Tough it Out (5 + 1: a failure) becomes a Fumble

    plain = settle(actions.resolve_test(bolt_fumbled("no-complication"), "B", Dice(), 1))
    dice = Dice(3, 5)  # Light; TiO fails
    shocked = rolled_tio(actions.resolve_test(bolt_fumbled("electric-discharges"), "B", dice, 1), dice)
    assert shocked.pending[0].model == "b0" and shocked.pending[0].get("what") == "tough it out (electric discharge)"
    done = settle(shocked, Dice())
    assert _discharges(done) and done.model("b0").dread == plain.model("b0").dread + 1
    assert done.model("b0").wounds == plain.model("b0").wounds + 1 > 1  # the discharge's Wound is kept
