"""Soylent Ghoul games at the table (built by its issue)."""
