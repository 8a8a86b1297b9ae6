"""The test harness itself: browser tests skip on a laptop without Chromium, fail in CI."""

from __future__ import annotations

import pytest

from bench import browser
from tests.e2e import conftest as e2e


def test_missing_chromium_skips_on_a_laptop(monkeypatch):
    monkeypatch.setattr(browser, "CHROMIUM", "/nonexistent/chromium")
    monkeypatch.setattr(browser.shutil, "which", lambda name: None)
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match="apt-get install chromium"):
        e2e._chromium_or_skip()


def test_missing_chromium_fails_in_ci(monkeypatch):
    monkeypatch.setattr(browser, "CHROMIUM", "/nonexistent/chromium")
    monkeypatch.setattr(browser.shutil, "which", lambda name: None)
    monkeypatch.setenv("CI", "1")
    with pytest.raises(pytest.fail.Exception, match="CI is set"):
        e2e._chromium_or_skip()
