"""The workspace shows the context window shared by the prompt, the retrieved chunks and the answer."""

from __future__ import annotations

from tests.conftest import builtin
from tokenizer_core import BUILTINS
from ui.workspace.counts import CONTEXT_WINDOWS


def test_the_prompt_the_chunks_and_the_answer_share_one_window(app):
    app.session_state["workspace_text"] = "Summarise the retrieved passages in two sentences."
    app.run()
    assert not app.exception
    expander = next(e for e in app.expander if e.label == "One context window, shared")
    window = CONTEXT_WINDOWS[app.selectbox(key="workspace_ctx").value]
    captions = " ".join(str(c.value) for c in expander.caption)
    # the first tokenizer of the models chosen (the page's default models), named in the caption
    tok = next(builtin(i) for i in BUILTINS if f" tokens in {BUILTINS[i].info.name}." in captions)
    n = tok.count("Summarise the retrieved passages in two sentences.")
    assert f"Your prompt above is {n:,} tokens in {tok.info.name}." in captions
    assert f"{n + 5 * 512 + 1_000:,} of {window:,} tokens" in captions
    expander.number_input(key="workspace_share_chunks").set_value(1_000).run()
    assert not app.exception
    over = next(e for e in app.expander if e.label == "One context window, shared")
    assert any("more than the window" in str(x.value) for x in over.error)


def test_the_home_page_draws_no_markdown_with_raw_html(app):
    """Raw HTML in a markdown element makes every fresh tab fetch ~190 KB more JavaScript (the
    markdown renderer's HTML plugin); the home page's HTML goes through st.html instead."""
    app.session_state["workspace_text"] = "A prompt <b>with</b> tags."
    app.run()
    assert not app.exception
    raw = [m.value for m in app.markdown if m.proto.allow_html]
    assert raw == [], raw[:1]
