"""Fate cards on every test the battle rolls: one path (``actions.roll_with_cards``) for each kind.

For every test kind: an Ace passes it without a roll, a numbered card (the owner's or an enemy's)
modifies it, a Jack turns a regular result into a Fumble or a Critical, a Joker counters a card;
the result the test's continuation applies is the final one. No database.
"""

import random
from dataclasses import dataclass, replace

import pytest

from rules.cybernekro import engine as cn
from rules.cybernekro.battle import actions, codec, fate, legal, morale, next_tests, rounds, scenario_steps, sorcery
from rules.cybernekro.battle.state import Phase, Refused, WeaponUse
from tests.rules.battle.helpers import PISTOL, Dice, new, rolled_tio, settle, to_action

HANDS = {"A": ("A♥", "5♥", "J♥", "Joker (red)"), "B": ("A♠", "5♠", "J♠", "Joker (black)")}
FLAMER = WeaponUse("flamer", "flamer", cn.Weapon(2, 6, cn.Keywords.parse(["Fire"]), "flamer"))
MAUL = WeaponUse("maul", "maul", cn.Weapon(1, None, cn.Keywords.parse(["Stagger"]), "maul"))


def with_hands(state):
    for seat, hand in HANDS.items():
        state = state.with_player(replace(state.player(seat), hand=hand))
    return state


def calm(state):
    return replace(state, scenario=replace(state.scenario, environment=None))


def acting(**changes):
    state = calm(to_action())
    state = state.with_model(replace(state.model("a0"), **changes)) if changes else state
    return with_hands(rounds.select_model(state, "A", "a0"))


def at_morale(dread=None, **scenario):
    state = calm(to_action())
    state = replace(state, scenario=replace(state.scenario, **scenario))
    for model_id, d in (dread or {}).items():
        state = state.with_model(replace(state.model(model_id), dread=d))
    return with_hands(rounds.pass_turn(rounds.pass_turn(state, "A"), "B"))


@dataclass(frozen=True)
class Kind:
    """A test kind: the moment before its roll (``prepare``), the step that rolls it with ``faces`` (the test's
    d20 last; none for an Ace), the tested model, its player and the test's modifier without a card."""

    name: str
    prepare: object
    roll: object
    model: str
    owner: str
    modifier: int


def _exploring():
    state = to_action(new(scenario="exploration"))
    state = replace(state, scenario=replace(state.scenario, complication="no-complication", exploration_rolls=1))
    return with_hands(rounds.select_model(state, "A", "a0"))


def _shooting(weapon, situation=cn.Situation()):
    def prepare():
        state = acting()
        state = state.with_model(replace(state.model("a0"), weapons=(weapon,)))
        return actions.attack(state, "A", weapon.slug, "b0", Dice(15), 1, situation=situation)

    return prepare


def _casting(spell, **kw):
    def prepare():
        state = acting()
        state = state.with_model(replace(state.model("a0"), sorcerer=True, sorceries=(spell,), intellect=1))
        state = state.with_model(replace(state.model("b0"), body_mods=frozenset({"extra-organs"})))
        return sorcery.cast(state, "A", spell, Dice(15), 1, **kw)  # the sorcery's own test: a success, held open

    return prepare


def _cast_effect(*before):
    return lambda s, d: actions.resolve_test(s, "A", Dice(*before, *d.faces), 1)


def _splitting_ap():
    state = to_action(new(scenario="exploration"))
    state = replace(state, scenario=replace(state.scenario, complication="extreme-temperature"), phase=Phase.AP)
    state = replace(state, ap_assigned=frozenset(), first_seat="A")
    return with_hands(state)


def _damage_then_tough_it_out(state, dice):
    """4+4 = 8: Serious Injury; b0's player chooses to roll (B42), the test with ``dice``."""
    dice = Dice(4, 4, *dice.faces)
    return rolled_tio(actions.resolve_attack(state, "A", dice, 1), dice)


