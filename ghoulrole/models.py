"""ghoulrole: models (built by its issue)."""
