"""Prices from the pinned price source: exact costs (checked through genai-prices' own API), tiers,
rate options, the user's edits, models without a price, and no network, ever."""

from __future__ import annotations

import ast
import doctest
import subprocess
import sys
import textwrap
from datetime import UTC, date, datetime
from decimal import Decimal as D
from pathlib import Path

import pytest
from genai_prices import Usage, calc_price

from tokenizer_core import PriceError
from tokenizer_core.catalog import prices as table
from tokenizer_core.catalog import rates as rates_module
from tokenizer_core.catalog import source
from tokenizer_core.catalog.entries import CATALOG, MODELS
from tokenizer_core.catalog.prices import (
    apply_edit,
    edit_summary,
    edits_from_json,
    edits_to_json,
    model_price,
    price_age_days,
    prices_from_records,
    prices_to_records,
)
from tokenizer_core.catalog.rates import Rate, Rates, exact, money_text
from tokenizer_core.catalog.source import (
    NOON,
    RATE_OPTIONS,
    check_dates,
    parse_ref,
    rate_options,
    rates_on,
    source_label,
    source_model,
)

DAY = date(2026, 12, 1)  # prices are read for a date: the tests fix one
PRICED = [m for m in CATALOG if m.price]
# The source's price list names a few models by a path, not by the id it files them under.
# The name a request sends where the source's model id is not one its own matcher accepts.
API_NAMES = {
    "fireworks:qwen3-235b-a22b": "accounts/fireworks/models/qwen3-235b-a22b",
    "mistral:pixtral-large": "pixtral-large-2411",
}
REQUESTS = [  # (input, cached input, output): below and above every tier start in the catalog (272K, 200K, 100K)
    (1_000, 0, 2_000), (99_999, 0, 500), (200_000, 50_000, 800), (272_000, 0, 1_000), (272_001, 0, 1_000),
    (300_000, 120_000, 4_000),
]  # fmt: skip


def test_module_examples():
    for module in (rates_module, table, source):
        assert doctest.testmod(module).failed == 0, module.__name__


def test_the_source_is_the_pinned_package_and_the_page_names_it():
    from importlib.metadata import version

    assert version("genai-prices") == "0.2.3"
    assert source_label() == "genai-prices 0.2.3"
    req = (Path(__file__).parents[2] / "requirements.txt").read_text(encoding="utf-8")
    assert "genai-prices==0.2.3" in req.splitlines()


def _source_total(ref: str, rate: str, tin: int, cached: int, tout: int):
    """The source's own total for one request, through genai-prices' public calc_price."""
    provider, model_id = parse_ref(ref)
    option = RATE_OPTIONS[rate]
    at = NOON
    if rate == "peak":
        (start, _), *_ = source.peak_hours(ref, on=DAY)
        at = start
    calc = calc_price(
        Usage(input_tokens=tin, cache_read_tokens=cached, output_tokens=tout),
        model_ref=API_NAMES.get(ref, model_id), provider_id=provider,
        genai_request_timestamp=datetime.combine(DAY, at), price_context=dict(option.context or {}) or None,
    )  # fmt: skip
    assert calc.model.id == model_id, f"calc_price found {calc.model.id} for {ref}"
    return calc.total_price


@pytest.mark.parametrize("model", PRICED, ids=[m.id for m in PRICED])
def test_every_catalog_model_costs_exactly_what_the_source_computes(model):
    offered = rate_options(model.price, on=DAY)
    assert offered and offered[0] == "standard"
    for rate in offered:
        price = model_price(model, on=DAY, rate=rate)
        assert price.rate == rate and price.priced, (model.id, rate)
        for tin, cached, tout in REQUESTS:
            out = tout if price.rates.output else 0  # an embedding model writes nothing
            ours = price.rates.request_cost(tin, out, cached_tokens=cached if price.rates.cached_input else 0)
            theirs = _source_total(model.price, rate, tin, cached if price.rates.cached_input else 0, out)
            assert ours == theirs, (model.id, rate, tin, cached, tout)


