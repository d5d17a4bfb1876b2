"""Issue 20: a stepper click on the crew as the editor kept it writes without reading the crew or the character,
and falls back to the usual edit whenever the stored rows are not what was kept."""

import json
import re

import pytest
from django.core.cache import cache
from django.db.models import F
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from crewbuilder import crew_edits, crew_loading, editor_cache, editor_shared
from crewbuilder.models import Character, Crew, GameSystem

HX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture(autouse=True)
def nothing_kept():
    editor_cache.forget_all()  # another test's crew may have had the same id and version


@pytest.fixture
def opened(client, user, geared_crew):
    """A crew of 3 whose editor the player has open (so this process keeps it at its version)."""
    crew = geared_crew(user, 3)
    client.force_login(user)
    assert client.get(reverse("crew-edit", args=[crew.pk])).status_code == 200
    crew.refresh_from_db()
    return crew


def _step(client, crew, character, delta, version=None, attribute="agility"):
    data = {"current_version": crew.version if version is None else version, "character": character.pk}
    data["step"] = f"{attribute}:{delta}"
    return client.post(reverse("crew-edit-action", args=[crew.pk, "attribute"]), data, **HX)


def _first(crew) -> Character:
    return crew.characters.order_by("position").first()


def test_the_kept_crew_is_the_one_the_editor_drew(opened, user):
    kept = editor_cache.kept_crew(opened.pk, opened.version, user.pk)
    assert kept is not None
    crew, characters = kept
    assert (crew.pk, crew.version, crew.updated_at, crew.name) == (
        opened.pk,
        opened.version,
        opened.updated_at,
        opened.name,
    )
    assert [c.pk for c in characters] == list(opened.characters.order_by("position").values_list("pk", flat=True))


@pytest.mark.parametrize("version_offset", [-1, 1])
def test_nothing_is_kept_for_another_version_or_another_player(opened, user, other_user, version_offset):
    assert editor_cache.kept_crew(opened.pk, opened.version + version_offset, user.pk) is None
    assert editor_cache.kept_crew(opened.pk, opened.version, other_user.pk) is None
    assert editor_cache.kept_crew(opened.pk, None, user.pk) is None


def test_a_step_writes_the_stored_value_plus_one_and_leaves_the_kept_row_as_it_was(client, opened, user):
    character = _first(opened)
    _, kept_characters = editor_cache.kept_crew(opened.pk, opened.version, user.pk)
    kept = next(c for c in kept_characters if c.pk == character.pk)
    response = _step(client, opened, character, 1)
    assert response.status_code == 200
    assert f'id="base-agility-{character.pk}">{character.agility + 1:+d}<' in response.content.decode()
    character.refresh_from_db()
    assert character.agility == kept.agility + 1
    assert Crew.objects.get(pk=opened.pk).version == opened.version + 1
    # Another request reading the version before still finds it as it was.
    assert next(c for c in kept_characters if c.pk == character.pk).agility == character.agility - 1
    # The next click is on the version the answer carried, kept in its turn.
    assert editor_cache.kept_crew(opened.pk, opened.version + 1, user.pk) is not None


def test_a_crew_saved_elsewhere_since_is_read_again(client, opened):
    """An admin save moves ``updated_at`` but not the version: the answer shows the crew as stored."""
    Crew.objects.filter(pk=opened.pk).update(budget=151, updated_at=timezone.now())
    character = _first(opened)
    response = _step(client, opened, character, 1)
    assert response.status_code == 200
    assert "/ 151 pt" in response.content.decode()
    character.refresh_from_db()
    assert character.agility == _first(Crew.objects.get(pk=opened.pk)).agility


def test_a_character_changed_without_a_new_version_is_stepped_from_its_stored_value(client, opened):
    character = _first(opened)
    Character.objects.filter(pk=character.pk).update(agility=character.agility - 2)
    assert _step(client, opened, character, 1).status_code == 200
    assert Character.objects.get(pk=character.pk).agility == character.agility - 1


