"""The counts the text box asks the server for while the user types (ui/count_api.py), in a real
Chromium: shown on the card they belong to as soon as they come, then drawn again by the rerun
(React writes its own number into the same text node); without the route, the rerun alone. The
tests share one workspace page (`home`, conftest.py)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator

import pytest

from tests.conftest import builtin
from tests.e2e.conftest import COUNT, COUNT_VALUE, AppPage, type_text

pytestmark = pytest.mark.e2e

DEFAULT = ["o200k_base", "cl100k_base", "llama3"]  # the default models' tokenizers, in card order

# Every number each card shows, in order (the values a card passes through, not only its last).
WATCH = """() => { window.__twShown = [];
  const cards = () => [...document.querySelectorAll('.st-key-workspace_counts [data-testid=stMarkdown]')];
  const note = () => cards().forEach((card, i) => {
    const h = card.querySelector('h3'); const seen = window.__twShown;
    if (h && !seen.some(([j, v]) => j === i && v === h.innerText.trim()) ) seen.push([i, h.innerText.trim()]);
  });
  new MutationObserver(note).observe(document.body, {subtree: true, childList: true, characterData: true});
}"""


def _box(app):
    return app.main.locator("textarea.tw-live-box")


def _shown(app) -> list[str]:
    return [c.locator(COUNT_VALUE).inner_text().strip() for c in app.page.locator(COUNT).all()]


def _start(app, text: str) -> None:
    type_text(app, text)
    assert _shown(app) == [f"{builtin(t).count(text):,}" for t in DEFAULT]


@pytest.fixture
def app_page(home) -> Iterator[AppPage]:
    """The shared workspace page; the routes a test puts on the count route go with the test."""
    yield home
    home.page.unroute_all(behavior="wait")


@pytest.fixture
def listen(app_page) -> Iterator[Callable[[], list]]:
    """`listen()`: the count route's responses from then on, until the test ends."""
    heard: list = []

    def note(response) -> None:
        if response.url.endswith("/api/counts"):
            heard.append(response)

    def start() -> list:
        app_page.page.on("response", note)
        started.append(note)
        return heard

    started: list = []
    yield start
    for fn in started:
        app_page.page.remove_listener("response", fn)


def test_the_routes_answer_goes_on_each_card_and_the_rerun_then_draws_its_own(app_page):
    text = "counting tokens as you type, in a real browser"
    _start(app_page, text)
    asked: list[dict] = []

    def answer(route):  # numbers no tokenizer gives here, to see where the answer went
        body = json.loads(route.request.post_data)
        asked.append(body)
        route.fulfill(json={"tokens": [424_242 + i for i in range(len(body["ids"]))]})

    app_page.page.route("**/api/counts", answer)
    app_page.page.evaluate(WATCH)
    _box(app_page).press("End")
    app_page.run(lambda: app_page.page.keyboard.type("!"))
    assert asked == [{"text": text + "!", "ids": DEFAULT, "window": 128_000, "special": False}]
    shown = app_page.page.evaluate("() => window.__twShown")
    for i in range(3):  # each card showed its own answer, then the rerun's count in the same node
        assert [i, f"{424_242 + i:,}"] in shown, shown
    assert _shown(app_page) == [f"{builtin(t).count(text + '!'):,}" for t in DEFAULT]
    assert not app_page.exceptions()


def test_the_real_route_counts_what_the_rerun_counts(app_page, listen):
    text = "Special <|endoftext|> text, 日本語, emoji 👩‍💻 and code: x = f(y)"
    _start(app_page, text)
    answers = listen()
    _box(app_page).press("End")
    app_page.run(lambda: app_page.page.keyboard.type(" more"))
    want = [builtin(t).count(text + " more") for t in DEFAULT]
    assert [r.json()["tokens"] for r in answers] == [want]
    assert _shown(app_page) == [f"{n:,}" for n in want]


def test_without_the_route_the_rerun_alone_updates_the_counts(app_page):
    text = "a server without the count route"
    _start(app_page, text)
    app_page.page.route("**/api/counts", lambda route: route.abort())
    for more in (" and", " more", " words"):
        _box(app_page).press("End")
        app_page.run(lambda m=more: app_page.page.keyboard.type(m))
        text += more
        assert _shown(app_page) == [f"{builtin(t).count(text):,}" for t in DEFAULT]
    assert not app_page.exceptions()


def test_an_answer_for_other_cards_is_not_shown(app_page):
    """An answer whose cards are not the page's (a model changed meanwhile) is left alone."""
    text = "the cards on the page are not the ones asked for"
    _start(app_page, text)
    app_page.page.route("**/api/counts", lambda route: route.fulfill(json={"tokens": [1, 2]}))
    app_page.page.evaluate(WATCH)
    _box(app_page).press("End")
    app_page.run(lambda: app_page.page.keyboard.type("?"))
    shown = app_page.page.evaluate("() => window.__twShown")
    assert [0, "1"] not in shown and [1, "2"] not in shown, shown
    assert _shown(app_page) == [f"{builtin(t).count(text + '?'):,}" for t in DEFAULT]


def test_half_an_emoji_from_the_browser_is_counted_as_u_fffd_and_breaks_nothing(app_page, listen):
    """A browser can hold half an emoji (a lone surrogate: a script cut a string, a paste): the
    route and the rerun count it as every tokenizer reads it, U+FFFD, and nothing fails."""
    _start(app_page, "start")
    answers = listen()
    put = """(box) => { box.value = 'half an emoji ' + String.fromCharCode(0xd83d) + ' here';
                        box.dispatchEvent(new Event('input', {bubbles: true})); }"""
    app_page.run(lambda: _box(app_page).evaluate(put))
    assert [r.status for r in answers] == [200]
    whole = "half an emoji \ufffd here"
    assert _shown(app_page) == [f"{builtin(t).count(whole):,}" for t in DEFAULT]
    assert not app_page.exceptions()
