"""Soylent Ghoul's rules: panic tests and activation (panic), a game's state and actions (game)."""
