"""The battle's random generator: dice anyone may replay from the step's logged seed, decks nobody can.

Every step's dice come from its seed, which the log shows, so a roll can be checked and replayed. The fate
decks are hidden: shuffled from that public seed, a player could rebuild the other's hand and every later
draw. So a shuffle draws from the seed together with a secret the server keeps for the battle (never shown):
the engine stays deterministic given both, and a deck stays unknown to everyone at the table.
"""

from __future__ import annotations

import random


class TableRandom(random.Random):
    """``random.Random(seed)`` for everything but ``shuffle``, which uses the seed and ``secret``."""

    def __init__(self, seed: int, secret: str):
        super().__init__(seed)
        self._hidden = random.Random(f"{secret}:{seed}")

    def shuffle(self, x) -> None:
        self._hidden.shuffle(x)
