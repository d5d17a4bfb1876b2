"""The weapons an odds request may name: the catalogue's, house rules included."""

from crewbuilder.models import Item
from rules.odds import file_weapons


def catalogue_weapons():
    """Weapons from the database (house rules included) when it has them, else the bundled file."""
    try:
        rows = {
            w.slug: w
            for w in Item.objects.filter(category=Item.WEAPON).select_related("system")
            if w.system.slug == "cybernekro"
        }
    except Exception:  # no database (fresh checkout, or none allowed): the shipped catalogue answers
        rows = {}
    if not rows:
        return file_weapons

    def resolve(slug):
        w = rows.get(slug)
        if w is None:
            return None
        return {"slug": w.slug, "damage": w.damage, "range": w.range, "keywords": list(w.keywords)}

    return resolve
