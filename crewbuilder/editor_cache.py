"""The editor's crew: its characters and every choice, loaded once per crew version.

Every change to a crew's characters goes through ``crew_edits.claim_version``
(or the campaign's services, which bump the version too), so a crew's
characters are the same for as long as its version, ``updated_at`` and the
catalogue version are. The editor then reads one row (the crew) and takes its
characters from this process's memory instead of four queries and their ORM
work on every page and card; what the editor and a card draw is kept the same
way (``rendered``). An htmx edit keeps the characters for the version it
claimed (``load_after_edit``), so the next page or card of that crew costs no
more than a repeat look; and when the version before it is kept here, the edit
reads again only the character it wrote (its choices, if they changed; its row
is the one the edit saved), the others being the same rows as one version before.

Memory, not Django's cache: the key names the version, so a kept piece is never
stale and nothing needs to be shared; reading it back costs no unpickling, and
keeping it no file write (the cache is files by default, and Django's file cache
lists its whole folder on every write). A worker that has not seen a version
draws it once. ``created_at`` is in the key because SQLite may give a deleted
crew's id again. Kept characters are shared by the requests that read that
version (gunicorn's workers are processes of one thread): the editor only reads
them, and each request hands them its own crew row.
"""

from __future__ import annotations

import copy

from django.middleware.csrf import get_token

from crewbuilder import crew_edits, crew_loading, crew_service, editor_shared
from crewbuilder.editor_fragments import CSRF_MARK
from crewbuilder.models import Character, Crew

MAX_CREWS = 256
MAX_PIECES = 512  # the editor (each open character) and the cards: up to ~30 KB each

_characters: dict[str, list[Character]] = {}
# crew pk -> (version, created_at, catalogue version, characters, crew row or None): the crew's last kept
# characters, and its own row when it is not a campaign copy (``kept_crew``)
_latest: dict[int, tuple] = {}
_views: dict[str, dict] = {}
# crew pk -> [(version, view)]: the crew's last two views worked out here, to tell what an edit changed
_latest_views: dict[int, list[tuple[int, dict]]] = {}
_html: dict[str, str] = {}
# crew pk -> (version, {character pk: {piece: key}}): the pieces a version another worker worked out shows
_shown_pieces: dict[int, tuple[int, dict]] = {}
# The pieces of a character an edit may change besides its card (``shown_before``, ``changed``).
PIECES = ("findings_key", "choices_key", "weapons_key")


def _key(crew: Crew) -> str:
    return (
        f"crew-editor:{crew.pk}:{crew.version}:{crew.updated_at.timestamp()}:"
        f"{crew.created_at.timestamp()}:{crew.system.catalogue_version}"
    )


def _attach(crew: Crew, characters: list[Character]) -> None:
    for character in characters:
        Character.crew.field.set_cached_value(character, crew)
    queryset = crew_loading.prefetched(Character, characters)
    if not hasattr(crew, "_prefetched_objects_cache"):
        crew._prefetched_objects_cache = {}
    crew._prefetched_objects_cache["characters"] = queryset


def load_characters(crew: Crew) -> None:
    """Give ``crew`` its characters with every choice, as ``Crew.objects.with_everything()`` does."""
    characters = _characters.get(_key(crew))
    if characters is None:
        load_fresh(crew)
    else:
        _attach(crew, characters)


def load_fresh(crew: Crew) -> None:
    """Load ``crew``'s characters from the database (four queries) and keep them for its current version."""
    remember(crew, crew_loading.load_characters(crew))


# Edits that write the edited character's own row and nothing else (crew_edits.CHARACTER_EDITS write only that
# character's row or its choices).
ROW_EDITS = frozenset({"attribute", "character"})


def load_after_edit(crew: Crew, action: str, character_id) -> None:
    """After an edit that claimed ``crew.version``: its characters, kept for that version.

    A one-character edit made on the version kept here (the one just before) reads only that character
    again; anything else (another edit, a version this process has not seen) reads them all."""
    kept = _latest.get(crew.pk)
    target = int(character_id) if str(character_id or "").isdigit() else None
    same_crew = kept is not None and kept[:3] == (crew.version - 1, crew.created_at, crew.system.catalogue_version)
    if action in crew_edits.CHARACTER_EDITS and target is not None and same_crew:
        before = next((c for c in kept[3] if c.pk == target), None)
        row_only = action in ROW_EDITS
        saved = crew.__dict__.get("saved_characters", {}).get(target) if row_only else None  # as the edit wrote it
        fresh = (saved or crew_loading.reload_character(crew, target, choices=not row_only)) if before else None
        if fresh is not None:
            if row_only:  # its choices are the rows kept one version before (read only, shared)
                fresh._prefetched_objects_cache = dict(before._prefetched_objects_cache)
            characters = [fresh if c.pk == target else c for c in kept[3]]
            _attach(crew, characters)
            remember(crew, characters)
            return
    load_fresh(crew)


def remember(crew: Crew, characters: list[Character]) -> None:
    if len(_characters) >= MAX_CREWS:
        _characters.clear()  # bounded: each crew is loaded again once
        _latest.clear()
        _shown_pieces.clear()
    _characters[_key(crew)] = characters
    _latest[crew.pk] = (crew.version, crew.created_at, crew.system.catalogue_version, characters, _row_of(crew))


_CAMPAIGN_ENTRY = Crew._meta.get_field("campaign_entry")


