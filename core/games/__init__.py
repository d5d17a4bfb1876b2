"""The game-session kit and the game registry, shared by every game at the table."""
