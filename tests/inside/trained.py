"""Small tokenizer.json files of every model kind, trained here with Hugging Face `tokenizers`
(the reference each replay is checked against)."""

from __future__ import annotations

import functools
import json

import tokenizer_core as tc
from tokenizer_core.tokenizers import tokenizer_from_hf_json

# Words of several scripts, digits, punctuation and emoji, so the trained vocabularies hold
# pieces of each (and still lack some characters: the fallback is exercised too).
CORPUS = [
    "the cat sat on the mat", "the dog ate the cat food", "lower lowest newer newest widest",
    "naïve café résumé", "Ελλάδα και Αθήνα", "नमस्ते दुनिया नमस्ते", "你好世界 你好", "東京 大阪",
    "price 1234567 or 3.14159!", "emoji 😀 and 🍓 here", "def total(items):\n    return sum(items)",
] * 30  # fmt: skip


@functools.cache
def trained(kind: str) -> bytes:
    """A tokenizer.json: "wordpiece" (BERT's pipeline), "unigram" (Metaspace, byte fallback),
    "unigram-unk" (no byte fallback), "metaspace-bpe" (Mistral style: Metaspace, byte fallback),
    "llama2-bpe" (Llama 2's file: ▁ put in by the normaliser, byte fallback), "split-bpe" (a
    Sequence of Split, Punctuation, Digits and UnicodeScripts, with an unknown token)."""
    from tokenizers import Tokenizer, decoders, models, normalizers, pre_tokenizers, processors, trainers

    if kind == "wordpiece":
        tk = Tokenizer(models.WordPiece(unk_token="[UNK]"))
        tk.normalizer = normalizers.BertNormalizer(lowercase=True)
        tk.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
        trainer = trainers.WordPieceTrainer(vocab_size=300, show_progress=False,
                                            special_tokens=["[UNK]", "[CLS]", "[SEP]"])  # fmt: skip
        tk.train_from_iterator(CORPUS, trainer)
        cls, sep = tk.token_to_id("[CLS]"), tk.token_to_id("[SEP]")
        tk.post_processor = processors.TemplateProcessing(
            single="[CLS] $A [SEP]",
            pair="[CLS] $A [SEP] $B [SEP]",
            special_tokens=[("[CLS]", cls), ("[SEP]", sep)],
        )
        tk.decoder = decoders.WordPiece()
    elif kind.startswith("unigram"):
        tk = Tokenizer(models.Unigram())
        tk.pre_tokenizer = pre_tokenizers.Metaspace()
        trainer = trainers.UnigramTrainer(vocab_size=250, show_progress=False, special_tokens=["<unk>", "<s>"],
                                          unk_token="<unk>")  # fmt: skip
        tk.train_from_iterator(CORPUS, trainer)
        tk.decoder = decoders.Metaspace()
        if kind == "unigram":  # byte fallback: the 256 byte pieces, as a SentencePiece conversion has them
            doc = json.loads(tk.to_str())
            low = min(score for _, score in doc["model"]["vocab"])
            doc["model"]["vocab"] += [[f"<0x{b:02X}>", low] for b in range(256)]
            doc["model"]["byte_fallback"] = True
            doc["decoder"] = {"type": "Sequence", "decoders": [{"type": "ByteFallback"}, doc["decoder"]]}
            return json.dumps(doc).encode("utf-8")
    elif kind in ("metaspace-bpe", "llama2-bpe"):
        alphabet = [f"<0x{b:02X}>" for b in range(256)]
        tk = Tokenizer(models.BPE(byte_fallback=True, unk_token="<unk>"))
        tk.pre_tokenizer = pre_tokenizers.Metaspace()
        trainer = trainers.BpeTrainer(vocab_size=600, show_progress=False, special_tokens=["<unk>", "<s>", *alphabet],
                                      limit_alphabet=60)  # fmt: skip
        tk.train_from_iterator(CORPUS, trainer)
        bos = tk.token_to_id("<s>")
        tk.post_processor = processors.TemplateProcessing(single="<s> $A", special_tokens=[("<s>", bos)])
        tk.decoder = decoders.Sequence([decoders.ByteFallback(), decoders.Metaspace()])
        if kind == "llama2-bpe":  # Llama 2's own file: the normaliser puts the ▁ in; no pre-tokenizer
            doc = json.loads(tk.to_str())
            doc["pre_tokenizer"] = None
            doc["normalizer"] = {"type": "Sequence", "normalizers": [
                {"type": "Prepend", "prepend": "\u2581"},
                {"type": "Replace", "pattern": {"String": " "}, "content": "\u2581"},
            ]}  # fmt: skip
            return json.dumps(doc).encode("utf-8")
    elif kind == "split-bpe":  # a Sequence of pre-tokenizers that drop text and cut digits and marks
        tk = Tokenizer(models.BPE(unk_token="<unk>"))
        tk.pre_tokenizer = pre_tokenizers.Sequence([
            pre_tokenizers.Split(" ", behavior="removed"), pre_tokenizers.Punctuation(),
            pre_tokenizers.Digits(individual_digits=True), pre_tokenizers.UnicodeScripts(),
        ])  # fmt: skip
        trainer = trainers.BpeTrainer(vocab_size=400, show_progress=False, special_tokens=["<unk>"])
        tk.train_from_iterator(CORPUS, trainer)
    else:
        raise ValueError(kind)
    return tk.to_str().encode("utf-8")


@functools.cache
def trained_tokenizer(kind: str) -> tc.Tokenizer:
    return tokenizer_from_hf_json(trained(kind), name=f"my {kind}")
