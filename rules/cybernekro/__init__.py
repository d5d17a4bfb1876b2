"""Cybernekr0's rules: the engine (tests, attacks, damage, morale, fate cards), character numbers, scenarios."""