KINDS = {
    k.name: k
    for k in (
        Kind(
            "extreme temperature",
            _splitting_ap,
            lambda s, d: rounds.assign_ap(s, "A", {"a0": 3, "a1": 3, "a2": 3}, d, 1),
            "a0",
            "A",
            0,
        ),
        Kind("interact", acting, lambda s, d: actions.act(s, "A", "interact", d, 1, test="agility"), "a0", "A", 1),
        Kind(
            "fix",
            lambda: acting(jammed=frozenset({"pistol"})),
            lambda s, d: actions.act(s, "A", "fix", d, 1, item="pistol"),
            "a0",
            "A",
            1,
        ),
        Kind("on fire", lambda: acting(on_fire=True), lambda s, d: actions.act(s, "A", "move", d, 1), "a0", "A", 1),
        Kind(
            "catch fire",
            _shooting(FLAMER),
            lambda s, d: actions.resolve_attack(s, "A", Dice(1, 1, *d.faces), 1),
            "b0",
            "B",
            0,
        ),
        Kind(
            "tough it out",
            _shooting(PISTOL),
            _damage_then_tough_it_out,
            "b0",
            "B",
            1,
        ),
        Kind(
            "stagger",
            _shooting(MAUL, cn.Situation(stagger_into_obstacle=True)),
            lambda s, d: actions.resolve_attack(s, "A", Dice(1, *d.faces), 1),
            "b0",
            "B",
            1,
        ),
        Kind("trap", _exploring, lambda s, d: scenario_steps.explore(s, "A", Dice(2, *d.faces), 1), "a0", "A", 1),
        Kind(
            "terminal",
            acting,
            lambda s, d: scenario_steps.take_terminal(s, "A", 3, d, 1),
            "a0",
            "A",
            1,
        ),
        Kind(
            "pollen",
            lambda: at_morale(complication="hallucinogenic-pollen"),
            lambda s, d: morale.begin_morale(s, "A", d, 1),
            "a0",
            "A",
            1,
        ),
        Kind(
            "tremors",
            lambda: morale.begin_morale(at_morale(environment="tremors"), "A", Dice(), 1),
            lambda s, d: morale.end_morale(s, "A", d, 1),
            "a0",
            "A",
            1,
        ),
        Kind("sleep", _casting("sleep", target_id="b0"), _cast_effect(), "b0", "B", 0),
        Kind(
            "technomancy",
            _casting("technomancy", target_id="b0", body_mod="extra-organs"),
            _cast_effect(),
            "b0",
            "B",
            1,
        ),
        Kind("gut twist", _casting("gut-twist", target_id="b0"), _cast_effect(), "b0", "B", 1),
        Kind("kinesis", _casting("kinesis", target_id="b0"), _cast_effect(2), "b0", "B", 0),
        Kind("scream", _casting("scream", targets=["b0", "b1"]), _cast_effect(), "b0", "B", 1),
        Kind(
            "morale",
            lambda: morale.begin_morale(at_morale({"a0": 1}), "A", Dice(), 1),
            lambda s, d: morale.roll_morale(s, "A", "a0", 0, d, 1),
            "a0",
            "A",
            1,
        ),
    )
}
NAMES = list(KINDS)


def other(seat):
    return "B" if seat == "A" else "A"


def play_before(state, seat, card, model, sign=1):
    played = actions.play_before_test(state, seat, card, model, sign)
    return actions.answer_card(played, other(seat))  # the enemy lets it stand


def window(state, kind):
    top = state.pending[0]
    assert top.kind == "test" and top.model == kind.model and top.seat == kind.owner, top
    return top


def face_for(kind, wanted, delta=0):
    """A d20 face that gives ``wanted`` (a regular success or failure) with the kind's modifier, and not with
    ``delta`` more (a numbered card's)."""
    return next(
        f
        for f in range(2, 20)
        if cn.classify(f, kind.modifier) is wanted
        and (not delta or cn.classify(f, kind.modifier + delta) is not wanted)
    )


