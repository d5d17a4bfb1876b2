"""``{% fragment %}``: a piece drawn once per key; the page's token and version are written into each use."""

import pytest
from django.template import Context, Template
from django.utils.functional import SimpleLazyObject

from crewbuilder import editor_fragments

TEMPLATE = Template(
    "{% load editor_fragments %}{% fragment key %}"
    "{% if form %}<form>{% csrf_token %}<input name='version' value='{{ version }}'></form>{% endif %}{{ text }}"
    "{% endfragment %}"
)


@pytest.fixture(autouse=True)
def nothing_kept():
    editor_fragments.forget_all()
    yield
    editor_fragments.forget_all()


class Token:
    """The context processor's lazy token, counting how often it is made."""

    def __init__(self, value):
        self.value, self.made = value, 0
        self.lazy = SimpleLazyObject(self._make)

    def _make(self):
        self.made += 1
        return self.value


def _draw(key, token, *, form, text="first", version=3):
    return TEMPLATE.render(Context({"key": key, "csrf_token": token, "form": form, "text": text, "version": version}))


def test_a_piece_is_drawn_once_per_key():
    assert _draw("k", "tok", form=False, text="first") == "first"
    assert _draw("k", "tok", form=False, text="second") == "first"  # the key names what it shows
    assert _draw("other", "tok", form=False, text="second") == "second"


def test_a_piece_with_a_form_gets_each_request_s_token_and_version():
    first = _draw("k", "token-one", form=True, version=3)
    second = _draw("k", "token-two", form=True, version=4)
    assert 'value="token-one"' in first and "value='3'" in first
    assert 'value="token-two"' in second and "value='4'" in second
    assert "token-one" not in second


def test_a_piece_without_a_form_never_makes_the_token():
    token = Token("secret")
    _draw("k", token.lazy, form=False)
    _draw("k", token.lazy, form=False)
    assert token.made == 0
    with_form = Token("secret")
    assert 'value="secret"' in _draw("f", with_form.lazy, form=True)
    assert with_form.made == 1


# Django's own {% csrf_token %} warns (RemovedInDjango60Warning) as it writes nothing for "NOTPROVIDED"
@pytest.mark.filterwarnings("ignore:Calling format_html\\(\\) without passing args")
@pytest.mark.parametrize("token", [None, "", "NOTPROVIDED"])
def test_without_a_token_a_form_piece_is_drawn_as_without_a_fragment(token):
    _draw("k", "tok", form=True)  # kept with the marker
    html = _draw("k", token, form=True, version=5)
    assert editor_fragments.CSRF_MARK not in html and "tok" not in html
    assert "value='5'" in html
