"""A game engine's refusal shown as a sentence, the same way in every tracker."""

from collections.abc import Iterable


def as_sentence(text: str, names: Iterable[str], empty: str = "Not allowed now.") -> str:
    """A capital first and one full stop at the end, unless the text starts with a player's or a model's name:
    a name is written as its player wrote it ("alice must choose first.")."""
    text = (text or "").strip()
    if not text:
        return empty
    if not any(name and text.startswith(name) for name in names):
        text = text[:1].upper() + text[1:]
    return text.rstrip(".") + "."
