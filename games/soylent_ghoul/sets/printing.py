"""The three printables of a drone set (WeasyPrint, templates/soylent/pdf/).

- drone cards: each drone with its group's M, Nerve, actions and Snapped effect
  (and its token codes, which are public);
- token sheet: every token as a square to cut out, its drone and its code on
  the face, the back left blank ("blank on one side"); all tokens of a drone
  look alike, in their dealt order;
- key sheet (owner only): which code of each drone is the true token.

The cards and the token sheet are built from ``services.public_view`` only, so
they cannot carry the secret; only ``key_context`` reads it.
"""

from __future__ import annotations

from core.pdf import render_pdf

from . import services


def _base(view: dict) -> dict:
    return {"set_name": view["name"], "group": view["group"], "game": "Soylent Ghoul"}


def cards_context(view: dict) -> dict:
    return {**_base(view), "drones": view["drones"]}


def tokens_context(view: dict) -> dict:
    """One row of squares per drone, its tokens in their dealt order."""
    return {**_base(view), "drones": view["drones"]}


def key_context(drone_set) -> dict:
    view = services.public_view(drone_set)
    return {**_base(view), "key": services.owner_key(drone_set, view), "dealt_at": drone_set.dealt_at}


def cards_pdf(view: dict, paper: str) -> bytes:
    return render_pdf("soylent/pdf/cards.html", cards_context(view), paper)


def tokens_pdf(view: dict, paper: str) -> bytes:
    return render_pdf("soylent/pdf/tokens.html", tokens_context(view), paper)


def key_pdf(drone_set, paper: str) -> bytes:
    # Never cached: the render cache is per process and keyed by the page's
    # text; a secret has no business staying in memory after the response.
    return render_pdf("soylent/pdf/key.html", key_context(drone_set), paper, cache=False)


def view_from_file(crew: dict) -> dict:
    """A public view of a read soylent-ghoul crew file (``manage.py crew pdf``): no database."""
    rules = services.rules_data()
    group = rules.groups.get(crew["group"])
    drones = [
        services.PublicDrone(0, number, d["name"], list(d.get("tokens") or []))
        for number, d in enumerate(crew["drones"], start=1)
    ]
    return {
        "name": crew["name"],
        "owner": "",
        "group": services.group_card(group)
        if group
        else {"slug": crew["group"], "name": crew["group"], "unknown": True},
        "drones": drones,
        "tokens_per_drone": rules.tokens_per_drone,
    }
