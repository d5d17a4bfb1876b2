"""trials: models (built by its issue)."""
