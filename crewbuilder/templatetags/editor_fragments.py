"""``{% fragment key %}...{% endfragment %}``: a piece of the editor drawn once per content (editor_fragments.py).

The key must name everything the piece shows. Inside it, ``version`` and
``csrf_token`` are markers, so a kept piece serves every later version and
request (the token is read only for a piece with a form in it); a piece drawn
with a refused edit's values (``rejected``) is never kept.
"""

from django import template
from django.utils.safestring import mark_safe

from crewbuilder import editor_fragments
from crewbuilder.editor_fragments import CSRF_MARK

register = template.Library()


class FragmentNode(template.Node):
    def __init__(self, key, nodelist):
        self.key, self.nodelist = key, nodelist

    def render(self, context):
        key = self.key.resolve(context)
        version = context.get("version")
        if not key or context.get("rejected"):
            return self.nodelist.render(context)
        key = f"{key}:{bool(version)}"  # a piece tests ``version`` (the house-rule offer): its truth is content
        html = editor_fragments.get(key)
        if html is None:
            marker = editor_fragments.VERSION_MARK if version else version
            with context.push(version=marker, csrf_token=CSRF_MARK):
                html = str(self.nodelist.render(context))
            editor_fragments.keep(key, html)
        csrf_token = ""
        if CSRF_MARK in html:
            # only now: the token is made (masked) when first read, which costs more than most pieces
            csrf_token = str(context.get("csrf_token") or "")
            if csrf_token in ("", "NOTPROVIDED"):  # no token to write in: drawn as without a fragment
                return self.nodelist.render(context)
        return mark_safe(editor_fragments.fill(html, csrf_token=csrf_token, version=version))


@register.tag("fragment")
def do_fragment(parser, token):
    bits = token.split_contents()
    if len(bits) != 2:
        raise template.TemplateSyntaxError("{% fragment key %} takes one key.")
    nodelist = parser.parse(("endfragment",))
    parser.delete_first_token()
    return FragmentNode(parser.compile_filter(bits[1]), nodelist)
