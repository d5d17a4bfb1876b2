"""A Cybernekr0 battle at the table: state, setup, rounds, actions, fate cards, morale, NPCs, scenarios.

Pure Python, no Django (python-chess style): frozen dataclasses for the state
(``state.py``), one pure function per step that takes a state (and a
``random.Random`` plus the seed it logs, when it rolls) and returns the new
state with its log grown; ``legal.legal(state, seat)`` says what a seat may do
now; a refused step raises ``state.Refused``. Every rule of a roll is the
reference engine's (``rules/cybernekro/engine.py``). Readings:
docs/rules-interpretations.md, "Battle tracker".
"""