def test_gpt_5_5_bills_a_whole_long_prompt_at_twice_the_input_and_one_and_a_half_the_output():
    p = model_price(MODELS["gpt-5.5"], on=DAY)
    assert (p.rates.input.base, p.rates.output.base, p.rates.cached_input.base) == (D(5), D(30), D("0.5"))
    assert p.rates.tier_starts() == [272_000]
    # by hand: 272,000 in + 1,000 out = 272000*5/1e6 + 1000*30/1e6 = 1.36 + 0.03
    assert p.rates.request_cost(272_000, 1_000) == D("1.39")
    # one token more: the whole request at $10 / $45: 272001*10/1e6 + 1000*45/1e6
    assert p.rates.request_cost(272_001, 1_000) == D("2.72001") + D("0.045")
    assert p.rates.tier_note() == (
        "Prompts over 272,000 input tokens: the whole request at 2× the input and 1.5× the output price."
    )
    assert p.rates.tier_status(300_000) == "over 272,000 input tokens: 2× input, 1.5× output"
    assert p.rates.tier_status(1_000) == "2× input, 1.5× output over 272,000 input tokens"
    assert p.context_window == 1_000_000


def test_rate_options_batch_flex_and_peak_hours_where_the_source_has_them():
    assert rate_options("openai:gpt-5.5", on=DAY) == ("standard", "batch", "flex", "priority")
    assert rate_options("aws:meta.llama3-1-8b-instruct-v1:0", on=DAY) == ("standard",)
    assert rate_options("deepseek:deepseek-v4-flash", on=DAY) == ("standard", "peak")
    batch = rates_on("openai:gpt-5.5", on=DAY, rate="batch")
    assert batch.input.base == D("2.5") and batch.output.base == D(15)  # half of standard
    # a model without a batch rate keeps its standard price, and says so
    p = model_price(MODELS["llama-3.1-8b"], on=DAY, rate="batch")
    assert p.rate == "standard" and p.input_per_million == 0.22
    peak = model_price(MODELS["deepseek-v4-flash"], on=DAY, rate="peak")
    assert (peak.rates.input.base, peak.rates.output.base) == (D("0.3"), D("1.2"))


def test_prices_follow_the_date_the_source_dates_them_by():
    # the source lists o3 at $10 / $40 until 2025-06-10, then $2 / $8
    assert rates_on("openai:o3", on=date(2025, 6, 9)).input.base == D(10)
    assert rates_on("openai:o3", on=date(2025, 6, 10)).input.base == D(2)
    changes = source.price_changes("google:gemini-3.6-flash", on=DAY)
    assert [(d, r.input.base) for d, r in changes] == [(date(2027, 1, 1), D("1.5"))]


def test_the_source_dates_of_a_check_are_read_from_its_notes_per_model():
    notes = (
        "Flex rates verified on 2026-10-12 at https://x.example/a. Batch rates verified on 2026-10-14 at y."
    )
    assert [d for d, _ in check_dates(notes)] == ["2026-10-12", "2026-10-14"]
    assert check_dates("Released 2026-09-10 (see the updates).") == ()
    assert source_model("openai:gpt-5.5").checked == "2026-10-14"
    assert source_model("aws:meta.llama3-1-8b-instruct-v1:0").checked == ""  # the source gives no date
    assert price_age_days("2026-10-14", today=DAY) == 48 and price_age_days("soon", today=DAY) is None