def test_the_write_checks_the_owner_the_catalogue_and_the_stored_value(opened, user, other_user):
    crew, characters = editor_cache.kept_crew(opened.pk, opened.version, user.pk)
    character = characters[0]

    def attempt(owner_id):
        return crew_edits.set_kept_attribute(crew, character, owner_id, opened.version, attribute="agility", delta=1)

    assert attempt(other_user.pk) is False
    GameSystem.objects.filter(pk=opened.system_id).update(catalogue_version=F("catalogue_version") + 1)
    assert attempt(user.pk) is False
    GameSystem.objects.filter(pk=opened.system_id).update(catalogue_version=F("catalogue_version") - 1)
    Character.objects.filter(pk=character.pk).update(agility=character.agility + 1)
    assert attempt(user.pk) is False
    stored = Crew.objects.get(pk=opened.pk)
    assert (stored.version, stored.updated_at) == (opened.version, opened.updated_at)  # every refusal wrote nothing
    assert Character.objects.get(pk=character.pk).agility == character.agility + 1
    Character.objects.filter(pk=character.pk).update(agility=character.agility)
    assert attempt(user.pk) is True
    assert Character.objects.get(pk=character.pk).agility == character.agility + 1


def test_another_player_posting_to_the_crew_gets_a_404(client, opened, other_user):
    client.force_login(other_user)
    character = _first(opened)
    assert _step(client, opened, character, 1).status_code == 404
    assert Character.objects.get(pk=character.pk).agility == character.agility
    assert Crew.objects.get(pk=opened.pk).version == opened.version


def test_a_stale_page_gets_the_conflict_answer(client, opened):
    character = _first(opened)
    assert _step(client, opened, character, 1).status_code == 200
    again = _step(client, opened, character, 1, version=opened.version)  # the same click, from the old page
    assert again.status_code == 409
    assert Character.objects.get(pk=character.pk).agility == character.agility + 1


def test_a_step_past_the_limit_is_refused_with_the_usual_message(client, opened):
    character = _first(opened)
    high = crew_edits.ATTRIBUTE_STORAGE_RANGE[1]
    Character.objects.filter(pk=character.pk).update(agility=high)
    Crew.objects.filter(pk=opened.pk).update(version=F("version") + 1)  # as every edit does
    opened.refresh_from_db()
    client.get(reverse("crew-edit", args=[opened.pk]))  # kept at that version
    response = _step(client, opened, character, 1)
    assert response.status_code == 422
    assert f"Agility cannot go below {crew_edits.ATTRIBUTE_STORAGE_RANGE[0]} or above {high}." in (
        response.content.decode()
    )
    assert Character.objects.get(pk=character.pk).agility == high
    assert Crew.objects.get(pk=opened.pk).version == opened.version


def test_a_character_not_in_the_kept_crew_is_left_to_the_usual_edit(client, opened, user, geared_crew):
    other_crew = geared_crew(user, 3)
    stranger = _first(other_crew)
    response = _step(client, opened, stranger, 1)
    assert response.status_code == 422
    assert crew_edits.CHARACTER_GONE in response.content.decode()
    assert Character.objects.get(pk=stranger.pk).agility == stranger.agility


# --- another worker's crew (editor_shared.py) -------------------------------------------------------------------


def _choices(character) -> list:
    return [
        [
            (row.pk, row.position, getattr(row, entry).pk, getattr(row, entry).name)
            for row in getattr(character, name).all()
        ]
        for name, _, entry, _ in crew_loading.CHOICES
    ]


def _as_loaded(characters) -> list:
    fields = [f.attname for f in Character._meta.concrete_fields]
    return [([getattr(c, f) for f in fields], _choices(c), c.crew.pk) for c in characters]


def test_a_worker_that_never_drew_the_crew_takes_it_from_the_shared_record(opened, user):
    editor_cache.forget_all()  # this worker's memory: another worker drew the editor
    crew, characters = editor_cache.kept_crew(opened.pk, opened.version, user.pk)
    fresh = Crew.objects.select_related("system").get(pk=opened.pk)
    loaded = crew_loading.load_characters(fresh)
    assert [getattr(crew, f.attname) for f in Crew._meta.concrete_fields] == [
        getattr(fresh, f.attname) for f in Crew._meta.concrete_fields
    ]
    assert (crew.system.pk, crew.system.catalogue_version) == (fresh.system.pk, fresh.system.catalogue_version)
    assert _as_loaded(characters) == _as_loaded(loaded)


