"""Ghoulash pages: game boxes (numbers, decks, printable deck lists) and the game tracker.

A box is its owner's (others get 404); a game is its players' (others get 404).
The game page is one view serving the full page and, for htmx, its ``table``
partial (polled every few seconds, 204 when the version shown is current).
Every change is a call into ghoulash/services.py, which calls the engine.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from core import pdf
from core.games import kit
from core.htmx import vary_on_htmx
from core.pdf_views import paper_for, pdf_response
from games.ghoulash import services, shared_table
from games.ghoulash.forms import BoxForm, CardForm, DeckTable, GameForm, HomeForm, NumbersForm, PlayForm, posted_with
from games.ghoulash.models import CHARACTER_SLUGS, BoxCard, Game, GhoulashBox, Player
from games.ghoulash.permissions import get_box_for_user, get_card_for_user, get_game_for_user, seat_of
from games.ghoulash.presenter import own_table

TABLE = "ghoulash/game_detail.html#table"


def _get_box_for_user(request: HttpRequest, pk: int) -> GhoulashBox:
    """The box, if the user owns it; anyone else gets a 404."""
    return get_box_for_user(request.user, pk)


def _get_game_for_user(request: HttpRequest, pk: int) -> Game:
    """The game, if the user has a seat at it; anyone else gets a 404."""
    return get_game_for_user(request.user, pk)


def _names(cat: dict) -> dict:
    return {c["slug"]: c.get("full_name") or c.get("name", c["slug"]) for c in cat["characters"]}


# ---------------------------------------------------------------------------
# Home: boxes and games
# ---------------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def home(request: HttpRequest) -> HttpResponse:
    cat = services.catalogue()
    names = _names(cat)
    which = HomeForm(request.POST).which() if request.method == "POST" else None
    box_form = BoxForm(request.POST if which == "box" else None, auto_id="box_%s")
    game_form = GameForm(request.POST if which == "game" else None, user=request.user, names=names, auto_id="game_%s")
    error, setup_problems = "", []
    if which == "box" and box_form.is_valid():
        box = services.create_box(request.user, box_form.cleaned_data["name"])
        messages.success(request, "Game box created: enter the numbers and decks of your printed cards.")
        return redirect(box)
    if which == "game" and game_form.is_valid():
        try:
            game = services.create_game(
                request.user,
                box=game_form.cleaned_data["box"],
                name=game_form.cleaned_data["name"],
                seats=game_form.seats(),
                lock_and_load=game_form.cleaned_data["lock_and_load"],
            )
        except services.GameError as exc:
            error = str(exc)
            setup_problems = getattr(exc, "problems", [])
        else:
            messages.success(request, "The tokens are dealt face down and every hand is dealt.")
            return redirect(game)
    boxes = list(GhoulashBox.objects.owned_by(request.user))
    seats = list(Player.objects.seats_of(request.user))
    invalid = bool(error or (which == "box" and box_form.errors) or (which == "game" and game_form.errors))
    return render(
        request,
        "ghoulash/home.html",
        {
            "boxes": boxes,
            "seats": seats,
            "box_form": box_form,
            "game_form": game_form,
            "error": error,
            "setup_problems": setup_problems,
            "setup_box": game_form.cleaned_data.get("box") if setup_problems else None,
            "characters": cat["characters"],
        },
        status=422 if invalid else 200,
    )


# ---------------------------------------------------------------------------
# Game boxes
# ---------------------------------------------------------------------------


def _box_context(box: GhoulashBox, cat: dict, table=None) -> dict:
    """The box page: profiles, Ghoul values, the checks, and the decks as one table of inputs (``table``: a
    bound DeckTable to show again with its errors)."""
    profiles = services.profiles(box, cat)
    ghouls = services.ghoul_values(box, cat)
    if table is None:
        table = DeckTable(queryset=box.cards.all(), prefix="cards")
    # the saved cards (a bound table's instances hold what was typed, not saved)
    cards = list(box.cards.all()) if table.is_bound else [form.instance for form in table.forms]
    saved = {c.pk: c for c in cards}
    names = {p["slug"]: p["name"] for p in profiles}
    decks = []
    for p in profiles:
        rows = [(saved.get(f.instance.pk, f.instance), f) for f in table.forms if f.instance.character == p["slug"]]
        decks.append(
            {"profile": p, "cards": [c for c, _ in rows], "rows": rows, "total": sum(c.count or 0 for c, _ in rows)}
        )
    row_errors = [
        (names.get(f.instance.character, f.instance.character), f.instance.name, e)
        for f in table.forms
        for errors in f.errors.values()
        for e in errors
    ]
    return {
        "box": box,
        "profiles": profiles,
        "ghouls": ghouls,
        "decks": decks,
        "table": table,
        "row_errors": row_errors,
        "uncounted": sum(1 for c in cards if c.count is None),
        "problems": services.deck_problems(cards, list(CHARACTER_SLUGS), names),
        "names": names,
    }


@login_required
@require_http_methods(["GET", "POST"])
def box_detail(request: HttpRequest, pk: int) -> HttpResponse:
    box = _get_box_for_user(request, pk)
    cat = services.catalogue()
    context = _box_context(box, cat)
    form = NumbersForm(
        request.POST or None, profiles=context["profiles"], ghouls=context["ghouls"], version=box.version
    )
    status = 422
    if request.method == "POST" and form.is_valid():
        try:
            services.save_numbers(box, *form.numbers(), seen_version=form.cleaned_data["seen_version"])
        except services.StaleBox as exc:
            # the newer numbers stay; what this tab typed is shown again, to be saved over them on purpose
            box = exc.box
            context = _box_context(box, cat)
            data = posted_with(form, {"seen_version": str(box.version)})
            form = NumbersForm(data, profiles=context["profiles"], ghouls=context["ghouls"], version=box.version)
            context["numbers_stale"] = True
            status = 409
        else:
            messages.success(request, "Numbers saved.")
            return redirect(box)
    card_form = CardForm(names=_names(cat))
    return render(
        request,
        "ghoulash/box_detail.html",
        {**context, "form": form, "card_form": card_form},
        status=status if form.errors or status == 409 else 200,
    )


@login_required
@require_POST
def box_decks(request: HttpRequest, pk: int) -> HttpResponse:
    """The deck table, saved in one go: every row checked, every error shown at once; a table opened before
    another tab's save answers 409 and keeps what was typed."""
    box = _get_box_for_user(request, pk)
    cat = services.catalogue()
    table = DeckTable(request.POST, queryset=box.cards.all(), prefix="cards")
    status, stale = 422, []
    if table.is_valid():
        changes = [
            (f.instance, f.cleaned_data["seen_version"], [n for n in f.changed_data if n != "seen_version"])
            for f in table.forms
            if set(f.changed_data) - {"seen_version"}
        ]
        try:
            services.save_cards(changes)
        except services.StaleCards as exc:
            newer = {
                f"{f.prefix}-seen_version": str(exc.cards[f.instance.pk].version)
                for f in table.forms
                if exc.cards.get(f.instance.pk) is not None
            }
            table = DeckTable(posted_with(table, newer), queryset=box.cards.all(), prefix="cards")
            stale = [c for c in exc.cards.values() if c is not None]
            status = 409
        else:
            messages.success(
                request, f"Deck table saved: {len(changes)} card{'s' if len(changes) != 1 else ''} changed."
            )
            return redirect(reverse("ghoulash-box", args=[box.pk]) + "#decks-heading")
    context = _box_context(box, cat, table)
    form = NumbersForm(profiles=context["profiles"], ghouls=context["ghouls"], version=box.version)
    return render(
        request,
        "ghoulash/box_detail.html",
        {**context, "form": form, "card_form": CardForm(names=_names(cat)), "stale": stale},
        status=status,
    )


