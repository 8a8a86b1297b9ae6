"""Prices on the pages, headless (AppTest): what every page shows equals what genai-prices itself
computes, below and above a tier's start; edits win and are marked; no price says so; Claude's
count is the user's."""

from __future__ import annotations

from datetime import datetime
from decimal import ROUND_HALF_UP, Decimal

import pytest
from genai_prices import Usage, calc_price

from tests.catalog.test_prices import API_NAMES
from tests.conftest import builtin, open_app
from tests.picker_helpers import choose, picker_data
from tokenizer_core.catalog.entries import CATALOG, MODELS
from tokenizer_core.catalog.source import NOON, RATE_OPTIONS, parse_ref
from tokenizer_core.tokenizers import load_sample
from ui.prices import pricing_day

COUNTED = [m for m in CATALOG if m.price and m.tokenizer_id]  # every priced model the app counts


def source_total(model_id: str, tin: int, tout: int, *, cached: int = 0, rate: str = "standard") -> Decimal:
    """What genai-prices' own calc_price charges for one request (read for the page's day, at noon UTC)."""
    ref = MODELS[model_id].price
    provider, source_id = parse_ref(ref)
    context = RATE_OPTIONS[rate].context
    calc = calc_price(
        Usage(input_tokens=tin, cache_read_tokens=cached, output_tokens=tout),
        model_ref=API_NAMES.get(ref, source_id), provider_id=provider,
        genai_request_timestamp=datetime.combine(pricing_day(), NOON), price_context=dict(context) if context else None,
    )  # fmt: skip
    assert calc.model.id == source_id
    return calc.total_price


def cost_table(at):
    return next(df.value for df in at.dataframe if "Per request $" in df.value.columns)


def captions(at) -> str:
    return " ".join(c.value.replace("\\", "") for c in at.caption)


def editor_key(at, prefix: str) -> str:
    """The key of the price editor drawn (it carries a digest of the rows shown)."""
    (key,) = [k for df in at.dataframe if (k := df.proto.id.rpartition("-")[2]).startswith(prefix)]
    return key


def test_every_counted_catalog_model_costs_what_the_source_computes_on_the_prompt_workspace(app):
    text = load_sample("mixed")
    choose(app, "workspace_tokenizers", [m.id for m in COUNTED])
    assert not app.exception, app.exception
    table = cost_table(app).set_index("Model")
    assert len(table) == len(COUNTED)
    for m in COUNTED:
        row = table.loc[m.name]
        n = builtin(m.tokenizer_id).count(text)
        assert row["Input tokens"] == n, m.id
        # an embedding model has no output price: the source bills its output tokens at nothing
        # shown to the micro-dollar and the cent, rounded half up from the source's exact total
        # (the table's printf format would round the float: 15.995 -> "$15.99")
        total = source_total(m.id, n, 300)
        assert row["Per request $"] == float(total.quantize(Decimal("1e-6"), ROUND_HALF_UP)), m.id
        assert row["Per 1,000 requests $"] == float(
            (total * 1000).quantize(Decimal("0.01"), ROUND_HALF_UP)
        ), m.id
        assert "your price" not in row["Note"]


@pytest.mark.parametrize("tin", [1_000, 300_000])  # below and above every tier start (272K, 200K, 100K)
def test_every_counted_catalog_model_costs_what_the_source_computes_on_language_costs(tin):
    app = open_app("app_pages/languages.py")
    app.session_state["languages_cost_models"] = [m.id for m in COUNTED]
    app.number_input(key="languages_requests").set_value(3)
    app.number_input(key="languages_in_tokens").set_value(tin)
    app.number_input(key="languages_out_tokens").set_value(2_000).run()
    assert not app.exception, app.exception
    wide = next(df.value for df in app.dataframe if "GPT-5.5" in df.value.columns)
    for m in COUNTED:
        # the table shows cents: the source's exact total rounded half up
        cents = (3 * source_total(m.id, tin, 2_000)).quantize(Decimal("0.01"), ROUND_HALF_UP)
        assert wide.loc["English", m.name] == float(cents), (m.id, tin)
    # GPT-5.5 bills a prompt over 272,000 tokens at 2x input and 1.5x output, and the page says so
    if tin > 272_000:
        assert wide.loc["English", "GPT-5.5"] == 3 * (tin * 10 + 2_000 * 45) / 1e6
    assert (
        "GPT-5.5: Prompts over 272,000 input tokens: the whole request at 2× the input and 1.5× the output"
        in (captions(app))
    )


