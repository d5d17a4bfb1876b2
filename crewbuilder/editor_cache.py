"""The editor's crew: its characters and every choice, loaded once per crew version.

Every change to a crew's characters goes through ``crew_edits.claim_version``
(or the campaign's services, which bump the version too), so a crew's
characters are the same for as long as its version, ``updated_at`` and the
catalogue version are. The editor then reads one row (the crew) and takes its
characters from Django's cache (in-process by default, shared when the cache is
Redis) instead of four queries and their ORM work on every page and card.
``created_at`` is in the key because SQLite may give a deleted crew's id again.
"""

from __future__ import annotations

from django.core.cache import cache

from crewbuilder import crew_loading
from crewbuilder.models import Character, Crew

TIMEOUT = 60 * 60


def _key(crew: Crew) -> str:
    return (
        f"crew-editor:{crew.pk}:{crew.version}:{crew.updated_at.timestamp()}:"
        f"{crew.created_at.timestamp()}:{crew.system.catalogue_version}"
    )


def load_characters(crew: Crew) -> None:
    """Give ``crew`` its characters with every choice, as ``Crew.objects.with_everything()`` does."""
    characters = cache.get(_key(crew))
    if characters is None:
        crew_loading.load_characters(crew)
        remember(crew)
        return
    queryset = crew.characters.all()
    queryset._result_cache = characters
    queryset._prefetch_done = True
    for character in characters:
        Character.crew.field.set_cached_value(character, crew)
    if not hasattr(crew, "_prefetched_objects_cache"):
        crew._prefetched_objects_cache = {}
    crew._prefetched_objects_cache["characters"] = queryset


def remember(crew: Crew) -> None:
    """Keep a crew's freshly loaded characters for its current version."""
    characters = list(crew.characters.all())
    for character in characters:
        # The crew travels with the page's own row, not as a second copy in the cache.
        character._state.fields_cache.pop("crew", None)
    cache.set(_key(crew), characters, TIMEOUT)
    for character in characters:
        Character.crew.field.set_cached_value(character, crew)


# --- rendered pieces ------------------------------------------------------------------------------

# The page's CSRF token stands in the stored HTML as this marker (control characters never get into a crew,
# crew_edits refuses them): each request puts its own token back.
CSRF_MARK = "\x00csrf\x00"


def rendered(request, crew: Crew, piece: str, draw) -> str:
    """A piece of the editor (the editor itself with one character open, a character's controls) as HTML,
    drawn once per crew version. ``draw(csrf_token)`` draws it, with ``csrf_token`` in its template context
    (it overrides the context processor's, so every ``{% csrf_token %}`` writes the marker)."""
    from django.middleware.csrf import get_token

    key = f"{_key(crew)}:{piece}"
    html = cache.get(key)
    if html is None:
        html = str(draw(CSRF_MARK))
        cache.set(key, html, TIMEOUT)
    return html.replace(CSRF_MARK, get_token(request))