def test_an_edit_wins_is_marked_keeps_the_tier_ratio_and_the_source_value_beside_it():
    src = model_price(MODELS["gpt-5.5"], on=DAY)
    p = apply_edit(src, {"input": D(4)})
    assert p.edited == ("input",) and p.input_per_million == 4.0 and p.source_rates.input.base == D(5)
    assert p.rates.input.tiers == ((272_000, D(8)),)  # twice the edited price, as the source bills twice
    assert p.rates.output == src.rates.output
    assert p.shown("input") == "$4 (edited; source $5)" and p.shown("output") == "$30"
    assert edit_summary(p) == "GPT-5.5: input $4 (source $5)"
    assert p.rates.request_cost(1_000, 0) == D("0.004")
    # typing the source's own value, or clearing the cell, is no edit
    assert apply_edit(src, {"input": D(5)}).edited == () and apply_edit(src, {"input": None}).edited == ()
    # the catalog applies edits by model and rate option
    edited = model_price(MODELS["gpt-5.5"], on=DAY, edits={("gpt-5.5", "standard"): {"output": D(20)}})
    assert edited.edited == ("output",) and edited.output_per_million == 20.0
    batch = model_price(
        MODELS["gpt-5.5"], on=DAY, rate="batch", edits={("gpt-5.5", "standard"): {"output": D(20)}}
    )
    assert batch.edited == () and batch.output_per_million == 15.0
    # a model the source has no price for can be given one
    mine = model_price(
        MODELS["gpt-2"], on=DAY, edits={("gpt-2", "standard"): {"input": D(1), "output": D(2)}}
    )
    assert mine.priced and mine.shown("input") == "$1 (edited; source no price)"


def test_editor_rows_become_edits_and_bad_cells_are_reported_not_used():
    prices = [model_price(MODELS[m], on=DAY) for m in ("gpt-5.5", "gpt-4o", "gpt-2")]
    records = prices_to_records(prices)
    assert prices_from_records(records, prices=prices) == ({}, [])
    records[0]["input"] = "$4.50"
    records[1]["output"] = -1
    records[1]["input"] = "cheap"
    records[2]["output"] = 1e9
    edits, problems = prices_from_records(records, prices=prices)
    assert edits == {("gpt-5.5", "standard"): {"input": D("4.50")}}
    assert problems == [
        "GPT-4o: the input price must be a number of US dollars per million tokens, e.g. 2.5, not 'cheap'.",
        "GPT-4o: a price cannot be negative (output -1).",
        "GPT-2: $1,000,000,000 per million output tokens is more than $1,000,000: type the price per million "
        "tokens, not per token.",
    ]


def test_edits_round_trip_through_json_and_bad_ones_say_where():
    edits = {("gpt-5.5", "standard"): {"input": D("4.5")}, ("gpt-4o", "batch"): {"output": D("0.1")}}
    assert edits_from_json(edits_to_json(edits)) == edits
    for bad, match in (
        ({"edits": 1}, "must be a list"),
        ([{"rate": "standard"}], 'edit 1: expected an object with a "model"'),
        ([{"model": "x", "input": "lots"}], "x: the input price must be a number"),
        ([{"model": "x", "inptu": 1}], "unknown field 'inptu'"),
        ([{"model": "x", "input": True}], "input must be a number"),
    ):
        with pytest.raises(PriceError, match=match):
            edits_from_json(bad)


def test_money_is_exact():
    assert exact(0.1) == D("0.1") and exact(3) == D(3)
    assert Rates(input=Rate(D("0.15"))).request_cost(1, 0) == D("1.5E-7")
    assert (
        money_text(D("0.125")) == "$0.125"
        and money_text(D("2.5")) == "$2.50"
        and money_text(None) == "no price"
    )


def test_money_rounds_half_up_exactly_and_puts_the_sign_first():
    # half up, as invoices round: 15.995 is 15.99499... as a float, which printf rounds down
    assert money_text(D("15.995"), places=2) == "$16.00" and f"{15.995:.2f}" == "15.99"
    assert money_text(D("2.675"), places=2) == "$2.68" and round(2.675, 2) == 2.67
    assert money_text(D("-0.125"), places=2) == "-$0.13" and money_text(D("1234.5"), places=2) == "$1,234.50"
    # a difference: the sign before the dollar, never "$-0.0700"
    assert money_text(D("-0.0700"), sign=True) == "-$0.07" and money_text(D("0.07"), sign=True) == "+$0.07"
    assert money_text(D("-0.07")) == "-$0.07" and money_text(D("0.000345"), sign=True) == "+$0.000345"


