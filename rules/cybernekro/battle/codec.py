"""A battle as JSON and back (for storing it): every dataclass, enum, tuple and set tagged, nothing else allowed.

``loads(dumps(state)) == state`` (the one-step ``previous`` kept for undo included).
Only the types listed here are rebuilt, so a stored document cannot name any other class.
"""

from __future__ import annotations

import dataclasses
import json
from enum import Enum

from rules.cybernekro import engine as cn
from rules.cybernekro.battle import state as st

TYPES = {
    cls.__name__: cls
    for cls in (
        st.Battle,
        st.Player,
        st.Model,
        st.Entry,
        st.Pending,
        st.Scenario,
        st.WeaponUse,
        cn.Weapon,
        cn.Keywords,
        cn.Situation,
        cn.TestEvent,
        cn.HitPlan,  # a hit outside an attack, held while its target's test is open for the cards
    )
}
ENUMS = {cls.__name__: cls for cls in (st.Status, st.Phase, cn.Outcome)}


def _encode(value):
    if isinstance(value, Enum):
        return {"__enum": type(value).__name__, "value": value.value}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        name = type(value).__name__
        if name not in TYPES:
            raise TypeError(f"cannot store a {name}")
        return {"__type": name, **{f.name: _encode(getattr(value, f.name)) for f in dataclasses.fields(value)}}
    if isinstance(value, tuple):
        return {"__tuple": [_encode(v) for v in value]}
    if isinstance(value, (set, frozenset)):
        return {"__set": sorted((_encode(v) for v in value), key=json.dumps)}
    if isinstance(value, list):
        return [_encode(v) for v in value]
    if isinstance(value, dict):
        if not all(isinstance(k, str) for k in value):
            raise TypeError("only string keys can be stored")
        return {k: _encode(v) for k, v in value.items()}
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    raise TypeError(f"cannot store a {type(value).__name__}")


def _decode(value):
    if isinstance(value, list):
        return [_decode(v) for v in value]
    if not isinstance(value, dict):
        return value
    if "__enum" in value:
        return ENUMS[value["__enum"]](value["value"])
    if "__type" in value:
        cls = TYPES[value["__type"]]
        return cls(**{k: _decode(v) for k, v in value.items() if k != "__type"})
    if "__tuple" in value:
        return tuple(_decode(v) for v in value["__tuple"])
    if "__set" in value:
        return frozenset(_decode(v) for v in value["__set"])
    return {k: _decode(v) for k, v in value.items()}


def dumps(state: st.Battle) -> str:
    return json.dumps(_encode(state), ensure_ascii=False, separators=(",", ":"))


def loads(text: str) -> st.Battle:
    state = _decode(json.loads(text))
    if not isinstance(state, st.Battle):
        raise ValueError("not a stored battle")
    return state
