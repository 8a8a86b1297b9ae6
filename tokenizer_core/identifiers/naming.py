"""What a naming style costs: one name in every style, the file's names grouped by style, and the
whole file rewritten in each style.

``[c.text for c in naming_costs("getUserById", toks)]`` ->
``['get_user_by_id', 'getUserById', 'GetUserById', 'get-user-by-id', 'GET_USER_BY_ID']``
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from statistics import mean

from ..tokenizers.encoders import Tokenizer
from .analysis import IdentifierAnalysis, IdentifierRow
from .extract import CODE, Extraction
from .styles import STYLES, TARGET_STYLES, convert_style, split_identifier


@dataclass(frozen=True, slots=True)
class NamingCost:
    """One rewrite of a name and its tokens per tokenizer (alone and after a space)."""

    style: str
    text: str
    tokens: dict[str, int]
    tokens_after_space: dict[str, int]
    original: bool


def naming_costs(name: str, tokenizers: Sequence[Tokenizer]) -> list[NamingCost]:
    """The name in each target style with its token counts.

    ``[c.text for c in naming_costs("getUserById", toks)]`` ->
    ``['get_user_by_id', 'getUserById', 'GetUserById', 'get-user-by-id', 'GET_USER_BY_ID']``.
    A name with fewer than two words gives one row per distinct spelling only.
    """
    out: list[NamingCost] = []
    seen: set[str] = set()
    for style in TARGET_STYLES:
        text = convert_style(name, style)
        if text in seen:
            continue
        seen.add(text)
        out.append(
            NamingCost(
                style=style,
                text=text,
                tokens={t.id: t.count(text) for t in tokenizers},
                tokens_after_space={t.id: t.count(" " + text) for t in tokenizers},
                original=text == name,
            )
        )
    return out


@dataclass(frozen=True, slots=True)
class StyleSummary:
    """Average tokens (alone) of the file's identifiers in one naming style, per tokenizer."""

    style: str
    identifiers: int
    occurrences: int
    mean_tokens: dict[str, float]
    mean_chars: float


def style_summary(analysis: IdentifierAnalysis, *, include_builtins: bool = True) -> list[StyleSummary]:
    """Per naming style present in the code: how many names, and their mean tokens alone."""
    groups: dict[str, list[IdentifierRow]] = {}
    for r in analysis.rows:
        if r.where != CODE or (r.builtin and not include_builtins):
            continue
        groups.setdefault(r.style, []).append(r)
    out = []
    for style in STYLES:
        rows = groups.get(style)
        if not rows:
            continue
        out.append(
            StyleSummary(
                style=style,
                identifiers=len(rows),
                occurrences=sum(r.occurrences for r in rows),
                mean_tokens={
                    tid: mean(r.costs[k].alone_tokens for r in rows)
                    for k, tid in enumerate(analysis.tokenizer_ids)
                },
                mean_chars=mean(r.length for r in rows),
            )
        )
    return out


@dataclass(frozen=True, slots=True)
class RewriteCost:
    """Tokens of the whole file with every multi-word identifier written in one style."""

    style: str
    renamed: int  # distinct names that changed
    tokens: dict[str, int]


def rewrite_code(
    code: str, extraction: Extraction, style: str, *, include_builtins: bool = False
) -> tuple[str, int]:
    """The code with each multi-word identifier (in code, builtins left alone) in `style`.

    Returns (new code, distinct names changed). ``rewrite_code("get_user_by_id(x)", ext,
    "camelCase")[0] -> 'getUserById(x)'``. A what-if for counting: the result may not compile
    (kebab-case is not a valid name in most languages, and two names may collide).
    """
    parts: list[str] = []
    pos = 0
    changed: set[str] = set()
    cache: dict[str, str] = {}
    for o in extraction.occurrences:
        if o.where != CODE or (o.builtin and not include_builtins):
            continue
        new = cache.get(o.name)
        if new is None:
            split = split_identifier(o.name)
            new = convert_style(o.name, style) if len(split.words) >= 2 else o.name
            cache[o.name] = new
        if new == o.name or code[o.start : o.end] != o.name:
            continue
        parts.append(code[pos : o.start])
        parts.append(new)
        pos = o.end
        changed.add(o.name)
    parts.append(code[pos:])
    return "".join(parts), len(changed)


def rewrite_costs(code: str, extraction: Extraction, tokenizers: Sequence[Tokenizer]) -> list[RewriteCost]:
    """File tokens as written, then with all multi-word names in each target style."""
    out = [RewriteCost("as written", 0, {t.id: t.count(code) for t in tokenizers})]
    for style in TARGET_STYLES:
        text, changed = rewrite_code(code, extraction, style)
        out.append(RewriteCost(style, changed, {t.id: t.count(text) for t in tokenizers}))
    return out


__all__ = [
    "NamingCost",
    "RewriteCost",
    "StyleSummary",
    "naming_costs",
    "rewrite_code",
    "rewrite_costs",
    "style_summary",
]
