"""GPT-2's byte-to-unicode alphabet: how byte-level vocabularies write each of the 256 bytes as a
printable character (a space is ``Ġ``, a line break ``Ċ``), and back."""

from __future__ import annotations


def byte_to_unicode() -> dict[int, str]:
    """GPT-2's printable stand-in for each of the 256 bytes: printable ASCII and Latin-1 keep
    their own character, the others (space, control bytes) move to U+0100 and up.

    ``byte_to_unicode()[ord(" ")] -> "Ġ"``, ``byte_to_unicode()[ord("\\n")] -> "Ċ"``
    """
    keep = [*range(ord("!"), ord("~") + 1), *range(0xA1, 0xAD), *range(0xAE, 0x100)]
    out = {b: chr(b) for b in keep}
    n = 0
    for b in range(256):
        if b not in out:
            out[b] = chr(256 + n)
            n += 1
    return out


_B2U = byte_to_unicode()
_U2B = {c: b for b, c in _B2U.items()}


def byte_display(data: bytes) -> str:
    """Bytes in GPT-2's byte-to-unicode alphabet: ``byte_display(b" hi") -> "Ġhi"``."""
    return "".join(_B2U[b] for b in data)


def display_bytes(label: str) -> bytes | None:
    """The bytes a byte-level label stands for, or None when it is not one: ``"Ġhi" -> b" hi"``."""
    try:
        return bytes(_U2B[c] for c in label)
    except KeyError:
        return None