@pytest.mark.parametrize("name", NAMES)
def test_an_ace_played_before_passes_the_test_without_a_roll(name):
    kind = KINDS[name]
    state = play_before(kind.prepare(), kind.owner, HANDS[kind.owner][0], kind.model)
    rolled = kind.roll(state, Dice())  # no die is rolled for the test
    top = window(rolled, kind)
    assert top.get("outcome") == "success" and top.get("event") is None
    assert HANDS[kind.owner][0] in rolled.player(kind.owner).discard
    settled = settle(rolled)
    assert any(f"{top.get('what')} stands: success" in e.text for e in settled.log)


@pytest.mark.parametrize("name", NAMES)
def test_an_ace_is_played_on_ones_own_model_only(name):
    kind = KINDS[name]
    with pytest.raises(Refused, match="own models"):
        actions.play_before_test(kind.prepare(), other(kind.owner), HANDS[other(kind.owner)][0], kind.model)


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("by", ["owner", "enemy"])
def test_a_numbered_card_modifies_the_test_and_is_revealed_after_the_roll(name, by):
    kind = KINDS[name]
    seat = kind.owner if by == "owner" else other(kind.owner)
    card = HANDS[seat][1]
    sign = 1 if by == "owner" else -1
    wanted = cn.Outcome.FAILURE if by == "owner" else cn.Outcome.SUCCESS
    face = face_for(kind, wanted, sign * 5)  # the card turns it around
    state = play_before(kind.prepare(), seat, card, kind.model, sign)
    assert card not in state.player(seat).discard  # face down until the roll
    top = window(kind.roll(state, Dice(face)), kind)
    assert top.get("outcome") == cn.classify(face, kind.modifier + sign * 5).value != wanted.value
    assert top.get("event").modifier == kind.modifier + sign * 5


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("into", ["critical", "fumble"])
def test_a_jack_turns_a_regular_result_into_a_critical_or_a_fumble(name, into):
    kind = KINDS[name]
    regular = cn.Outcome.SUCCESS if into == "critical" else cn.Outcome.FAILURE
    seat = kind.owner if into == "critical" else other(kind.owner)  # an enemy may play it against the test
    rolled = kind.roll(kind.prepare(), Dice(face_for(kind, regular)))
    assert window(rolled, kind).get("outcome") == regular.value
    assert legal.Option("play_jack", (HANDS[seat][2], into)) in legal.legal(rolled, seat)
    with pytest.raises(Refused, match="regular"):
        actions.play_jack(rolled, seat, HANDS[seat][2], "fumble" if into == "critical" else "critical")
    jacked = actions.answer_card(actions.play_jack(rolled, seat, HANDS[seat][2], into), other(seat))
    assert window(jacked, kind).get("outcome") == into
    settled = settle(jacked)
    assert any(e.text.endswith(f"stands: {into}") for e in settled.log)


@pytest.mark.parametrize("name", NAMES)
def test_a_joker_counters_a_card_played_on_the_test_and_both_are_discarded(name):
    kind = KINDS[name]
    enemy = other(kind.owner)
    rolled = kind.roll(kind.prepare(), Dice(face_for(kind, cn.Outcome.FAILURE)))
    played = actions.play_jack(rolled, enemy, HANDS[enemy][2], "fumble")
    countered = actions.answer_card(played, kind.owner, HANDS[kind.owner][3])
    assert window(countered, kind).get("outcome") == "failure"
    assert HANDS[enemy][2] in countered.player(enemy).discard
    assert HANDS[kind.owner][3] in countered.player(kind.owner).discard
    ace = actions.play_before_test(kind.prepare(), kind.owner, HANDS[kind.owner][0], kind.model)
    countered = actions.answer_card(ace, enemy, HANDS[enemy][3])
    assert countered.armed == () and HANDS[kind.owner][0] in countered.player(kind.owner).discard
    assert window(kind.roll(countered, Dice(face_for(kind, cn.Outcome.FAILURE))), kind).get("outcome") == "failure"