def test_the_view_after_steps_taken_by_turns_in_two_workers_is_the_view_worked_out_afresh(client, opened, user):
    from crewbuilder import crew_service

    first, second = opened.characters.order_by("position")[:2]
    for n, (character, attribute, delta) in enumerate([(first, "agility", 1), (second, "strength", -1)] * 2):
        editor_cache.forget_all()  # each click lands on a worker that did not answer the one before
        response = _step(client, opened, character, delta, version=opened.version + n, attribute=attribute)
        assert response.status_code == 200
        kept = Crew.objects.select_related("system").get(pk=opened.pk)
        assert kept.version == opened.version + n + 1
        editor_cache.load_characters(kept)
        fresh = Crew.objects.with_everything().get(pk=opened.pk)
        assert editor_cache.view_for(kept) == crew_service.crew_view(fresh)
    assert Character.objects.get(pk=first.pk).agility == first.agility + 2


def test_a_shared_record_of_another_version_or_unreadable_is_not_used(client, opened, user):
    editor_cache.forget_all()
    assert editor_shared.take(opened.pk, opened.version + 1) is None
    cache.set(editor_shared.cache_key(opened.pk), {"crew": [opened.pk]})
    assert editor_shared.take(opened.pk, opened.version) is None
    character = _first(opened)
    assert _step(client, opened, character, 1).status_code == 200  # the usual path
    assert Character.objects.get(pk=character.pk).agility == character.agility + 1


def test_a_shared_record_older_than_the_stored_crew_is_only_a_hint(client, opened):
    """The record names the version, but an admin save since moved ``updated_at``: the edit reads again."""
    editor_cache.forget_all()
    Crew.objects.filter(pk=opened.pk).update(budget=152, updated_at=timezone.now())
    Character.objects.filter(pk=_first(opened).pk).update(agility=-1)
    response = _step(client, opened, _first(opened), 1)
    assert response.status_code == 200 and "/ 152 pt" in response.content.decode()
    assert Character.objects.get(pk=_first(opened).pk).agility == 0


_MEMORY = [
    (editor_cache, ("_characters", "_latest", "_views", "_latest_views", "_html", "_shown_pieces")),
    (editor_shared, ("_records",)),
]


def _worker(monkeypatch, memory: dict) -> None:
    """Make this process one gunicorn worker of several: its own editor memory (the shared cache is shared)."""
    for module, names in _MEMORY:
        for name in names:
            monkeypatch.setattr(module, name, memory.setdefault((module.__name__, name), {}))


def test_a_worker_keeping_an_older_version_takes_the_record_and_keeps_its_unchanged_characters(
    client, opened, user, monkeypatch
):
    from crewbuilder import crew_service

    first, second, third = opened.characters.order_by("position")[:3]
    a, b = {}, {}
    _worker(monkeypatch, b)
    editor_cache.kept_crew(opened.pk, opened.version, user.pk)  # b keeps the version the page was drawn at
    _, b_before = editor_cache.kept_crew(opened.pk, opened.version, user.pk)
    clicks = [(a, first, "agility", 1), (a, first, "agility", 1), (b, second, "strength", -1), (a, third, "agility", 1)]
    for n, (memory, character, attribute, delta) in enumerate(clicks):
        _worker(monkeypatch, memory)
        response = _step(client, opened, character, delta, version=opened.version + n, attribute=attribute)
        assert response.status_code == 200
        kept = Crew.objects.select_related("system").get(pk=opened.pk)
        editor_cache.load_characters(kept)
        fresh = Crew.objects.with_everything().get(pk=opened.pk)
        assert editor_cache.view_for(kept) == crew_service.crew_view(fresh)
        if n == 2:
            # b kept the version before the two steps of ``first``: it builds ``first`` from the record, keeps
            # ``third`` as it was, and the step made a new ``second``
            _, b_after = editor_cache.kept_crew(opened.pk, opened.version + 3, user.pk)
            assert [b_after[i] is b_before[i] for i in range(3)] == [False, False, True]
            assert _as_loaded(b_after) == _as_loaded(crew_loading.load_characters(fresh))
    stored = {c.pk: c for c in Character.objects.filter(crew=opened)}
    assert stored[first.pk].agility == first.agility + 2
    assert stored[second.pk].strength == second.strength - 1
    assert stored[third.pk].agility == third.agility + 1


