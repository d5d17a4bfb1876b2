"""soylent/services.py: creating, dealing, re-dealing and editing drone sets."""

import random
from collections import Counter

import pytest

from games.soylent_ghoul.sets import services
from games.soylent_ghoul.sets.models import CODE_ALPHABET, Drone, DroneSet, Token
from tests.games.soylent_ghoul.sets.conftest import codes, truth


def test_a_new_set_has_four_drones_of_five_tokens_with_one_true_each(drone_set):
    assert drone_set.crew.system.slug == "soylent-ghoul"
    assert drone_set.group == "gardeners"
    drones = list(drone_set.drones.all())
    assert [d.name for d in drones] == ["Drone 1", "Drone 2", "Drone 3", "Drone 4"]
    for drone in drones:
        tokens = list(drone.tokens.all())
        assert len(tokens) == 5
        assert sum(t.is_true for t in tokens) == 1
        assert [t.position for t in tokens] == [0, 1, 2, 3, 4]
    all_codes = codes(drone_set)
    assert len(all_codes) == len(set(all_codes)) == 20
    assert all(len(c) == 4 and set(c) <= set(CODE_ALPHABET) for c in all_codes)


def test_named_drones_and_counts(make_set, user):
    named = services.create_drone_set(user, "Gazers", "eyes", ["Iris", "Lid"])
    assert [d.name for d in named.drones.all()] == ["Iris", "Lid"]
    six = services.create_drone_set(user, "Six", "mannikins", count=6)
    assert six.drones.count() == 6 and Token.objects.filter(drone__drone_set=six).count() == 30


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"name": "", "group": "eyes"}, "Set name must not be empty"),
        ({"name": "x" * 101, "group": "eyes"}, "longer than 100"),
        ({"name": "Bad\u202eName", "group": "eyes"}, "control character"),
        ({"name": "Ok", "group": "vampires"}, "Choose a Ghoul group"),
        ({"name": "Ok", "group": "eyes", "count": 0}, "from 1 to 12"),
        ({"name": "Ok", "group": "eyes", "count": 13}, "from 1 to 12"),
        ({"name": "Ok", "group": "eyes", "drone_names": ["A", ""]}, "Drone name must not be empty"),
    ],
)
def test_bad_input_is_refused_and_stores_nothing(catalogue, user, kwargs, message):
    with pytest.raises(services.DroneSetError, match=message):
        services.create_drone_set(user, **kwargs)
    assert not DroneSet.objects.exists()


def test_imported_codes_and_true_tokens_are_kept(catalogue, user):
    tokens = [["AAAA", "BBBB", "CCCC", "DDDD", "EEEE"], ["FFFF", "GGGG", "HHHH", "JJJJ", "KKKK"]]
    drone_set = services.create_drone_set(user, "Kept", "eyes", ["A", "B"], tokens=tokens, true_tokens=["CCCC", None])
    assert codes(drone_set) == tokens[0] + tokens[1]
    found = truth(drone_set)
    assert found["A"] == "CCCC" and found["B"] in tokens[1]


@pytest.mark.parametrize(
    "tokens, true_tokens, message",
    [
        ([["AAAA", "BBBB", "CCCC", "DDDD"]], None, "5 tokens"),
        ([["AAAA", "BBBB", "CCCC", "DDDD", "SSSS"]], None, "5 tokens"),  # S is not in the code alphabet
        ([["AAAA", "AAAA", "CCCC", "DDDD", "EEEE"]], None, "different"),
        ([["AAAA", "BBBB", "CCCC", "DDDD", "EEEE"]], ["FFFF"], "not one of its tokens"),
    ],
)
def test_bad_imported_tokens_are_refused(catalogue, user, tokens, true_tokens, message):
    with pytest.raises(services.DroneSetError, match=message):
        services.create_drone_set(user, "Bad", "eyes", ["A"], tokens=tokens, true_tokens=true_tokens)
    assert not Token.objects.exists()


def test_redeal_keeps_codes_keeps_one_true_token_per_drone_and_stamps_the_deal(drone_set):
    before_codes, before_dealt = codes(drone_set), drone_set.dealt_at
    seen = set()
    for _ in range(12):
        services.redeal(drone_set)
        assert codes(drone_set) == before_codes
        for drone in drone_set.drones.all():
            assert drone.tokens.filter(is_true=True).count() == 1
        seen.add(tuple(sorted(truth(drone_set).items())))
    assert len(seen) > 1, "12 deals of 4 drones all alike: the deal is not random"
    drone_set.refresh_from_db()
    assert drone_set.dealt_at > before_dealt


