from .accounts import User

__all__ = ["User"]