def test_each_kinds_result_is_applied_after_the_window_with_the_final_outcome():
    interact = KINDS["interact"]
    rolled = interact.roll(interact.prepare(), Dice(5))
    assert rolled.model("a0").ap == 3  # nothing applied while the cards may change it
    jacked = actions.answer_card(actions.play_jack(rolled, "B", "J♠", "fumble"), "A")
    assert settle(jacked).model("a0").prone and settle(jacked).model("a0").ap == 2
    critical = actions.answer_card(
        actions.play_jack(interact.roll(interact.prepare(), Dice(15)), "A", "J♥", "critical"), "B"
    )
    assert settle(critical).model("a0").ap == 3  # "On a Critical the action doesn't cost any AP"
    mor = KINDS["morale"]
    state = mor.prepare().with_model(replace(mor.prepare().model("a0"), dread=2))
    rolled = mor.roll(state, Dice(15))
    assert rolled.pending[0].get("next") == "a0"  # its second test follows: cards may be played on it now
    critical = actions.answer_card(actions.play_jack(rolled, "A", "J♥", "critical"), "B")
    done = settle(critical, Dice(15))  # 2 Dread when its turn came: two tests (R25)
    assert done.model("a0").dread == 0 and done.morale_queue == ()
    tremors = KINDS["tremors"]
    fumbled = actions.answer_card(actions.play_jack(tremors.roll(tremors.prepare(), Dice(5)), "B", "J♠", "fumble"), "A")
    assert settle(fumbled, Dice(15, 15, 15, 15, 15)).model("a0").prone
    tio = KINDS["tough it out"]
    rolled = tio.roll(tio.prepare(), Dice(15))  # 4+4 = 8 Serious; Tough it Out 15+1 passes: a Light Injury
    saved = settle(rolled)
    assert saved.model("b0").wounds == 1 and not saved.model("b0").prone and saved.model("b0").dread == 0
    fumbled = actions.answer_card(actions.play_jack(tio.roll(tio.prepare(), Dice(5)), "A", "J♥", "fumble"), "B")
    hurt = settle(fumbled)  # a fumbled Tough it Out: one row up, Critical: Out of Action (its Queen window)
    assert hurt.pending[0].kind == "ooa" and hurt.model("b0").wounds == 1 and hurt.model("b0").dread == 1


def test_a_card_may_be_played_between_the_tests_of_one_step_on_the_next_tested_model():
    kind = KINDS["tremors"]
    rolled = kind.roll(kind.prepare(), Dice(15))
    nxt = rolled.pending[0].get("next")
    assert nxt == "a1"
    assert legal.Option("play_before_test", ("A♥", "a1")) in legal.legal(rolled, "A")
    assert legal.Option("play_before_test", ("5♠", "a1")) in legal.legal(rolled, "B")
    with pytest.raises(Refused, match="before an Attribute Test"):
        actions.play_before_test(rolled, "A", "A♥", "a2")  # not the next one
    armed = play_before(rolled, "A", "A♥", "a1")
    after = actions.resolve_test(armed, "A", Dice(), 1)  # a1's test: the Ace, no die
    assert after.pending[0].model == "a1" and after.pending[0].get("outcome") == "success"


def test_the_before_the_roll_cards_are_offered_at_each_tests_moment():
    def offered(state, seat):
        return {o.args for o in legal.legal(state, seat) if o.step == "play_before_test"}

    pollen = KINDS["pollen"].prepare()
    assert ("A♥", "a0") in offered(pollen, "A") and ("5♠", "a0") in offered(pollen, "B")
    assert ("A♠", "a0") not in offered(pollen, "B")  # an Ace on the enemy's test: never offered
    mor = KINDS["morale"].prepare()
    assert offered(mor, "A") == {("A♥", "a0"), ("5♥", "a0")} and offered(mor, "B") == {("5♠", "a0")}
    hit = KINDS["tough it out"].prepare()
    assert ("A♠", "b0") in offered(hit, "B") and ("5♥", "b0") in offered(hit, "A")
    fire = KINDS["on fire"].prepare()
    assert ("5♠", "a0") in offered(fire, "B")  # an enemy may worsen the acting model's next test


