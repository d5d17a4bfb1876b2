"""Alike findings shown as one line, on the printed card and in the editor.

Findings of one kind, code, character and note whose messages are one sentence differing only
in a middle part, an item or a body-mod, share a line naming each part: "BESTIAL models can
only fight, get up, move; arc weapon / archeogun / auto pistol is carried but cannot be used."
A bestial character carrying fourteen items showed the rule fourteen times over, each line with
its own "Accept as house rule" that accepted all fourteen (a house rule is kept by code and
character); now the rule shows once, naming each item, with one offer.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

MESSAGE_TOKENS = re.compile(r"\s+|[^\s.,;:!?()]+|[.,;:!?()]")
_WORD_END = frozenset(".,;:!?()")
SHARED_CHARS_MIN = 12  # messages sharing less than this are not one sentence with a blank: each shows whole


def message_tokens(names: Iterable) -> re.Pattern:
    """Words of a finding's message, each of ``names`` (trait, body-mod, item names) one word ("auto pistol")."""
    names = sorted({str(name or "").strip() for name in names} - {""}, key=len, reverse=True)
    if not names:
        return MESSAGE_TOKENS
    alternatives = "|".join(re.escape(name) for name in names)
    return re.compile(rf"(?i:(?<!\w)(?:{alternatives})(?!\w))|{MESSAGE_TOKENS.pattern}")


def _common_ends(token_lists: list[list[str]]) -> tuple[int, int]:
    """How many tokens all the lists start with and end with, leaving each a middle of a token or more.

    The start ends on a space and the end starts on a space or a punctuation mark, so neither
    takes part of a word, nor of a name the tokens hold whole (``message_tokens``).
    """
    first = token_lists[0]
    shortest = min(len(tokens) for tokens in token_lists)
    start = 0
    while start < shortest - 1 and all(tokens[start] == first[start] for tokens in token_lists):
        start += 1
    while start and not first[start - 1].isspace():
        start -= 1
    end = 0
    while end < shortest - start - 1 and all(tokens[-1 - end] == first[-1 - end] for tokens in token_lists):
        end += 1
    while end and not (first[-end].isspace() or first[-end] in _WORD_END):
        end -= 1
    return start, end


def finding_lines(findings: Iterable[dict], tokens: re.Pattern = MESSAGE_TOKENS) -> list[dict]:
    """Findings as lines: those of one kind, code, character and note that differ in one middle part
    share a line naming each part, in the order of the findings; any other shows whole.

    Each line is {"kind", "code", "character", "note", "rule", "count", "before", "parts", "after"}:
    the message is ``before`` alone (``parts`` empty), or ``before`` + the parts joined by " / " +
    ``after``; ``rule`` is the first finding's.
    """
    groups: dict[tuple, list[dict]] = {}
    for finding in findings:
        key = (finding.get("kind", ""), finding.get("code", ""), finding.get("character"), finding.get("note") or "")
        groups.setdefault(key, []).append(finding)
    lines = []
    for (kind, code, character, note), alike in groups.items():
        messages = [str(finding.get("message") or "") for finding in alike]
        line = {
            "kind": kind,
            "code": code,
            "character": character,
            "note": note,
            "rule": alike[0].get("rule") or "",
            "after": "",
            "parts": [],
        }
        distinct = list(dict.fromkeys(messages))
        if len(distinct) > 1:
            words = [tokens.findall(message) for message in distinct]
            start, end = _common_ends(words)
            before, after = "".join(words[0][:start]), "".join(words[0][len(words[0]) - end :])
            parts = ["".join(w[start : len(w) - end]).strip() for w in words]
            if len((before + after).strip()) >= SHARED_CHARS_MIN and all(parts):
                lines.append({**line, "count": len(messages), "before": before, "parts": parts, "after": after})
                continue
        for message in distinct:
            lines.append({**line, "count": messages.count(message), "before": message})
    return lines