def test_redeal_can_leave_a_true_token_where_it_was(drone_set, monkeypatch):
    # Every token is a candidate, the old true one included (no "it moved" tell).
    monkeypatch.setattr(services, "_deal", random.Random(1))
    old = truth(drone_set)
    stayed = 0
    for _ in range(30):
        services.redeal(drone_set)
        new = truth(drone_set)
        stayed += sum(old[name] == new[name] for name in old)
        old = new
    assert stayed > 0


def test_true_place_and_code_carry_no_tell(make_set, user):
    """Over many deals the true token sits at every place and at every rank of
    its code equally often (800 drones: each of 5 cells expects 160)."""
    places, ranks = Counter(), Counter()
    for i in range(200):
        drone_set = make_set(user, name=f"Set {i}")
        for drone in Drone.objects.filter(drone_set=drone_set).prefetch_related("tokens"):
            tokens = list(drone.tokens.all())
            true = next(t for t in tokens if t.is_true)
            places[true.position] += 1
            ranks[sorted(t.code for t in tokens).index(true.code)] += 1
    for counter in (places, ranks):
        assert set(counter) == {0, 1, 2, 3, 4}
        # a chi-square of 5 cells at p = 0.0001 is 23.5; a fixed place would score 3200
        chi2 = sum((n - 160) ** 2 / 160 for n in counter.values())
        assert chi2 < 23.5, counter


def test_token_ids_follow_places_not_truth(drone_set):
    for drone in drone_set.drones.all():
        ids = [t.pk for t in drone.tokens.order_by("position")]
        assert ids == sorted(ids)


def test_rename_group_add_rename_remove(drone_set):
    version = drone_set.crew.version
    services.rename(drone_set, "  Lanterns  ")
    services.set_group(drone_set, "eyes")
    added = services.add_drone(drone_set, "")
    assert added.name == "Drone 5" and added.tokens.count() == 5 and added.tokens.filter(is_true=True).count() == 1
    services.rename_drone(drone_set, added.pk, "Wick")
    first = drone_set.drones.first()
    services.remove_drone(drone_set, first.pk)
    drone_set = DroneSet.objects.select_related("crew").get(pk=drone_set.pk)
    assert drone_set.crew.name == "Lanterns" and drone_set.group == "eyes"
    assert [d.name for d in drone_set.drones.all()] == ["Drone 2", "Drone 3", "Drone 4", "Wick"]
    assert drone_set.crew.version > version
    assert len(set(codes(drone_set))) == 20


def test_limits_of_editing(catalogue, user):
    one = services.create_drone_set(user, "Lonely", "eyes", count=1)
    with pytest.raises(services.DroneSetError, match="at least one drone"):
        services.remove_drone(one, one.drones.get().pk)
    full = services.create_drone_set(user, "Full", "eyes", count=services.MAX_DRONES)
    with pytest.raises(services.DroneSetError, match="at most"):
        services.add_drone(full)
    with pytest.raises(services.DroneSetError, match="not in this set"):
        services.rename_drone(one, full.drones.first().pk, "Stolen")
    with pytest.raises(services.DroneSetError, match="not in this set"):
        services.remove_drone(full, "nonsense")
    with pytest.raises(services.DroneSetError, match="Ghoul group"):
        services.set_group(one, "vampires")


def test_change_guards_can_lock_a_set_in_play(drone_set, monkeypatch):
    monkeypatch.setattr(services, "CHANGE_GUARDS", [lambda s: "This set is in a game in progress."])
    before = truth(drone_set)
    for change in (services.redeal, services.add_drone, services.delete):
        with pytest.raises(services.DroneSetError, match="in a game"):
            change(drone_set)
    assert truth(drone_set) == before and DroneSet.objects.filter(pk=drone_set.pk).exists()


def test_sharing_and_delete(drone_set):
    services.set_sharing(drone_set, True)
    drone_set.crew.refresh_from_db()
    token = drone_set.crew.share_token
    assert token and services.shared_set(token).pk == drone_set.pk
    services.set_sharing(drone_set, False)
    assert services.shared_set(token) is None
    assert services.shared_set("") is None and services.shared_set("x" * 65) is None
    services.delete(drone_set)
    assert not DroneSet.objects.exists() and not Token.objects.exists()


def test_public_view_has_no_truth_in_it(drone_set):
    view = services.public_view(drone_set)
    assert [d.codes for d in view["drones"]] == [codes(drone_set)[i : i + 5] for i in range(0, 20, 5)]
    for drone in view["drones"]:
        assert set(vars(drone)) == {"pk", "number", "name", "codes"}
    assert "true" not in repr(view).lower()
    key = services.owner_key(drone_set)
    assert {k["name"]: k["true_token"] for k in key} == truth(drone_set)