def test_the_odds_before_the_roll_count_the_card_the_viewer_may_know_of():
    state = KINDS["pollen"].prepare()
    plain = {t.model: t for t in next_tests.upcoming(state, "A")}
    assert (
        plain["a0"].passed
        == cn.hit_roll_distribution(1, False)[cn.Outcome.SUCCESS]
        + cn.hit_roll_distribution(1, False)[cn.Outcome.CRITICAL]
    )
    aced = play_before(state, "A", "A♥", "a0")
    assert {t.model: t for t in next_tests.upcoming(aced, "B")}["a0"].passed == 1  # an Ace is shown to all
    worse = play_before(state, "B", "5♠", "a0", -1)
    mine, theirs = ({t.model: t for t in next_tests.upcoming(worse, seat)}["a0"] for seat in ("B", "A"))
    assert mine.modifier == -4 and mine.passed < plain["a0"].passed and mine.card == "5♠ (-5)"
    assert theirs == plain["a0"]  # the face-down card of another player is not counted
    burning = KINDS["on fire"].prepare()
    assert [t.what for t in next_tests.upcoming(burning, "A")] == ["on Fire: Discipline"]


def test_cards_played_on_tests_are_reshuffled_into_a_new_deck_when_the_deck_runs_out():
    kind = KINDS["interact"]
    rolled = kind.roll(play_before(kind.prepare(), "A", "A♥", "a0"), Dice())
    player = replace(rolled.player("A"), deck=())
    assert player.discard == ("A♥",)
    drawn, count, reshuffled = fate.draw(player, 2, random.Random(3))
    assert reshuffled and count == 1 and drawn.hand[-1] == "A♥" and drawn.discard == ()


def test_a_hand_never_changes_what_another_player_is_offered_on_a_test():
    for kind in KINDS.values():
        for state in (kind.prepare(), kind.roll(kind.prepare(), Dice(face_for(kind, cn.Outcome.FAILURE)))):
            for seat in ("A", "B"):
                emptied = state.with_player(replace(state.player(other(seat)), hand=()))
                assert legal.legal(state, seat) == legal.legal(emptied, seat), (kind.name, seat)


def test_the_morale_phase_moves_on_only_when_every_window_is_closed():
    kind = KINDS["pollen"]
    rolled = kind.roll(kind.prepare(), Dice(15))
    assert rolled.phase is Phase.MORALE and rolled.morale_queue == ()
    with pytest.raises(Refused):
        morale.end_morale(rolled, "A", Dice(), 1)
    done = settle(rolled, Dice(15, 15, 15, 15, 15))
    assert done.pending == () and "Morale Tests, in order" in done.log[-1].text


def test_a_sorcerys_targets_test_one_by_one_and_the_final_result_is_applied():
    scream = KINDS["scream"]
    rolled = scream.roll(scream.prepare(), Dice(15))  # b0: 15 + 1, resists
    assert rolled.pending[0].get("next") == "b1" and not rolled.model("b0").prone
    assert legal.Option("play_before_test", ("5♥", "b1")) in legal.legal(rolled, "A")
    worse = play_before(rolled, "A", "5♥", "b1", -1)
    after_b0 = actions.resolve_test(worse, "B", Dice(12), 1)  # b1: 12 + 0 - 5 = 7: fails
    assert after_b0.pending[0].model == "b1" and after_b0.pending[0].get("outcome") == "failure"
    done = settle(after_b0)
    assert done.model("b1").prone and not done.model("b0").prone and done.pending == ()
    sleep = KINDS["sleep"]
    passed = sleep.roll(sleep.prepare(), Dice(15))
    assert not settle(passed).model("b0").asleep
    fumbled = actions.answer_card(actions.play_jack(sleep.roll(sleep.prepare(), Dice(5)), "A", "J♥", "fumble"), "B")
    assert settle(fumbled).model("b0").asleep
    tech = KINDS["technomancy"]
    assert settle(tech.roll(tech.prepare(), Dice(5))).model("b0").body_mods == frozenset()


