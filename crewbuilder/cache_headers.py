"""``no_store``: for responses holding a secret (a Ghoulash hand, a drone set's
true tokens, a crew file): no cache, shared or the browser's own, may keep
them, so a phone passed round the table or a proxy cannot show them later."""

from functools import wraps

from django.utils.cache import patch_cache_control

PRIVATE_NO_STORE = "private, no-store"


def no_store(view):
    @wraps(view)
    def wrapped(request, *args, **kwargs):
        response = view(request, *args, **kwargs)
        patch_cache_control(response, private=True, no_store=True)
        return response

    return wrapped
