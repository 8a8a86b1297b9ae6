"""The classic Mistral vocabularies (SentencePiece v1, v3, v7 in mistral-common 1.13.1), run
by splintr's SentencePiece engine, against Google's `sentencepiece` over the same files (the
engine mistral-common itself uses) and, for whole requests, mistral-common's own encoder."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import builtin
from tokenizer_core import TokenizerUnavailable, load_builtin
from tokenizer_core.tokenizers import mistral_spm
from tokenizer_core.tokenizers.sentencepiece_model import ModelFileError, read_pieces
from tokenizer_core.tokenizers.vocab import sha256_file
from tokenizer_core.workspace.chat import CHAT_FORMATS, Message, count_request

spm = pytest.importorskip("sentencepiece")
mistral_common = pytest.importorskip("mistral_common")

IDS = ["mistral_sp_v1", "mistral_sp_v3", "mistral_sp_v7"]


def model_path(tid: str) -> Path:
    return Path(mistral_common.__path__[0]) / mistral_spm.SPM_FILES[tid].relative


@pytest.fixture(scope="module")
def sps():
    return {tid: spm.SentencePieceProcessor(model_file=str(model_path(tid))) for tid in IDS}


@pytest.mark.parametrize("tid", IDS)
def test_files_are_the_pinned_ones_and_read_as_sentencepiece_reads_them(sps, tid):
    assert sha256_file(model_path(tid)) == mistral_spm.SPM_FILES[tid].sha256
    pieces = read_pieces(model_path(tid).read_bytes())
    sp = sps[tid]
    assert len(pieces) == sp.get_piece_size() == builtin(tid).n_vocab == builtin(tid).info.vocab_size
    assert all(p.piece == sp.id_to_piece(i) and p.score == sp.get_score(i) for i, p in enumerate(pieces))
    assert {i for i, p in enumerate(pieces) if p.type == 3} == {
        i for i in range(len(pieces)) if sp.is_control(i)
    }


def test_a_file_that_is_not_a_model_is_refused():
    with pytest.raises(ModelFileError):
        read_pieces(b"\x0a\x05abc")  # a piece field that ends too early
    with pytest.raises(ModelFileError, match="no pieces"):
        read_pieces(b"")


# ids written out from sentencepiece over each file (encode, no BOS)
FIXED = {
    "mistral_sp_v1": {
        "Hello world": [22557, 1526],
        "[INST] What is 2+2? [/INST]": [733, 16289, 28793, 1824, 349, 28705, 28750, 28806, 28750, 28804, 733, 28748,
                                        16289, 28793],
        " leading and  double  spaces": [28705, 5374, 304, 28705, 3579, 28705, 10599],
        "naïve café 😀 你好": [1879, 28920, 333, 28345, 28705, 30575, 28705, 29383, 29530],
    },
    "mistral_sp_v3": {
        "Hello world": [23325, 2294],
        "[INST] What is 2+2? [/INST]": [1501, 17057, 29561, 2592, 1117, 29473, 29518, 29574, 29518, 29572, 1501,
                                        29516, 17057, 29561],
        "see [REFERENCE_DOC_3] and [REF]x[/REF]": [1800, 29473, 767, 1072, 1501, 15097, 29561, 29512, 29560, 29516,
                                                   15097, 29561],
    },
    "mistral_sp_v7": {
        "naïve café 😀 你好": [2647, 29688, 1101, 29113, 29473, 31343, 29473, 30151, 30298],
        "see [REFERENCE_DOC_3] and [REF]x[/REF]": [1800, 29473, 767, 1072, 29473, 750, 29512, 749],
    },
}  # fmt: skip


@pytest.mark.parametrize(("tid", "text"), [(t, x) for t in FIXED for x in FIXED[t]])
def test_fixed_ids(sps, tid, text):
    assert builtin(tid).encode(text) == FIXED[tid][text] == sps[tid].encode(text)


_PIECES = ["[INST]", "[/INST]", "<s>", "</s>", "[REF]", "[/REF]", "[REFERENCE_DOC_3]", "[SYSTEM_PROMPT]",
           "[IMG]", "<0x41>", " ", "  ", "\n", "\n\n", "\t", "😀", "é", "你好", "1234", "word", " Word"]  # fmt: skip
texts = st.lists(st.sampled_from(_PIECES) | st.text(max_size=6), max_size=25).map("".join)


@settings(max_examples=80)
@given(text=texts)
def test_random_text_matches_sentencepiece(sps, text):
    text = text.encode("utf-8", "replace").decode("utf-8")
    for tid in IDS:
        tok = builtin(tid)
        assert tok.encode(text) == sps[tid].encode(text), tid
        segs = tok.segments(text)
        assert "".join(s.text for s in segs) == text
        assert [i for s in segs for i in s.ids] == tok.encode(text)


def test_control_tokens_are_text_unless_allowed():
    tok = builtin("mistral_sp_v7")
    assert len(tok.encode("[INST]")) > 1
    assert tok.encode("[INST]", allow_special=True) == [3]
    assert tok.encode("x[SYSTEM_PROMPT]y", allow_special=True)[1] == 16
    assert tok.decode(tok.encode(" two  spaces")) == " two  spaces"


def test_a_changed_file_is_refused(monkeypatch):
    bad = mistral_spm.SpmFile(mistral_spm.SPM_FILES["mistral_sp_v3"].relative, "0" * 64)
    monkeypatch.setitem(mistral_spm.SPM_FILES, "mistral_sp_v3", bad)
    with pytest.raises(TokenizerUnavailable) as exc:
        load_builtin("mistral_sp_v3")
    assert "pinned" in exc.value.problem and "mistral-common==1.13.1" in exc.value.fix


# ----------------------------------------------------------------- whole requests

WEATHER = {"type": "function", "function": {
    "name": "get_weather", "description": "Get the weather forecast for a city, in °C.",
    "parameters": {"type": "object", "properties": {"city": {"type": "string", "description": "City, e.g. Zürich"}},
                   "required": ["city"]}}}  # fmt: skip


def _reference(tid: str):
    from mistral_common.protocol.instruct.messages import AssistantMessage, SystemMessage, UserMessage
    from mistral_common.protocol.instruct.request import ChatCompletionRequest
    from mistral_common.protocol.instruct.tool_calls import Function, Tool
    from mistral_common.tokens.tokenizers.mistral import MistralTokenizer

    mt = {"mistral_sp_v1": MistralTokenizer.v1, "mistral_sp_v3": MistralTokenizer.v3,
          "mistral_sp_v7": MistralTokenizer.v7}[tid]()  # fmt: skip
    kinds = {"system": SystemMessage, "user": UserMessage, "assistant": AssistantMessage}

    def encode(messages: list[Message], tools: list[dict]) -> list[int]:
        request = ChatCompletionRequest(
            messages=[kinds[m.role](content=m.content) for m in messages],
            tools=[Tool(function=Function(**t["function"])) for t in tools] or None,
        )
        return mt.encode_chat_completion(request).tokens

    return encode


CHATS = [
    [Message("user", "Hello world")],
    [Message("system", "You are terse."), Message("user", "Hi there  "), Message("assistant", "Hello! "),
     Message("user", "Rain [INST] in Oslo? 1234 😀")],
    [Message("user", "a"), Message("user", "b [REF]x[/REF]"), Message("assistant", "c"), Message("user", "d")],
]  # fmt: skip


@pytest.mark.parametrize("tid", IDS)
@pytest.mark.parametrize("k", range(len(CHATS)))
@pytest.mark.parametrize("with_tools", [False, True], ids=["no-tools", "tools"])
def test_requests_are_mistral_commons(tid, k, with_tools):
    if tid == "mistral_sp_v1" and with_tools:
        pytest.skip("instruct v1 has no tools")
    tools = [WEATHER] if with_tools else []
    count = count_request(CHATS[k], builtin(tid), CHAT_FORMATS[tid], tools=tools)
    assert count.total == len(_reference(tid)(CHATS[k], tools))
    assert count.tools_counted is with_tools


plain = st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=40).filter(str.strip)


@settings(max_examples=30)
@given(user=plain, system=st.one_of(st.just(""), plain), answer=plain)
def test_random_requests_are_mistral_commons(user, system, answer):
    chat = [Message("system", system)] * bool(system) + [Message("user", user), Message("assistant", answer),
                                                         Message("user", user)]  # fmt: skip
    for tid in IDS:
        assert count_request(chat, builtin(tid), CHAT_FORMATS[tid]).total == len(_reference(tid)(chat, [])), (
            tid
        )


def test_tekken_answers_lose_their_trailing_spaces_as_in_mistral_common():
    from mistral_common.protocol.instruct.messages import AssistantMessage, UserMessage
    from mistral_common.protocol.instruct.request import ChatCompletionRequest
    from mistral_common.tokens.tokenizers.mistral import MistralTokenizer

    chat = [Message("user", "Hi"), Message("assistant", "Hello!   "), Message("user", "Again")]
    ref = MistralTokenizer.v3(is_tekken=True).encode_chat_completion(ChatCompletionRequest(messages=[
        UserMessage(content="Hi"), AssistantMessage(content="Hello!   "), UserMessage(content="Again")]))  # fmt: skip
    assert count_request(chat, builtin("tekken"), CHAT_FORMATS["mistral_v3"]).total == len(ref.tokens)