def test_a_hit_no_attack_made_holds_its_tough_it_out_open_for_the_cards():
    state = KINDS["tremors"].prepare()
    state = replace(state, scenario=replace(state.scenario, environment=None))
    state = state.with_model(replace(state.model("b0"), on_fire=True))
    dice = Dice(3, 15)  # Damage 1: 3 = Light; its player tries to Tough it Out (B42): 15 + 1 passes
    burnt = rolled_tio(morale.end_morale(state, "A", dice, 1), dice)
    top = burnt.pending[0]
    assert top.kind == "test" and top.model == "b0" and top.get("outcome") == "success"
    assert codec.loads(codec.dumps(burnt)) == burnt  # the held hit is stored with the battle
    jacked = actions.answer_card(actions.play_jack(burnt, "A", "J♥", "critical"), "B")
    assert settle(jacked).model("b0").wounds == 0  # a Critical Tough it Out: two rows down
    fumbled = actions.answer_card(
        actions.play_jack(rolled_tio(morale.end_morale(state, "A", dice := Dice(3, 5), 1), dice), "A", "J♥", "fumble"),
        "B",
    )
    burned = settle(fumbled)  # a Fumble: one row up, Serious: a Wound and Prone, and 1 Dread
    assert burned.model("b0").wounds == 1 and burned.model("b0").prone and burned.model("b0").dread == 1
    assert burned.phase is Phase.ROUND_END


def test_a_model_asleep_is_offered_no_reaction_when_missed():
    state = acting()
    state = state.with_model(replace(state.model("b0"), asleep=True))
    missed = actions.resolve_attack(actions.attack(state, "A", "pistol", "b0", Dice(5), 1), "A", Dice(), 1)
    assert not any(p.kind == "reaction" for p in missed.pending)  # Sleep: "cannot perform Reactions this round"
    awake = actions.resolve_attack(actions.attack(acting(), "A", "pistol", "b0", Dice(5), 1), "A", Dice(), 1)
    assert awake.pending[0].kind == "reaction"


def test_the_attack_odds_count_a_card_on_the_targets_tough_it_out_when_the_viewer_may_know_it():
    from rules.cybernekro.battle import odds_table

    state = acting()

    def cell(s, seat):
        return next(c for c in odds_table.weapon_odds(s, "a0", seat=seat) if c.weapon == "pistol" and c.target == "b0")

    plain = cell(state, "A").odds
    aced = cell(replace(state, armed=(("B", "b0", "A♠", 0),)), "A").odds  # an Ace: shown to all
    worse = replace(state, armed=(("A", "b0", "5♥", -5),))
    mine, theirs = cell(worse, "A").odds, cell(worse, "B").odds
    assert aced.to_hit == plain.to_hit and mine.to_hit == plain.to_hit  # the hit roll is a0's, not b0's
    ooa = cn.TargetState.OUT_OF_ACTION
    assert aced.target[ooa] < plain.target[ooa] < mine.target[ooa]
    assert theirs == plain  # B does not know A's face-down card
    assert sum(mine.target.values()) == 1
    planned = actions.plan(state, state.model("a0"), "pistol", state.model("b0"))[1]
    by_hand = cn.attack_odds_for_plan(
        replace(planned, hit=replace(planned.hit, toughness=planned.hit.toughness - 5))
    )  # with no Extra organs or Stagger, the first test of the hit is its Tough it Out
    assert mine == by_hand


def test_extreme_temperatures_odds_are_shown_while_the_ap_are_split_and_between_its_tests():
    kind = KINDS["extreme temperature"]
    state = kind.prepare()
    before = {t.model: t for t in next_tests.upcoming(state, "B")}
    assert set(before) == {"a0", "a1", "a2"} and before["a0"].what.startswith("extreme temperature: Toughness")
    aced = play_before(state, "A", "A♥", "a1")
    rolled = kind.roll(aced, Dice(15))
    assert rolled.pending[0].get("next") == "a1"
    assert [(t.model, t.passed) for t in next_tests.upcoming(rolled, "B")] == [("a1", 1)]  # the Ace shown to all
