"""Words that depend on a number, for messages built in Python ("1 character", "2 Treasure Tokens").

Templates use Django's ``pluralize`` filter for the same thing.
"""


def count_noun(count: int, singular: str, plural: str | None = None) -> str:
    """``count`` followed by the noun in the form that number takes: 1 character, 0 characters."""
    return f"{count} {singular if count == 1 else (plural or singular + 's')}"