def test_batch_rate_is_offered_and_used_where_the_source_has_one(app):
    choose(app, "workspace_tokenizers", ["gpt-5.5", "llama-3.1-8b"])
    app.session_state["prices_rate"] = "batch"
    app.run()
    text = load_sample("mixed")
    table = cost_table(app).set_index("Model")
    n = builtin("o200k_base").count(text)
    assert table.loc["GPT-5.5", "Per request $"] == float(source_total("gpt-5.5", n, 300, rate="batch"))
    assert table.loc["GPT-5.5", "Note"] == "batch" and table.loc["GPT-5.5", "$/1M in / out"] == "$2.50 / $15"
    assert "batch" not in table.loc["Llama 3.1 8B", "Note"]  # no batch rate at AWS Bedrock in the source
    assert "Llama 3.1 8B: no batch rate in the source, so its standard price is used." in captions(app)
    assert app.segmented_control(key="workspace_price_rate").options == [
        "Standard",
        "Batch",
        "Flex",
        "Priority",
    ]


def test_claude_costs_the_count_the_user_enters_above_and_below_its_tier(app):
    choose(app, "workspace_tokenizers", ["claude-sonnet-4-5", "gpt-4o"])
    assert "Claude Sonnet 4.5" not in cost_table(app)["Model"].tolist()  # no count of ours, ever
    assert not [m for m in app.metric if "Claude" in m.label]
    assert "Claude Sonnet 4.5: no count yet" in captions(app)
    for entered in (150_000, 250_000):  # Anthropic bills Sonnet 4.5 prompts over 200,000 tokens higher
        app.number_input(key="workspace_entered_claude-sonnet-4-5").set_value(entered).run()
        row = cost_table(app).set_index("Model").loc["Claude Sonnet 4.5"]
        assert row["Input tokens"] == entered and row["Counted by"] == "you (Anthropic's count)"
        assert row["Per request $"] == float(source_total("claude-sonnet-4-5", entered, 300))
    assert row["Note"].startswith("over 200,000 input tokens")


def test_cached_input_is_billed_at_the_cached_rate(app):
    choose(app, "workspace_tokenizers", ["gpt-4o"])
    app.number_input(key="workspace_cached_tokens").set_value(200).run()
    n = builtin("o200k_base").count(load_sample("mixed"))
    row = cost_table(app).set_index("Model").loc["GPT-4o"]
    total = source_total("gpt-4o", n, 300, cached=200)
    assert row["Per request $"] == float(total.quantize(Decimal("1e-6"), ROUND_HALF_UP))


def test_an_edited_price_wins_everywhere_and_is_marked_with_the_source_beside_it(app):
    choose(app, "workspace_tokenizers", ["gpt-4o", "gpt-5.5"])
    key = editor_key(app, "workspace_prices_editor_")
    app.session_state[key] = {"edited_rows": {0: {"input": 1.0}}, "added_rows": [], "deleted_rows": []}
    app.run()
    assert not app.exception, app.exception
    assert app.session_state["prices_edits"] == {("gpt-4o", "standard"): {"input": Decimal(1)}}
    n = builtin("o200k_base").count(load_sample("mixed"))
    row = cost_table(app).set_index("Model").loc["GPT-4o"]
    assert row["Note"] == "your price" and row["$/1M in / out"] == "$1 / $10"
    assert row["Per request $"] == float(Decimal(n) * 1 / 1_000_000 + Decimal(300) * 10 / 1_000_000)
    editor = next(df.value for df in app.dataframe if "source" in df.value.columns).set_index("model")
    assert editor.loc["GPT-4o", "edited"] == "edited" and editor.loc["GPT-4o", "source"].startswith(
        "$2.50 · "
    )
    assert "Your edited prices for GPT-4o" in captions(app)
    # the Language costs page uses the same table, and says the prices are edited
    app.switch_page("app_pages/languages.py").run()
    app.session_state["languages_cost_models"] = ["gpt-4o"]
    app.number_input(key="languages_requests").set_value(1)
    app.number_input(key="languages_in_tokens").set_value(1_000_000)
    app.number_input(key="languages_out_tokens").set_value(0).run()
    wide = next(df.value for df in app.dataframe if "GPT-4o" in df.value.columns)
    assert wide.loc["English", "GPT-4o"] == 1.0
    assert "Your edited prices for GPT-4o" in captions(app)
    assert "days ago" not in " ".join(w.value for w in app.warning)
    # reset: the source's prices again
    app.button(key="languages_prices_editor_reset").click().run()
    assert app.session_state["prices_edits"] == {}


