"""The crew status badge (valid, valid with house rules, draft), one tag for every page that shows it.

A tag rather than an include: the crew list shows one per row, and an include costs a template
render with its own context per row.
"""

from django import template
from django.utils.html import format_html

register = template.Library()

BADGES = {
    "valid": ("badge-ok", "Valid"),
    "house_rules": ("badge-warn", "Valid with house rules"),
    "invalid": ("badge-bad", "Not valid (draft)"),
}


@register.simple_tag
def status_badge(status: str) -> str:
    css, label = BADGES.get(status, BADGES["invalid"])
    status = status if status in BADGES else "invalid"
    return format_html('<span class="badge {}" data-status="{}">{}</span>', css, status, label)
