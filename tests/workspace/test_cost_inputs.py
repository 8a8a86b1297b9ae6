"""The cost inputs (output tokens, cached tokens, requests, rate) travel in the share link and
the workspace file, checked where they come in; old links and files still open."""

from __future__ import annotations

import json
import random
from urllib.parse import urlencode

import pytest

from tokenizer_core.workspace import read_share_params
from tokenizer_core.workspace.cost_inputs import CostInputs
from tokenizer_core.workspace.file import FORMAT, Workspace, load_workspace, save_workspace
from tokenizer_core.workspace.share import MAX_LINK_CHARS, MAX_SHARED_TEXT_BYTES, share_link

SETTINGS = dict(
    tokenizers=["o200k_base"], view="text", context_window=8192, whitespace=False, allow_special=False
)
MINE = CostInputs(output_tokens=1_234, cached_tokens=500, requests=20_000, rate="batch")


def test_the_cost_inputs_travel_in_the_link():
    params = share_link(text="hi", costs=MINE, **SETTINGS).params
    state = read_share_params(params, known_tokenizers=["o200k_base"])
    assert state.costs == {"output_tokens": 1_234, "cached_tokens": 500, "requests": 20_000, "rate": "batch"}
    assert state.warnings == []


def test_an_old_link_without_them_sets_none_and_warns_of_nothing():
    state = read_share_params(
        {"tok": "o200k_base", "view": "text", "ctx": "8192"}, known_tokenizers=["o200k_base"]
    )
    assert state.costs == {} and state.warnings == [] and state.left_out == []


@pytest.mark.parametrize(
    "params",
    [
        {"req": "0"},
        {"req": "9" * 4_400},
        {"out": "-5"},
        {"out": "10000001"},
        {"cached": "1e3"},
        {"rate": "free"},
    ],
)
def test_a_cost_input_out_of_range_in_a_link_is_a_warning_and_not_used(params):
    state = read_share_params(params, known_tokenizers=[])
    assert state.costs == {} and len(state.warnings) == 1 and len(state.warnings[0]) < 300


def test_a_link_that_leaves_the_text_out_says_so_to_its_receiver():
    long = "x" * (MAX_SHARED_TEXT_BYTES + 1)
    link = share_link(text=long, costs=MINE, **SETTINGS)
    assert "z" not in link.params and link.params["cut"] == "z"
    assert read_share_params(link.params, known_tokenizers=["o200k_base"]).left_out == ["the text"]


def test_the_note_of_what_was_left_out_still_fits_the_link():
    rng = random.Random(0)
    noise = "".join(chr(rng.randrange(0x100, 0x800)) for _ in range(1_900))  # zlib cannot shorten it
    link = share_link(text=noise, messages=[("user", noise[::-1])], costs=MINE, **SETTINGS)
    assert [why for _, why in link.left_out] == ["too long for the link together with the rest"]
    assert "cut" in link.params
    assert len(urlencode(link.params)) <= MAX_LINK_CHARS


def test_the_cost_inputs_travel_in_the_workspace_file():
    costs = {"output_tokens": 1_234, "cached_tokens": 500, "requests": 20_000}
    ws, notes = load_workspace(save_workspace(Workspace(text="hi", costs=costs)), known_models=[])
    assert ws.costs == costs and notes == []


def test_an_old_file_without_costs_loads_with_none():
    doc = {"format": FORMAT, "version": 1, "text": "hi", "prices": {"rate": "batch", "edits": []}}
    ws, notes = load_workspace(json.dumps(doc), known_models=[])
    assert ws.costs == {} and notes == [] and ws.price_rate == "batch"


@pytest.mark.parametrize(
    "costs, kept",
    [
        ({"requests": [1]}, {}),
        ({"requests": 0, "output_tokens": 7}, {"output_tokens": 7}),
        ({"output_tokens": True}, {}),
        ({"cached_tokens": 2.5}, {}),
        ({"requests": 10**13}, {}),
        ("many", {}),
    ],
)
def test_a_cost_input_of_the_wrong_type_or_range_in_a_file_is_a_note(costs, kept):
    doc = {"format": FORMAT, "version": 1, "costs": costs}
    ws, notes = load_workspace(json.dumps(doc), known_models=[])
    assert ws.costs == kept and len(notes) == 1 and len(notes[0]) < 300