def test_a_character_changed_by_another_edit_is_not_taken_from_an_older_version(client, opened, user, monkeypatch):
    """Its row is the same but a choice changed (another worker's edit): built from the record, not kept."""
    first = _first(opened)
    a, b = {}, {}
    _worker(monkeypatch, b)
    _, b_before = editor_cache.kept_crew(opened.pk, opened.version, user.pk)
    _worker(monkeypatch, a)
    gear = first.gear.first()
    response = client.post(
        reverse("crew-edit-action", args=[opened.pk, "remove-gear"]),
        {"current_version": opened.version, "character": first.pk, "row": gear.pk},
        **HX,
    )
    assert response.status_code == 200, response.content
    second = opened.characters.order_by("position")[1]
    assert _step(client, opened, second, 1, version=opened.version + 1).status_code == 200  # a, shared again
    _worker(monkeypatch, b)
    _, b_after = editor_cache.kept_crew(opened.pk, opened.version + 2, user.pk)
    assert [b_after[i] is b_before[i] for i in range(3)] == [False, False, True]
    assert _choices(b_after[0]) != _choices(b_before[0])
    fresh = Crew.objects.select_related("system").get(pk=opened.pk)
    assert _as_loaded(b_after) == _as_loaded(crew_loading.load_characters(fresh))


def test_steps_back_and_forth_show_each_value_from_the_kept_rows(client, opened):
    """The attribute rows are kept HTML by their numbers: going back to a value shows that value again."""
    character = _first(opened)
    start = character.agility
    for n, delta in enumerate([1, -1, 1, -1]):
        response = _step(client, opened, character, delta, version=opened.version + n)
        assert response.status_code == 200
        value = start + (1 if delta == 1 else 0)
        body = response.content.decode()
        assert f'id="base-agility-{character.pk}">{value:+d}<' in body
        assert f'id="effective-agility-{character.pk}">' in body
    assert Character.objects.get(pk=character.pk).agility == start


def test_steps_answer_without_a_token_field_and_the_page_token_in_the_header_keeps_working(user, geared_crew):
    """The swapped-in attributes carry no csrfmiddlewaretoken (masking one per click cost 40 µs): htmx sends the
    token of the page's <body hx-headers> with each click, and CSRF is checked as in production."""
    crew = geared_crew(user, 3)
    character = _first(crew)
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(user)
    page = browser.get(reverse("crew-edit", args=[crew.pk]), {"open": character.pk}).content.decode()
    headers = json.loads(re.search(r"<body hx-headers='([^']+)'", page).group(1))
    attributes = page[page.index(f'id="attributes-{character.pk}"') :]
    assert 'name="csrfmiddlewaretoken"' in attributes[: attributes.index("</form>")]  # the page works without JS

    url = reverse("crew-edit-action", args=[crew.pk, "attribute"])
    for n, delta in enumerate([1, 1, -1]):
        data = {"current_version": crew.version + n, "character": character.pk, "step": f"agility:{delta}"}
        response = browser.post(url, data, HTTP_X_CSRFTOKEN=headers["X-CSRFToken"], **HX)
        assert response.status_code == 200
        swapped = response.content.decode()
        assert "csrfmiddlewaretoken" not in swapped[: swapped.index("</form>")]
    assert Character.objects.get(pk=character.pk).agility == character.agility + 1

    forged = {"current_version": crew.version + 3, "character": character.pk, "step": "agility:1"}
    assert browser.post(url, forged, **HX).status_code == 403  # without the header: refused
    assert Character.objects.get(pk=character.pk).agility == character.agility + 1
