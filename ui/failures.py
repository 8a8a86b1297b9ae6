"""The app's one handler for a user's own tokenizer that fails: on a page, in a fragment, in a callback.

A tokenizer a user uploaded can pass every check and still fail later on some text
(`TokenizerFailed`). Where a page calls tokenizers one by one it leaves the failing one out
itself (`widgets.working_tokenizers`, the versions comparison); whatever still escapes ends
here and becomes the same message box, never an exception on the page.

Streamlit runs three kinds of code, and each needs the handler on its own path:

* a page run: `streamlit_app.py` runs the page inside `failures_shown()`;
* a fragment's own rerun does not pass through the page: decorate the fragment's function with
  `guarded` (under `@st.fragment`);
* a widget callback runs before the script, outside both: give `on_click` / `on_change` a
  `guarded_callback(fn)`; its failure is kept and shown by the next page or fragment run.

`guarded_callback` also catches anything else a callback raises (an upload's value that no check
foresaw): the exception is logged once, with its traceback, for the maintainers; the user gets one
sentence, and what the callback had not yet changed stays as it was (callbacks check what comes
in before they change the session).
"""

from __future__ import annotations

import contextlib
import functools
import logging
from collections.abc import Callable, Iterator
from typing import ParamSpec, TypeVar

import streamlit as st

from tokenizer_core import TokenizerFailed

from .state import tokenizer_label
from .widgets import tokenizer_failed

P = ParamSpec("P")
R = TypeVar("R")
_PENDING = "app_failures_pending"  # (tokenizer id, problem) of failures in callbacks, not yet shown
_UNEXPECTED = "app_callback_unexpected"  # a callback raised something else: one message to show
UNEXPECTED_MESSAGE = (
    "That did not work: the app met a problem it did not expect while handling it (the problem has "
    "been logged for the maintainers). The rest of your work is unchanged; check the file or value "
    "and try again."
)
_log = logging.getLogger(__name__)


def show_failure(exc: TokenizerFailed) -> None:
    """The message for a user's tokenizer that failed (named as this session names it)."""
    tokenizer_failed(exc, tokenizer_label(exc.tokenizer_id))


def show_pending_failures() -> None:
    """Show (once) the failures that callbacks recorded since the last run."""
    for tokenizer_id, problem in st.session_state.pop(_PENDING, []):
        show_failure(TokenizerFailed(tokenizer_id, problem))
    if st.session_state.pop(_UNEXPECTED, False):
        st.error(UNEXPECTED_MESSAGE, icon=":material/error:")


@contextlib.contextmanager
def failures_shown() -> Iterator[None]:
    """Run a page or a fragment: callbacks' failures first, then a failure inside it as a message."""
    show_pending_failures()
    try:
        yield
    except TokenizerFailed as exc:
        show_failure(exc)


def guarded(fn: Callable[P, R]) -> Callable[P, R | None]:
    """A fragment's function (or any drawing function) run inside `failures_shown`."""

    @functools.wraps(fn)
    def run(*args: P.args, **kwargs: P.kwargs) -> R | None:
        with failures_shown():
            return fn(*args, **kwargs)
        return None

    return run


def guarded_callback(fn: Callable[P, None]) -> Callable[P, None]:
    """A widget callback whose failure is kept for the next run to show (a callback cannot draw):
    a user's tokenizer that failed, or anything else it raised (logged once, shown as one sentence)."""

    @functools.wraps(fn)
    def run(*args: P.args, **kwargs: P.kwargs) -> None:
        try:
            fn(*args, **kwargs)
        except TokenizerFailed as exc:
            st.session_state.setdefault(_PENDING, []).append((exc.tokenizer_id, exc.problem))
        except Exception:  # noqa: BLE001  (the one handler: logged here, a sentence for the user)
            _log.exception("a widget callback (%s) failed", getattr(fn, "__qualname__", "?"))
            st.session_state[_UNEXPECTED] = True

    return run
