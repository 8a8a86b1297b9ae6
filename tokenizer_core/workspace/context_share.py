"""One context window, shared: the system prompt, the retrieved chunks and the answer all take
tokens from the same window (the source documents' third common mistake is to forget it).

    >>> s = context_share(window=8_000, prompt=1_200, chunks=5, chunk_tokens=512, answer=1_000)
    >>> s.used, s.free, s.over
    (4760, 3240, False)
"""

from __future__ import annotations

import html
from dataclasses import dataclass

COLOURS = ("#4c78a8", "#f58518", "#54a24b")  # prompt, chunks, answer


@dataclass(frozen=True, slots=True)
class ContextShare:
    """What each part takes of a window of `window` tokens."""

    window: int
    parts: tuple[tuple[str, int], ...]

    @property
    def used(self) -> int:
        return sum(n for _, n in self.parts)

    @property
    def free(self) -> int:
        return self.window - self.used

    @property
    def over(self) -> bool:
        return self.used > self.window

    def sentence(self) -> str:
        """What the bar shows, in one sentence."""
        shares = ", ".join(f"{name} {n:,}" for name, n in self.parts)
        shares = shares[:1].upper() + shares[1:]  # a sentence: "Your prompt 308, ..."
        if self.over:
            return (
                f"{shares}: {self.used:,} tokens, {self.used - self.window:,} more than the window of "
                f"{self.window:,}. Something must give: fewer or smaller chunks, a shorter prompt, or a shorter answer."
            )
        return f"{shares}: {self.used:,} of {self.window:,} tokens ({self.used / self.window:.0%}); {self.free:,} left."


def context_share(*, window: int, prompt: int, chunks: int, chunk_tokens: int, answer: int) -> ContextShare:
    """The window's parts: your prompt, `chunks` retrieved chunks of `chunk_tokens`, the answer."""
    if window < 1:
        raise ValueError("the window must hold at least 1 token")
    return ContextShare(
        window,
        (("your prompt", max(0, prompt)), (f"{chunks} retrieved chunks", max(0, chunks) * max(0, chunk_tokens)),
         ("the answer", max(0, answer))),
    )  # fmt: skip


def share_bar_html(share: ContextShare) -> str:
    """The window as one bar, each part in its colour, scaled to the window (or to what is used
    when it is over, with the window's end marked)."""
    scale = max(share.window, share.used) or 1
    cells = "".join(
        f'<div title="{html.escape(name)}: {n:,} tokens" style="width:{100 * n / scale:.3f}%;'
        f'background:{colour}"></div>'
        for (name, n), colour in zip(share.parts, COLOURS)
        if n
    )
    end = (
        f'<div style="position:absolute;left:{100 * share.window / scale:.3f}%;top:-4px;bottom:-4px;'
        'border-left:3px solid #cf222e"></div>'
        if share.over
        else ""
    )
    legend = " ".join(
        f'<span style="margin-right:1rem"><span style="display:inline-block;width:.8rem;height:.8rem;'
        f'background:{colour};vertical-align:middle"></span> {html.escape(name)} ({n:,})</span>'
        for (name, n), colour in zip(share.parts, COLOURS)
    )
    return (
        '<div style="position:relative;display:flex;height:1.4rem;border:1px solid #d0d7de;'
        f'border-radius:4px;background:#f6f8fa">{cells}{end}</div>'
        f'<div style="font-size:.8rem;color:#57606a;margin-top:.3rem">{legend}</div>'
    )
