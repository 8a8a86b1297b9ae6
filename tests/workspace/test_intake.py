"""What a share link or a workspace file brings in is checked where it enters (core, no Streamlit):
nesting, counts, malformed versions, numbers Python cannot read, lone surrogates, link length."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from urllib.parse import urlencode

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.conftest import ROOT, builtin
from tokenizer_core.catalog.choices import picker_options
from tokenizer_core.workspace import pack_text, read_share_params, unpack_text
from tokenizer_core.workspace.chat import CHAT_FORMATS, ChatRenderError, Message, count_request
from tokenizer_core.workspace.diff import diff_sections, sections_html, shorten
from tokenizer_core.workspace.file import FORMAT, Workspace, WorkspaceError, load_workspace, save_workspace
from tokenizer_core.workspace.intake import read_messages, read_version, read_versions
from tokenizer_core.workspace.limits import MAX_DEPTH, MAX_MESSAGES, MAX_TOOLS, MAX_VERSIONS, nesting_depth
from tokenizer_core.workspace.share import (
    MAX_LINK_CHARS,
    MAX_SHARED_TEXT_BYTES,
    PACKED,
    longest_link,
    share_link,
)
from tokenizer_core.workspace.tools import ToolsError, parse_tools
from tokenizer_core.workspace.versions import PromptVersion

TOO_DEEP = f"nested too deeply (more than {MAX_DEPTH} levels)"
ALL_MODELS = picker_options(
    ["o200k_base", "cl100k_base", "r50k_base", "p50k_base", "llama3", "qwen", "tekken"]
)


# ---------------------------------------------------------------- tools


@pytest.mark.parametrize("depth", [MAX_DEPTH + 1, 900, 3_000, 100_000])
def test_tools_nested_too_deeply_say_so_for_any_depth(depth):
    with pytest.raises(ToolsError, match=re.escape(f"The tools are {TOO_DEEP}.")):
        parse_tools("[" * depth + "]" * depth)
    inner = '{"a": ' * depth + "1" + "}" * depth  # deep inside one tool's schema
    with pytest.raises(ToolsError, match=re.escape(TOO_DEEP)):
        parse_tools(f'[{{"name": "f", "parameters": {{"type": "object", "properties": {{"x": {inner}}}}}}}]')


def test_tools_at_the_depth_limit_are_read_one_more_level_is_not():
    def tools(extra: int) -> list:
        # the list, the tool, "parameters", "properties", "x": 5 levels, then the default's lists
        default = json.loads("[" * extra + "]" * extra)
        return [{"name": "f", "parameters": {"type": "object", "properties": {"x": {"default": default}}}}]

    at_limit = tools(MAX_DEPTH - 5)
    assert nesting_depth(at_limit) == MAX_DEPTH
    assert parse_tools(json.dumps(at_limit))[0]["function"]["name"] == "f"
    with pytest.raises(ToolsError, match=re.escape(TOO_DEEP)):
        parse_tools(json.dumps(tools(MAX_DEPTH - 4)))


def test_too_many_tools_and_numbers_python_cannot_read_are_refused_with_a_message():
    one = {"name": "f", "parameters": {"type": "object", "properties": {}}}
    assert len(parse_tools(json.dumps([one] * MAX_TOOLS))) == MAX_TOOLS
    with pytest.raises(
        ToolsError, match=f"There are {MAX_TOOLS + 1} tools; a request holds at most {MAX_TOOLS}"
    ):
        parse_tools(json.dumps([one] * (MAX_TOOLS + 1)))
    with pytest.raises(ToolsError, match="number too long"):
        parse_tools('[{"name": "f", "description": ' + "9" * 5_000 + "}]")


@pytest.mark.parametrize(
    "properties, fragment",
    [
        ({"a": None}, '"parameters.properties.a" must be a schema object'),
        ({"a": {"enum": 5}}, '"parameters.properties.a.enum" must be a list'),
        ({"a": {"type": None}}, '"parameters.properties.a.type" must be a type name'),
        ({"a": {"type": "array", "items": [1]}}, '"parameters.properties.a.items" must be an object'),
        ({"a": {"oneOf": [None]}}, '"parameters.properties.a.oneOf[0]" must be a schema object'),
    ],
)
def test_schemas_the_chat_formats_cannot_read_get_a_message(properties, fragment):
    tools = [{"name": "f", "parameters": {"type": "object", "properties": properties}}]
    with pytest.raises(ToolsError, match=re.escape(fragment)):
        parse_tools(json.dumps(tools))
    with pytest.raises(ToolsError, match="must be a list of parameter names"):
        parse_tools(json.dumps([{"name": "f", "parameters": {"type": "object", "required": [1]}}]))


_leaf = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=4))
_json = st.recursive(
    _leaf,
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(
            st.sampled_from(
                [
                    "type",
                    "enum",
                    "items",
                    "properties",
                    "required",
                    "description",
                    "default",
                    "oneOf",
                    "anyOf",
                    "title",
                    "examples",
                    "nullable",
                ]
            ),
            inner,
            max_size=4,
        )
    ),  # fmt: skip
    max_leaves=12,
)
_tool = st.fixed_dictionaries(
    {"name": st.text(min_size=1, max_size=4),
     "parameters": st.fixed_dictionaries({"type": st.just("object"),
                                          "properties": st.dictionaries(st.text(max_size=3), _json, max_size=3)},
                                         optional={"required": _json})},
    optional={"description": st.text(max_size=4)},
)  # fmt: skip
_FORMAT_TOKENIZERS = {fid: f.tokenizer_ids[0] for fid, f in CHAT_FORMATS.items()}


@given(st.lists(_tool, min_size=1, max_size=3))
def test_tools_that_pass_the_check_can_be_counted_in_every_chat_format(tools):
    try:
        parsed = parse_tools(json.dumps(tools))
    except ToolsError:
        return
    for fid, fmt in CHAT_FORMATS.items():
        try:
            count_request([Message("user", "hi")], builtin(_FORMAT_TOKENIZERS[fid]), fmt, tools=parsed)
        except ChatRenderError:
            pass


# ---------------------------------------------------------------- versions and messages


def test_a_malformed_version_gives_one_problem_per_bad_field_and_is_left_out():
    version, problems = read_version({"name": ["x"], "kind": "poem", "text": 3, "tools": {}}, "version 2")
    assert version is None
    assert problems == [
        'version 2 left out: "kind" must be "text" or "chat", not \'poem\'',
        'version 2 left out: "name" must be text, not a list',
        'version 2 left out: "text" must be text, not the number 3',
        'version 2 left out: "tools" must be text, not an object',
    ]
    version, problems = read_version(
        {"kind": "chat", "messages": [["user", "a"], ["boss", "b"]]}, "version 3"
    )
    assert version is None and problems == [
        "version 3 left out: \"messages\", message 2: the role 'boss' is not one of system, developer, user, "
        "assistant"
    ]
    deep = "[" * 900 + "]" * 900
    version, problems = read_version(
        {"kind": "chat", "messages": [["user", "a"]], "tools": deep}, "version 4"
    )
    assert version == PromptVersion("version 4", "chat", messages=(("user", "a"),), tools=deep)
    assert problems == [f"version 4: its tools are left out of the counts: The tools are {TOO_DEEP}."]


def test_counts_over_the_caps_are_cut_with_a_message():
    msgs, problems = read_messages([["user", ""]] * 1_300)
    assert len(msgs) == MAX_MESSAGES
    assert problems == [f"the chat has 1,300 messages; the first {MAX_MESSAGES} are kept (the workspace holds up to "
                        f"{MAX_MESSAGES}), 1,250 left out"]  # fmt: skip
    versions, problems = read_versions([{}] * 5_000)
    assert len(versions) == MAX_VERSIONS and problems[0].startswith(
        "there are 5,000 saved versions; the first"
    )
    msgs, problems = read_messages([["user", "a"], 5, ["boss", "b"], ["user", 7], ["x"], ["user", "b"]])
    assert msgs == [("user", "a"), ("user", "b")]
    assert problems == ["the chat: 4 messages left out (message 2: expected [role, text]; message 3: the role 'boss' "
                        "is not one of system, developer, user, assistant; message 4: its text is the number 7, "
                        "not text; and 1 more)"]  # fmt: skip


# ---------------------------------------------------------------- share links


def _link(**fields):
    return read_share_params({k: pack_text(v) for k, v in fields.items()}, known_tokenizers=["o200k_base"])


def test_a_link_with_deep_json_gives_one_warning_each_and_no_exception():
    deep = "[" * 1_990 + "]" * 1_990
    state = _link(zt=deep, zm=deep, zv=deep)
    assert state.tools == deep and state.messages is None and state.versions is None
    assert state.warnings == [
        f"chat tools: The tools are {TOO_DEEP}. They are left out of the counts until fixed.",
        f"chat messages: The chat messages are {TOO_DEEP}.",
        f"prompt versions: The prompt versions are {TOO_DEEP}.",
    ]


def test_a_link_with_malformed_versions_keeps_the_good_ones():
    state = _link(zv=json.dumps([{"name": "a", "text": "x"}, {"name": "b", "kind": "poem"}, {"name": 5}]))
    assert [v.name for v in state.versions] == ["a"]
    assert state.warnings == ['version 2 left out: "kind" must be "text" or "chat", not \'poem\'',
                              'version 3 left out: "name" must be text, not the number 5']  # fmt: skip


def test_a_links_odd_settings_give_short_warnings():
    state = read_share_params({"tok": "o200k_base," + ",".join(f"n{i}" for i in range(3_000)), "ctx": "9" * 5_000,
                               "view": "x" * 10_000, "ws": "²"}, known_tokenizers=["o200k_base"])  # fmt: skip
    assert state.tokenizers == ["o200k_base"]
    assert (
        state.warnings[0]
        == "the link names 3,000 tokenizers this app does not have: 'n0', 'n1', 'n2' and 2,997 more"
    )
    assert len(state.warnings) == 4 and all(len(w) < 200 for w in state.warnings)


def test_packed_texts_round_trip_up_to_the_limit_and_no_further():
    exact = "é" * (MAX_SHARED_TEXT_BYTES // 2)  # exactly 4,000 bytes
    assert unpack_text(pack_text(exact)) == exact
    with pytest.raises(ValueError, match="too long"):
        unpack_text(pack_text(exact + "x"))
    half = "half an emoji \ud83d, read as every tokenizer reads it"
    assert unpack_text(pack_text(half)) == half.replace("\ud83d", "\ufffd")
    link = share_link(tokenizers=["o200k_base"], text=half, view="text", context_window=1, whitespace=False,
                      allow_special=False)  # fmt: skip
    assert read_share_params(link.params, known_tokenizers=["o200k_base"]).text == half.replace(
        "\ud83d", "\ufffd"
    )


def _noise(n_bytes: int, seed: int) -> str:
    rng = random.Random(seed)
    return "".join(
        rng.choice("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+/") for _ in range(n_bytes)
    )


def test_the_largest_link_fits_the_proxy_and_says_what_it_left_out():
    full = {"text": _noise(4_000, 1), "messages": [("user", _noise(3_900, 2))], "tools": _noise(4_000, 3),
            "versions": [{"name": "v", "text": _noise(3_900, 4)}]}  # fmt: skip
    base = dict(
        tokenizers=ALL_MODELS, view="text", context_window=100_000_000, whitespace=True, allow_special=True
    )
    chat = share_link(**base, mode="chat", **full)
    assert len(urlencode(chat.params)) <= MAX_LINK_CHARS
    assert "zm" in chat.params  # the chat comes first in chat mode
    assert {k for k, _ in chat.left_out} == {"zt", "zv", "z"}
    assert all(why == "too long for the link together with the rest" for _, why in chat.left_out)
    text = share_link(**base, mode="text", **full)
    assert "z" in text.params and len(urlencode(text.params)) <= MAX_LINK_CHARS
    longer = share_link(**base, text=_noise(4_001, 5))
    assert longer.left_out == (("z", f"longer than {MAX_SHARED_TEXT_BYTES:,} bytes"),)


def test_the_longest_link_fits_one_nginx_buffer_and_the_app_servers_request_head():
    query = urlencode(longest_link(ALL_MODELS))
    assert MAX_LINK_CHARS - 100 <= len(query) <= MAX_LINK_CHARS  # it really is the longest
    conf = (ROOT / "deploy" / "nginx.conf").read_text()
    m = re.search(r"large_client_header_buffers\s+(\d+)\s+(\d+)k;", conf)
    buffer = int(m.group(2)) * 1024 if m else 8 * 1024  # nginx's default: 4 8k
    origin = "https://" + "tokenizer-workbench." * 5 + "example.com"  # a long host name
    assert len(f"GET /?{query} HTTP/1.1") <= buffer
    assert len(f"Referer: {origin}/?{query}") <= buffer  # every script the page loads repeats it
    # uvicorn's HTTP parser (h11) takes a request head of 16 KB: the link, the Referer of the
    # page's first request and the usual headers together
    assert 2 * len(query) + 2 * len(origin) + 2_000 <= 16 * 1024
    state = read_share_params(longest_link(ALL_MODELS), known_tokenizers=ALL_MODELS)
    assert state.warnings == [] and len(state.tokenizers) == len(ALL_MODELS)


def test_a_link_with_every_model_keeps_the_first_chosen_and_says_how_many_it_left_out():
    many = [f"vendor-model-{i:03d}-preview" for i in range(400)]  # more than the catalog's ~340 ids
    link = share_link(
        tokenizers=many, text="the text still fits", view="text", context_window=8192,
        whitespace=False, allow_special=False,
    )  # fmt: skip
    kept = link.params["tok"].split(",")
    assert kept == many[: len(kept)] and 100 < len(kept) < 400
    assert len(urlencode({"tok": link.params["tok"]})) <= MAX_LINK_CHARS // 2
    assert len(urlencode(link.params)) <= MAX_LINK_CHARS and "z" in link.params
    assert link.left_out == (("tok", f"the last {400 - len(kept)} of 400: too many for a link"),)
    assert PACKED["tok"] == "some of the models"
    state = read_share_params(link.params, known_tokenizers=many)
    assert state.tokenizers == kept and state.text == "the text still fits" and state.warnings == []
    one = share_link(tokenizers=["x" * 9_000], text="", view="text", context_window=1, whitespace=False,
                     allow_special=False)  # fmt: skip
    assert one.params["tok"] == "x" * 9_000  # one model is never left out (nor such a name made)


def test_half_an_emoji_in_json_becomes_u_fffd_and_a_whole_one_stays():
    from tokenizer_core.workspace.limits import load_json

    assert load_json('["\\ud83d\\ude00", "\\ud83d!", {"\\udfff": "x"}]', what="tools") == [
        "\U0001f600", "\ufffd!", {"\ufffd": "x"}
    ]  # fmt: skip
    assert load_json('"a\ud800b"', what="tools") == "a\ufffdb"  # a raw one, as a live box sends it


# ---------------------------------------------------------------- workspace files


def _file(**fields) -> bytes:
    return json.dumps({"format": FORMAT, "version": 1, **fields}).encode()


def test_half_an_emoji_in_a_file_becomes_u_fffd_in_every_text():
    half = "half \\ud83d emoji \\ud83d\\ude00"
    raw = (
        f'{{"format": "{FORMAT}", "version": 1, "models": ["gpt-4o"], "text": "{half}", '
        f'"messages": [["user", "{half}"]], "versions": [{{"name": "v", "text": "{half}"}}]}}'
    )
    ws, notes = load_workspace(raw.encode(), known_models=["gpt-4o"])
    whole = "half \ufffd emoji \U0001f600"
    assert (ws.text, ws.messages, ws.versions[0].text, notes) == (whole, [("user", whole)], whole, [])


def test_a_file_with_bad_values_keeps_the_rest_with_a_note_each():
    ws, notes = load_workspace(
        _file(mode="poem", models=["gpt-4o", 7], text=["x"], messages=[["user", "hi"], ["boss", "x"]],
              versions=[{"name": "a"}, {"kind": "poem"}]),
        known_models=["gpt-4o"],
    )  # fmt: skip
    assert ws.mode == "text" and ws.models == ["gpt-4o"] and ws.text == "" and ws.messages == [("user", "hi")]
    assert [v.name for v in ws.versions] == ["a"]
    assert notes == [
        '"mode" left out: it must be "text" or "chat", not \'poem\'',
        "the file names 1 model this app does not have, skipped: the number 7",
        "the chat: 1 message left out (message 2: the role 'boss' is not one of system, developer, user, assistant)",
        'version 2 left out: "kind" must be "text" or "chat", not \'poem\'',
        '"text" left out: it must be text, not a list',
    ]


@pytest.mark.parametrize(
    "data, fragment",
    [
        (b'{"format": "tokenizer-workbench/workspace", "version": 1, "text": ' + b"1" * 5_000 + b"}",
         "thousands of digits"),
        (_file(x=json.loads("[" * 200 + "]" * 200)), TOO_DEEP),
        ("[" * 100_000 + "]" * 100_000, "levels deep"),
    ],
)  # fmt: skip
def test_files_python_cannot_read_are_refused_with_a_message(data, fragment):
    with pytest.raises(WorkspaceError, match=re.escape(fragment)):
        load_workspace(data, known_models=[])


def test_a_lone_surrogate_is_saved_as_valid_utf8_and_read_back_as_u_fffd():
    ws = Workspace(text="half \ud83d", versions=[PromptVersion("v", text="\udc00")])
    text = save_workspace(ws)
    text.encode("utf-8")  # valid UTF-8: a browser can download it
    read = Workspace(text="half \ufffd", versions=[PromptVersion("v", text="\ufffd")])
    assert load_workspace(text.encode("utf-8"), known_models=[])[0] == read


# ---------------------------------------------------------------- the diff


def test_the_diff_labels_each_part_and_never_cuts_a_word():
    said = "Your order " + "is on its way and " * 20 + "thanks"
    a = PromptVersion("a", "chat", messages=(("user", said),))
    b = PromptVersion("b", "chat", messages=a.messages, tools='[{"name": "track"}]')
    sections = diff_sections(a.sections(), b.sections(), builtin("o200k_base"))
    assert [s.label for s in sections] == ["User", "Tools"]
    assert [r.tag for r in sections[1].regions] == ["insert"] and sections[1].regions[0].tokens > 0
    page = sections_html(sections)
    assert re.findall(r"tw-diff-label[^>]*>([^<]*)<", page) == ["User", "Tools"]
    head, tail = re.search(r"<div>([^<]*) … ([^<]*)</div>", page).groups()  # the unchanged message, shortened
    assert said.startswith(head) and said[len(head)] == " "  # cut between words
    assert said.endswith(tail) and said[-len(tail) - 1] == " "


@pytest.mark.parametrize(
    "text, expected",
    [
        ("one two three four five six", "one two … five six"),
        ("short", "short"),
        ("a" * 30, "a" * 8 + " … " + "a" * 8),  # one long word: cut where it must be
    ],
)
def test_shorten_cuts_between_words(text, expected):
    assert shorten(text, context=8) == expected


def test_the_hosting_guide_and_nginx_say_what_the_link_limit_is():
    hosting = (ROOT / "docs" / "hosting.md").read_text()
    assert f"{MAX_LINK_CHARS:,} characters" in hosting
    assert Path(ROOT / "deploy" / "nginx.conf").read_text().count("large_client_header_buffers") == 1


def test_twenty_thousand_unknown_models_are_one_note():
    ws, notes = load_workspace(
        _file(models=[f"m{i}" for i in range(20_000)] + ["gpt-4o"]), known_models=["gpt-4o"]
    )
    assert ws.models == ["gpt-4o"]
    assert notes == [
        "the file names 20,000 models this app does not have, skipped: 'm0', 'm1', 'm2' and 19,997 more"
    ]


@pytest.mark.parametrize("rate", [["standard"], {"a": 1}, 7])
def test_a_price_rate_that_is_not_text_is_a_note(rate):
    ws, notes = load_workspace(_file(prices={"rate": rate, "edits": []}), known_models=[])
    assert ws.price_rate == "standard" and len(notes) == 1 and "not one this app offers" in notes[0]


@pytest.mark.parametrize(
    "price", ["1e1000000", "1e999999", "-1e999999", "1e-999999", "1." + "0" * 5_000 + "1"]
)
def test_an_edited_price_out_of_range_is_a_short_note(price):
    edits = [{"model": "gpt-4o", "rate": "standard", "input": price}]
    ws, notes = load_workspace(_file(prices={"rate": "standard", "edits": edits}), known_models=["gpt-4o"])
    assert ws.price_edits == {}
    (note,) = notes
    assert note.startswith("the edited prices are left out: gpt-4o: ") and len(note) < 300
