"""Names of the rules' entries for a battle's pages: the engine's state keeps their slugs."""

from django import template

from rules.cybernekro.battle import catalogue

register = template.Library()


@register.filter
def sorcery_names(slugs) -> str:
    """("gut-twist", "explode-head") -> "Gut Twist, Explode Head", as the rules name them (a slug the
    catalogue no longer has is shown as stored)."""
    names = []
    for slug in slugs:
        try:
            names.append(catalogue.entry("sorceries", slug).get("name") or slug)
        except KeyError:
            names.append(slug)
    return ", ".join(names)