@login_required
@require_POST
def box_card_add(request: HttpRequest, pk: int) -> HttpResponse:
    box = _get_box_for_user(request, pk)
    cat = services.catalogue()
    card_form = CardForm(request.POST, names=_names(cat))
    if card_form.is_valid():
        card = card_form.save(commit=False)
        card.box = box
        card.position = (box.cards.order_by("-position").values_list("position", flat=True).first() or 0) + 1
        card.save()
        messages.success(request, f"{card.name} added to the {card.get_character_display()} deck.")
        return redirect(box)
    context = _box_context(box, cat)
    form = NumbersForm(profiles=context["profiles"], ghouls=context["ghouls"], version=box.version)
    return render(request, "ghoulash/box_detail.html", {**context, "form": form, "card_form": card_form}, status=422)


def _get_card(request: HttpRequest, pk: int, card_pk: int) -> BoxCard:
    return get_card_for_user(request.user, pk, card_pk)


@login_required
@require_http_methods(["GET", "POST"])
def box_card_edit(request: HttpRequest, pk: int, card_pk: int) -> HttpResponse:
    card = _get_card(request, pk, card_pk)
    names = _names(services.catalogue())
    form = CardForm(request.POST if request.method == "POST" else None, instance=card, names=names)
    if request.method == "POST" and form.is_valid():
        try:
            services.save_card(form.instance, form.cleaned_data["seen_version"])
        except services.StaleCard as exc:
            if exc.card is None:
                raise Http404("No such card.") from None
            # the newer card stays; what this tab typed is shown again, to be saved over it on purpose
            form = CardForm(posted_with(form, {"seen_version": str(exc.card.version)}), instance=exc.card, names=names)
            return render(
                request,
                "ghoulash/card_edit.html",
                {"card": exc.card, "box": exc.card.box, "form": form, "conflict": True},
                status=409,
            )
        messages.success(request, f"{card.name} saved.")
        return redirect(card.box)
    return render(
        request,
        "ghoulash/card_edit.html",
        {"card": card, "box": card.box, "form": form},
        status=422 if form.errors else 200,
    )


