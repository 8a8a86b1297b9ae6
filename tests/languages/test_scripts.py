"""Writing-system detection: script, direction and word spacing."""

from __future__ import annotations

from tokenizer_core.languages.scripts import detect_script


def test_detect_script_examples():
    assert detect_script("नमस्ते दुनिया").script == "Devanagari"
    assert detect_script("こんにちは世界").script_code == "Jpan"
    assert detect_script("你好世界").whitespace_words is False
    assert detect_script("مرحبا بالعالم").direction == "rtl"
    assert detect_script("12345 !!").script == "Unknown"
    assert detect_script("").direction == "auto"