def test_a_model_without_a_price_says_so_and_never_shows_none(app):
    choose(app, "workspace_tokenizers", ["gpt-2", "mistral-small-2409", "gpt-4o"])
    assert not app.exception
    assert "No price in the source for GPT-2, Mistral Small (24.09)" in captions(app)
    table = cost_table(app)
    assert table["Model"].tolist() == ["GPT-4o"]
    assert not table.isna().any().any()
    editor = next(df.value for df in app.dataframe if "source" in df.value.columns).set_index("model")
    assert editor.loc["GPT-2", "source"] == "no price in the source"
    shown = " ".join(str(v) for df in app.dataframe for v in df.value.astype(str).to_numpy().ravel())
    assert "None" not in shown


def test_a_model_only_the_source_has_is_costed_with_the_users_tokenizer(app):
    sid = next(
        o["id"] for o in picker_data(app, "workspace_tokenizers")["options"] if o["name"] == "GPT-6 Astra"
    )
    choose(app, "workspace_tokenizers", [sid])
    assert "GPT-6 Astra: no count yet" in captions(app)
    app.selectbox(key=f"workspace_tokenizers_users_tok_{sid}").set_value("o200k_base").run()
    row = cost_table(app).set_index("Model").loc["GPT-6 Astra"]
    assert row["Counted by"] == "o200k_base (your choice)"
    n = builtin("o200k_base").count(load_sample("mixed"))
    calc = calc_price(Usage(input_tokens=n, output_tokens=300), model_ref="gpt-6-astra", provider_id="openai",
                      genai_request_timestamp=datetime.combine(pricing_day(), NOON))  # fmt: skip
    assert row["Per request $"] == float(calc.total_price)


def test_the_workspace_file_keeps_edited_prices_and_old_files_still_load(app):
    import json

    from tokenizer_core.workspace.file import Workspace, load_workspace, save_workspace

    ws = Workspace(
        models=["gpt-4o"], price_edits={("gpt-4o", "standard"): {"input": Decimal("1.5")}}, price_rate="batch"
    )
    doc = json.loads(save_workspace(ws))
    assert doc["prices"] == {
        "rate": "batch",
        "edits": [{"model": "gpt-4o", "rate": "standard", "input": "1.5"}],
    }
    back, notes = load_workspace(json.dumps(doc), known_models=["gpt-4o"])
    assert back.price_edits == ws.price_edits and back.price_rate == "batch" and notes == []
    del doc["prices"]  # a file saved before prices were kept
    old, notes = load_workspace(json.dumps(doc), known_models=["gpt-4o"])
    assert old.price_rate is None and old.price_edits == {} and notes == []
    # a bad value is left out with a note naming it, and the rest of the file loads
    doc["prices"] = {"rate": "batch", "edits": [{"model": "gpt-4o", "input": -1}]}
    bad, notes = load_workspace(json.dumps(doc), known_models=["gpt-4o"])
    assert bad.price_edits == {} and bad.price_rate == "batch" and bad.models == ["gpt-4o"]
    assert len(notes) == 1 and "a price cannot be negative" in notes[0]
    doc["prices"] = {"rate": "cheapest", "edits": []}
    _, notes = load_workspace(json.dumps(doc), known_models=["gpt-4o"])
    assert notes == ["the file's price rate 'cheapest' is not one this app offers: standard prices used"]


def test_the_price_editor_shows_a_dash_not_none_where_a_model_has_no_price(app):
    """Issue 31 (10): "None" showed in the editor's cached column."""
    choose(app, "workspace_tokenizers", ["gpt-4", "gpt-4o", "text-embedding-3-small"])
    assert not app.exception, app.exception
    editor = next(df.value for df in app.dataframe if "source" in df.value.columns).set_index("model")
    cells = editor[["input", "cached_input", "output"]]
    assert not cells.isna().any().any() and "None" not in set(cells.to_numpy().ravel())
    # the source's own prices: GPT-4o caches at $1.25 per million, GPT-4 and the embedding model do not
    assert editor.loc["GPT-4o", "cached_input"] == "1.25" and editor.loc["GPT-4o", "input"] == "2.5"
    assert editor.loc["GPT-4", "cached_input"] == "–"
    # a dash left as it is changes nothing; a price typed over it is an edit
    key = editor_key(app, "workspace_prices_editor_")
    row = list(editor.index).index("GPT-4")
    app.session_state[key] = {"edited_rows": {row: {"output": "60"}}, "added_rows": [], "deleted_rows": []}
    app.run()
    assert app.session_state.get("prices_edits", {}) == {}
    app.session_state[key] = {
        "edited_rows": {row: {"cached_input": "15"}},
        "added_rows": [],
        "deleted_rows": [],
    }
    app.run()
    assert app.session_state["prices_edits"] == {("gpt-4", "standard"): {"cached_input": Decimal(15)}}
    assert not [w for w in app.warning if "not used" in w.value]
