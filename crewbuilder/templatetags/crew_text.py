"""Small text helpers for the crew pages: a figure kept with its unit and its name on a narrow screen."""

import re

from django import template
from django.utils.html import conditional_escape
from django.utils.safestring import mark_safe

register = template.Library()

# A figure with its inch mark and the word naming it (Move 6", Armor 1, AP 3), in escaped text.
_NAMED_FIGURE = re.compile(r"\b([A-Za-z]+ [+\-−]?\d+(?:\.\d+)?(?:&quot;)?)(?=[\s·,;)]|$)")
# A count after a name (sword ×2) or a separating dot: neither starts a line.
_GLUED = re.compile(r" (×\d+|·)")


@register.filter(is_safe=True)
def keep_figures(text) -> str:
    """``text`` escaped, where a line may break between the figures but never inside one: `Move 6"` never
    shows as `Move 6` at one line's end and `"` at the next's, and no line starts with a separating dot."""
    escaped = str(conditional_escape(text))
    escaped = _NAMED_FIGURE.sub(r'<span class="nowrap">\1</span>', escaped)
    return mark_safe(_GLUED.sub("\u00a0\\1", escaped))
