"""Test clients shared by the view tests of every app."""

from django.test import Client


def logged_in(user) -> Client:
    """A fresh client (its own session) logged in as ``user``."""
    client = Client()
    client.force_login(user)
    return client
