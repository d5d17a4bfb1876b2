"""ghoulash: models (built by its issue)."""