@login_required
@require_POST
def box_card_delete(request: HttpRequest, pk: int, card_pk: int) -> HttpResponse:
    card = _get_card(request, pk, card_pk)
    card.delete()
    messages.success(request, f"{card.name} removed from the {card.get_character_display()} deck.")
    return redirect(card.box)


@login_required
@require_GET
def box_pdf(request: HttpRequest, pk: int) -> HttpResponse:
    box = _get_box_for_user(request, pk)
    context = _box_context(box, services.catalogue())
    context["type_labels"] = dict(BoxCard.TYPES)
    data = pdf.render_pdf("ghoulash/pdf/decks.html", context, paper_for(request), cache=False)
    return pdf_response(data, f"{pdf.slugify(box.name) or 'ghoulash'}-decks.pdf")


# ---------------------------------------------------------------------------
# The game tracker
# ---------------------------------------------------------------------------


def _table_context(request: HttpRequest, shared: shared_table.Shared, error: str = "") -> dict:
    """The shared (public) part from the cache, and the viewer's own part drawn now."""
    game = shared.game
    own = own_table(game, shared.players, shared.tokens, request.user)
    context = {
        **shared.public,
        **own,
        "error": error,
        "top_html": shared.html("top"),
        "bottom_html": shared.html("bottom"),
    }
    if not any(own["can"].get(move) for move in shared_table.BOARD_MOVES):
        context["board_html"] = shared.html("board")
    context["poll_params"] = kit.poll_params(request, services.LABEL, game.pk, game.version)
    return context


@kit.answers_unchanged_polls(services.LABEL, services.current_version)  # 204 with no query (the kit)
@login_required
@require_GET
@cache_control(private=True, no_store=True)  # holds a secret: no cache, shared or the browser's, keeps it
def game_detail(request: HttpRequest, pk: int) -> HttpResponse:
    shared = shared_table.current(pk)
    if shared is None or seat_of(request.user, shared.players) is None:
        raise Http404("No such game.")  # a seat at the game, as get_game_for_user
    game = shared.game
    if request.htmx:
        return kit.page_or_poll(request, game.version, lambda: render(request, TABLE, _table_context(request, shared)))
    return vary_on_htmx(render(request, "ghoulash/game_detail.html", _table_context(request, shared)))


@login_required
@require_GET
def game_log(request: HttpRequest, pk: int) -> HttpResponse:
    """The whole log, a page at a time (the table shows only the latest entries)."""
    game = _get_game_for_user(request, pk)
    page = kit.events_page(game.events.all(), request.GET.get("page"))
    return render(
        request, "ghoulash/game_log.html", {"game": game, "page": page, "show_seeds": game.status == Game.FINISHED}
    )


@login_required
@require_POST
@cache_control(private=True, no_store=True)  # holds a secret: no cache, shared or the browser's, keeps it
def game_act(request: HttpRequest, pk: int) -> HttpResponse:
    game = _get_game_for_user(request, pk)
    form = PlayForm(request.POST)

    def move():
        if not form.is_valid():  # refused before the game's lock is taken: no card is drawn, no die rolled
            raise form.refusal()
        return services.act(game.pk, request.user, action=form.cleaned_data["action"], move=form.move())

    def redraw(error: str, status: int) -> HttpResponse:
        shared = shared_table.for_game(Game.objects.get(pk=game.pk))
        return render(request, TABLE, _table_context(request, shared, error), status=status)

    def after_plain_post(error: str) -> HttpResponse:
        if error:
            messages.error(request, error)
        return redirect(game)

    return kit.act_and_redraw(request, move, redraw, after_plain_post)
