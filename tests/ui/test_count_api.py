"""The count route the workspace's text box asks while the user types (ui/count_api.py): the
counts stock tokenizers give, only for requests it should answer, and served by the command
users run (`streamlit run streamlit_app.py` finds the app that serves it)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from starlette.applications import Starlette
from starlette.testclient import TestClient

from tests.references import stock_tiktoken
from ui.count_api import MAX_TOKENIZERS, PATH, count_url, parse_request, routes
from ui.live_text import LIVE_LIMIT

ROOT = Path(__file__).resolve().parents[2]
TEXT = "Hello <|endoftext|> world! 日本語のテキスト 👩‍💻 x = f(y)\n"


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(Starlette(routes=routes()))


@pytest.fixture(scope="module")
def stock(tmp_path_factory) -> dict:
    return stock_tiktoken(tmp_path_factory.mktemp("tiktoken"))


def _ask(client: TestClient, **fields):
    body = {"text": TEXT, "ids": ["o200k_base"], "window": 8192, "special": False} | fields
    return client.post(PATH, content=json.dumps(body))


def test_it_answers_the_counts_stock_tiktoken_gives_in_the_order_asked(client, stock):
    ids = ["cl100k_base", "o200k_base", "p50k_base"]
    plain = _ask(client, ids=ids)
    assert plain.status_code == 200 and plain.headers["cache-control"] == "no-store"
    assert plain.json() == {"tokens": [len(stock[i].encode_ordinary(TEXT)) for i in ids]}
    special = _ask(client, ids=ids, special=True).json()["tokens"]
    assert special == [len(stock[i].encode(TEXT, allowed_special="all")) for i in ids]
    assert special != plain.json()["tokens"]  # <|endoftext|>: one token, or several as text


def test_what_it_counted_is_what_the_rerun_then_finds_counted(client, monkeypatch):
    from tests.conftest import builtin
    from tokenizer_core import count_table
    from ui import counting

    text = TEXT * 3 + "a text counted by the route first"
    assert _ask(client, text=text, window=32_768).status_code == 200
    tok = builtin("o200k_base")
    monkeypatch.setattr(type(tok), "count", lambda *a, **k: pytest.fail("counted again"))
    rows = counting.counts(text, [tok], special=False, window=32_768, where=None)
    monkeypatch.undo()
    assert rows == count_table(text, [tok], context_window=32_768)


def _body(**fields) -> bytes:
    """A request with `fields` changed (None: left out)."""
    good = {"text": "x", "ids": ["o200k_base"], "window": 8192, "special": False}
    return json.dumps({k: v for k, v in (good | fields).items() if v is not None}).encode()


@pytest.mark.parametrize(
    "body, says",
    [
        (b"not json", "not a JSON request"),
        (b"\xff\xfe", "not a JSON request"),
        (b"[1, 2]", "not a JSON object"),
        (_body(text=None), "text"),
        (_body(text=5), "text"),
        (_body(ids=[]), "ids"),
        (_body(ids="o200k_base"), "ids"),
        (_body(ids=["o200k_base"] * 17), "ids"),
        (_body(ids=["a-users-own"]), "built-in"),
        (_body(ids=[7]), "built-in"),
        (_body(window=0), "window"),
        (_body(window=True), "window"),
        (_body(window="8k"), "window"),
        (_body(special="yes"), "special"),
        (_body(special=None), "special"),
    ],
)
def test_a_request_it_cannot_answer_gets_a_400_that_says_why(client, body, says):
    answer = client.post(PATH, content=body)
    assert answer.status_code == 400 and says in answer.json()["error"]
    with pytest.raises(ValueError, match=says):
        parse_request(body, max_chars=LIVE_LIMIT)


def test_a_text_longer_than_the_box_counts_as_you_type_is_refused_before_it_is_read(client):
    assert MAX_TOKENIZERS == 16
    assert _ask(client, text="a" * LIVE_LIMIT).status_code == 200
    too_long = _ask(client, text="a" * (LIVE_LIMIT + 1))
    assert too_long.status_code == 400 and "longer" in too_long.json()["error"]
    huge = client.post(PATH, content=b" " * (5 * LIVE_LIMIT))  # refused by its size alone
    assert huge.status_code == 400 and "longer" in huge.json()["error"]


def test_only_post_is_served(client):
    assert client.get(PATH).status_code == 405


def test_the_route_lives_under_the_servers_base_url_path(monkeypatch):
    from streamlit import config

    assert count_url() == PATH
    monkeypatch.setattr(
        config, "get_option", lambda name: "/team/tokens/" if name == "server.baseUrlPath" else None
    )
    assert count_url() == "/team/tokens/api/counts"


def test_streamlit_run_serves_the_app_with_its_route():
    """`streamlit run streamlit_app.py` (the README's command) looks for an ASGI app in the
    file; imported (not run as a page) the file makes one, with the count route."""
    import importlib

    from streamlit.starlette import App
    from streamlit.web.server.app_discovery import discover_asgi_app

    found = discover_asgi_app(ROOT / "streamlit_app.py")
    assert found.is_asgi_app and found.app_name == "app"
    module = importlib.import_module("streamlit_app")
    assert isinstance(module.app, App)
    assert [r.path for r in module.app._user_routes] == [PATH]
    assert Path(module.app.script_path).resolve() == ROOT / "streamlit_app.py"


def test_half_an_emoji_is_counted_as_the_rerun_counts_it(client, stock):
    """A browser can send a lone surrogate (half an emoji); every tokenizer reads it as U+FFFD,
    and so does the route (Streamlit's caches cannot hash it)."""
    text = "half an emoji: \ud83d and a whole one: \U0001f600"
    answer = _ask(client, text=text, ids=["o200k_base", "cl100k_base"])
    assert answer.status_code == 200
    whole = text.replace("\ud83d", "\ufffd")
    assert answer.json()["tokens"] == [
        len(stock[i].encode_ordinary(whole)) for i in ("o200k_base", "cl100k_base")
    ]


def test_the_box_hands_python_half_an_emoji_as_u_fffd(monkeypatch):
    import ui.live_text as live

    state = {"k_live_box": {"typed": {"text": "a \ud83d b", "rev": "r:1"}}, "k_live_rev": "r:1"}
    monkeypatch.setattr(live.st, "session_state", state)
    live._on_typed("k")
    assert state["k"] == state["k_live_seen"] == "a \ufffd b"
    state["k_live_box"] = {"typed": {"text": "typed before a sample replaced it", "rev": "r:0"}}
    live._on_typed("k")
    assert state["k"] == "a \ufffd b"  # an older revision's text is not taken


@pytest.mark.parametrize(
    "body",
    [
        b'{"text": "x", "ids": ["o200k_base"], "window": ' + b"9" * 4_400 + b', "special": false}',
        b'{"text": "x", "ids": ["o200k_base"], "window": 8192, "special": false, "n": -'
        + b"1" * 5_000
        + b"}",
        _body(window=10**10),
    ],
)
def test_a_window_out_of_range_or_thousands_of_digits_long_is_refused_in_words(client, body):
    answer = client.post(PATH, content=body)
    error = answer.json()["error"]
    assert answer.status_code == 400 and "window" in error and "100,000,000" in error
    assert "set_int_max_str_digits" not in error and "Exceeds the limit" not in error