def _row_of(crew: Crew) -> Crew | None:
    """A copy of the crew's own row (its system shared), when it is known not to be a campaign copy."""
    if not _CAMPAIGN_ENTRY.is_cached(crew) or _CAMPAIGN_ENTRY.get_cached_value(crew) is not None:
        return None
    row = Crew(**{field.attname: getattr(crew, field.attname) for field in Crew._meta.concrete_fields})
    row._state.adding, row._state.db = False, crew._state.db
    Crew.system.field.set_cached_value(row, crew.system)
    _CAMPAIGN_ENTRY.set_cached_value(row, None)
    return row


def kept_crew(pk: int, version: int | None, user_id) -> tuple[Crew, list[Character]] | None:
    """The user's crew ``pk`` and its characters as kept here at ``version`` (a crew row of its own for the
    request), or None. Only a hint for ``crew_edits.set_kept_attribute``, whose writes check the stored rows."""
    if version is None:
        return None
    kept = _latest.get(pk)
    if kept is None or kept[0] != version:  # another worker may have kept it
        shared = editor_shared.take(pk, version, known=kept[1:4] if kept is not None else None)
        if shared is None:
            return None
        crew, characters, pieces = shared
        _CAMPAIGN_ENTRY.set_cached_value(crew, None)  # only a crew that is not a campaign copy is shared
        remember(crew, characters)
        _shown_pieces[pk] = (version, pieces)
        kept = _latest[pk]
    if kept[4] is None or kept[4].owner_id != user_id:
        return None
    return copy.copy(kept[4]), kept[3]


def view_for(crew: Crew) -> dict:
    """``crew_service.crew_view`` of the crew's current version, worked out once (an edit's answer, then its
    next look and cards). Only for a crew whose characters came from here (``load_characters``, ``load_fresh``)."""
    key = _key(crew)
    view = _views.get(key)
    if view is None:
        view = crew_service.crew_view(crew, previous=_latest_view(crew))
        if len(_views) >= MAX_CREWS:
            _views.clear()
            _latest_views.clear()
        _views[key] = view
        _share(crew, view)
    latest = _latest_views.setdefault(crew.pk, [])
    if not latest or latest[-1][0] != crew.version:
        latest[:] = [*latest[-1:], (crew.version, view)]
    return view


def _share(crew: Crew, view: dict) -> None:
    """The version just worked out, for the other workers: its rows, and the pieces its page shows."""
    kept = _latest.get(crew.pk)
    if kept is not None and kept[:2] == (crew.version, crew.created_at) and kept[4] is not None:
        editor_shared.share(kept[4], kept[3], _pieces_of(view))


def _latest_view(crew: Crew) -> dict | None:
    """The last view of the crew worked out here, whatever its version: crew_view lends its entries of the
    characters that are the same kept objects (never changed) with the same report, in the same place."""
    latest = _latest_views.get(crew.pk)
    return latest[-1][1] if latest else None


def _view_before(crew: Crew) -> dict | None:
    return next((view for version, view in _latest_views.get(crew.pk, []) if version == crew.version - 1), None)


def _pieces_of(view: dict) -> dict[int, dict[str, str]]:
    return {ch["model"].pk: {piece: ch[piece] for piece in PIECES} for ch in view["characters"]}


def shown_before(crew: Crew) -> dict[int, dict[str, str]] | None:
    """For each character, the keys of the pieces (``PIECES``) the page of the version before shows: from this
    process's view of that version, or another worker's (the shared record); None when neither knows it."""
    before = _view_before(crew)
    if before is not None:
        return _pieces_of(before)
    version, pieces = _shown_pieces.get(crew.pk, (None, None))
    return pieces if version == crew.version - 1 else None


def findings_changed(crew: Crew, view: dict, edited: int) -> list[dict]:
    """The characters besides ``edited`` whose findings differ from the version before (the page the edit came
    from shows that version); all of them when neither this process nor the shared record knows that version's."""
    others = [ch for ch in view["characters"] if ch["model"].pk != edited]
    shown = shown_before(crew)
    if shown is None:
        return others
    return [ch for ch in others if shown.get(ch["model"].pk, {}).get("findings_key") != ch["findings_key"]]


def changed(crew: Crew, ch: dict, piece: str) -> bool:
    """Whether ``ch``'s ``piece`` differs from the page of the version before (True when that is not known)."""
    shown = shown_before(crew)
    return shown is None or shown.get(ch["model"].pk, {}).get(piece) != ch[piece]


def forget_all() -> None:
    _characters.clear()
    _latest.clear()
    _shown_pieces.clear()
    _views.clear()
    _latest_views.clear()
    _html.clear()
    editor_shared.forget_all()


# --- rendered pieces ------------------------------------------------------------------------------


def rendered(request, crew: Crew, piece: str, draw) -> str:
    """A piece of the editor (the editor itself with one character open, a character's controls) as HTML,
    drawn once per crew version. ``draw(csrf_token)`` draws it, with ``csrf_token`` in its template context
    (it overrides the context processor's, so every ``{% csrf_token %}`` writes the marker)."""
    key = f"{_key(crew)}:{piece}"
    html = _html.get(key)
    if html is None:
        html = str(draw(CSRF_MARK))
        if len(_html) >= MAX_PIECES:
            _html.clear()
        _html[key] = html
    return html.replace(CSRF_MARK, get_token(request))