def test_an_update_of_the_source_in_the_process_does_not_change_the_apps_prices():
    """genai-prices lets UpdatePrices (or anyone) replace its data for the whole process; the app
    reads the bundled list, so its prices stay the pinned version's."""
    from genai_prices import data_snapshot

    before = model_price(MODELS["gpt-4o"], on=DAY)
    data_snapshot.set_custom_snapshot(data_snapshot.DataSnapshot(providers=[], from_auto_update=True))
    try:
        source.rates_on.cache_clear()
        source.source_model.cache_clear()
        assert model_price(MODELS["gpt-4o"], on=DAY) == before
    finally:
        data_snapshot.set_custom_snapshot(None)


def test_the_app_never_reaches_for_the_updater():
    """No code of the app names genai-prices' updater or its snapshot switch (docstrings may)."""
    forbidden = {"UpdatePrices", "update_prices", "set_custom_snapshot", "get_snapshot", "data_snapshot",
                 "wait_prices_updated_sync", "wait_prices_updated_async", "httpx", "httpx2"}  # fmt: skip
    root = Path(__file__).parents[2]
    for path in [*root.joinpath("tokenizer_core").rglob("*.py"), *root.joinpath("ui").rglob("*.py"),
                 *root.joinpath("app_pages").rglob("*.py"), root / "streamlit_app.py"]:  # fmt: skip
        if "data" in path.relative_to(root).parts:  # sample files users load, not code of the app
            continue
        names = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Name):
                names.add(node.id)
            elif isinstance(node, ast.Attribute):
                names.add(node.attr)
            elif isinstance(node, ast.ImportFrom):
                names.update([*(node.module or "").split("."), *(a.name for a in node.names)])
            elif isinstance(node, ast.Import):
                names.update(part for a in node.names for part in a.name.split("."))
        assert not names & forbidden, f"{path.name} uses {sorted(names & forbidden)}"


BLOCKED = textwrap.dedent(
    """
    import socket, sys
    attempts = []
    def refuse(*args, **kwargs):
        attempts.append(args[:2])
        raise OSError("network access blocked by the test")
    socket.socket.connect = refuse
    socket.socket.connect_ex = refuse
    socket.create_connection = refuse
    socket.getaddrinfo = refuse
    import urllib.request
    try:  # the block works: a request is refused and counted
        urllib.request.urlopen("http://127.0.0.1:9/", timeout=1)
    except OSError:
        pass
    assert attempts, "the socket block did not catch a request"
    attempts.clear()
    from datetime import date
    from tokenizer_core.catalog.prices import model_price, price_table, uncatalogued_models
    from tokenizer_core.catalog.entries import CATALOG
    table = price_table(CATALOG, on=date(2026, 12, 1), rate="batch")
    extra = uncatalogued_models(on=date(2026, 12, 1))
    import genai_prices
    total = genai_prices.calc_price(genai_prices.Usage(input_tokens=10, output_tokens=10), "gpt-4o").total_price
    assert sum(p.priced for p in table.prices) > 60 and len(extra) > 100, (len(table.prices), len(extra))
    print("attempts", len(attempts), total)
    """
)


def test_prices_are_read_with_every_socket_blocked():
    out = subprocess.run(
        [sys.executable, "-c", BLOCKED], capture_output=True, text=True, timeout=120,
        cwd=Path(__file__).parents[2],
    )  # fmt: skip
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.split()[:2] == ["attempts", "0"], out.stdout


def test_noon_utc_is_the_moment_a_standard_price_is_read():
    assert NOON.tzinfo is UTC and NOON.hour == 12
