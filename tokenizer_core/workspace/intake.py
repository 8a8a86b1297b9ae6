"""What a share link or a workspace file brings into the prompt workspace, checked once, there.

Each reader returns the values that passed and one problem per value that did not (a field of
a version, a chat's messages, a count over its cap), worded for the user. What fails is left
out; nothing unchecked gets further, so no later click can meet a bad value.

``read_versions([{"name": "a"}, {"kind": "poem"}])`` -> one version, and the problem
``'version 2 left out: "kind" must be "text" or "chat", not \\'poem\\''``.
"""

from __future__ import annotations

from .chat import ROLES
from .limits import MAX_MESSAGES, MAX_VERSIONS, shown
from .tools import ToolsError, parse_tools
from .versions import KINDS, PromptVersion


def _message_problem(item: object) -> str | None:
    if not (isinstance(item, (list, tuple)) and len(item) == 2):
        return "expected [role, text]"
    if not isinstance(item[0], str) or item[0] not in ROLES:
        return f"the role {shown(item[0])} is not one of {', '.join(ROLES)}"
    if not isinstance(item[1], str):
        return f"its text is {shown(item[1])}, not text"
    return None


def _capped(items: list, cap: int, lead: str) -> tuple[list, list[str]]:
    """The first `cap` items, and a problem starting with `lead` (e.g. "the chat has 80 messages")."""
    if len(items) <= cap:
        return items, []
    return items[:cap], [f"{lead}; the first {cap} are kept (the workspace holds up to {cap}), "
                         f"{len(items) - cap:,} left out"]  # fmt: skip


def read_messages(value: object, *, where: str = "the chat") -> tuple[list[tuple[str, str]], list[str]]:
    """Chat messages ([role, text] pairs) and the problems: the bad ones and those over the cap
    are left out, with one problem for all of them.

    ``read_messages([["user", "hi"], ["boss", "x"]])[0] -> [("user", "hi")]``
    """
    if not isinstance(value, list):
        return [], [f"{where} is left out: its messages are {shown(value)}, not a list of [role, text] pairs"]
    items, problems = _capped(value, MAX_MESSAGES, f"{where} has {len(value):,} messages")
    out, bad = [], []
    for n, item in enumerate(items, start=1):
        if (problem := _message_problem(item)) is None:
            out.append((item[0], item[1]))
        else:
            bad.append(f"message {n}: {problem}")
    if bad:
        more = f"; and {len(bad) - 3:,} more" if len(bad) > 3 else ""
        s = "s" * (len(bad) != 1)
        problems.append(f"{where}: {len(bad):,} message{s} left out ({'; '.join(bad[:3])}{more})")
    return out, problems


def tools_problem(text: str) -> str | None:
    """Why tools' JSON text cannot be counted (it is then left out of the counts), or None."""
    try:
        parse_tools(text)
    except ToolsError as exc:
        return str(exc)
    return None


def read_version(value: object, where: str) -> tuple[PromptVersion | None, list[str]]:
    """One version from its JSON object and the problems: one per bad field, and then no version.

    Tools that cannot be counted keep the version (the tools' text is the user's, kept as typed)
    with a problem saying they are left out of the counts.
    """
    if not isinstance(value, dict):
        return None, [f"{where} left out: it is {shown(value)}, not an object"]
    problems = []
    kind = value.get("kind", "text")
    if kind not in KINDS:
        problems.append(f'{where} left out: "kind" must be "text" or "chat", not {shown(kind)}')
    fields = {}
    for key in ("name", "text", "tools"):
        fields[key] = value.get(key, "")
        if not isinstance(fields[key], str):
            problems.append(f'{where} left out: "{key}" must be text, not {shown(fields[key])}')
    raw_messages = value.get("messages", [])
    messages: list[tuple[str, str]] = []
    if not isinstance(raw_messages, list):
        problems.append(
            f'{where} left out: "messages" must be a list of [role, text] pairs, not {shown(raw_messages)}'
        )
    elif len(raw_messages) > MAX_MESSAGES:
        problems.append(
            f"{where} left out: it has {len(raw_messages):,} messages; a version holds up to {MAX_MESSAGES}"
        )
    else:
        for n, item in enumerate(raw_messages, start=1):
            if (problem := _message_problem(item)) is not None:
                problems.append(f'{where} left out: "messages", message {n}: {problem}')
                break
            messages.append((item[0], item[1]))
    if problems:
        return None, problems
    name = fields["name"].strip() or where
    version = PromptVersion(name, kind, fields["text"], tuple(messages), fields["tools"])
    if kind == "chat" and (problem := tools_problem(version.tools)):
        named = where if name == where else f"{where} ({name})"
        problems.append(f"{named}: its tools are left out of the counts: {problem}")
    return version, problems


def read_versions(value: object) -> tuple[list[PromptVersion], list[str]]:
    """Saved versions and the problems: bad versions and those over the cap are left out."""
    if not isinstance(value, list):
        return [], [f"the saved versions are left out: they are {shown(value)}, not a list of versions"]
    items, problems = _capped(value, MAX_VERSIONS, f"there are {len(value):,} saved versions")
    out = []
    for n, item in enumerate(items, start=1):
        version, found = read_version(item, f"version {n}")
        problems += found
        if version is not None:
            out.append(version)
    return out, problems
