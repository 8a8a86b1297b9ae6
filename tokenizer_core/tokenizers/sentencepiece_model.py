"""The pieces of a SentencePiece `.model` file, read without the protobuf library.

A `.model` file is one protobuf message (SentencePiece's ``ModelProto``). Its field 1 repeats
one ``SentencePiece`` per id, each with the piece text (field 1), its score (field 2, a float)
and its type (field 3: 1 normal, 2 unknown, 3 control, 4 user-defined, 5 unused, 6 byte).
Nothing else of the file is needed to rebuild the vocabulary, so nothing else is read.

    >>> [p.piece for p in read_pieces(data)][:3]   # doctest: +SKIP
    ['<unk>', '<s>', '</s>']
"""

from __future__ import annotations

import struct
from collections.abc import Iterator
from typing import NamedTuple

NORMAL, UNKNOWN, CONTROL, USER_DEFINED, UNUSED, BYTE = 1, 2, 3, 4, 5, 6


class Piece(NamedTuple):
    """One vocabulary entry: ``Piece("▁the", -3.0, NORMAL)``."""

    piece: str
    score: float
    type: int


class ModelFileError(ValueError):
    """Bytes that are not a SentencePiece model; the message says where it went wrong."""


def _varint(data: bytes, pos: int) -> tuple[int, int]:
    """The varint at `pos` and the position after it: ``_varint(b"\\x96\\x01", 0) -> (150, 2)``."""
    value = shift = 0
    while True:
        if pos >= len(data):
            raise ModelFileError("the file ends inside a number")
        byte = data[pos]
        pos += 1
        value |= (byte & 0x7F) << shift
        if not byte & 0x80:
            return value, pos
        shift += 7
        if shift > 63:
            raise ModelFileError("a number is longer than 64 bits")


def _fields(data: bytes) -> Iterator[tuple[int, int, int | bytes]]:
    """(field number, wire type, value) of each field of one message; a length-delimited value
    is its bytes, a fixed32 its 4 bytes, a varint its int."""
    pos = 0
    while pos < len(data):
        key, pos = _varint(data, pos)
        field, wire = key >> 3, key & 7
        value: int | bytes
        if wire == 0:
            value, pos = _varint(data, pos)
        elif wire == 1:
            value, pos = data[pos : pos + 8], pos + 8
        elif wire == 2:
            size, pos = _varint(data, pos)
            value, pos = data[pos : pos + size], pos + size
        elif wire == 5:
            value, pos = data[pos : pos + 4], pos + 4
        else:
            raise ModelFileError(f"unknown protobuf wire type {wire} at byte {pos}")
        if pos > len(data):
            raise ModelFileError("the file ends inside a field")
        yield field, wire, value


def read_pieces(data: bytes) -> list[Piece]:
    """Every piece of a SentencePiece model, in id order. Raises ModelFileError for other bytes."""
    pieces: list[Piece] = []
    for field, _wire, value in _fields(data):
        if field != 1 or not isinstance(value, bytes):
            continue
        text, score, kind = None, 0.0, NORMAL
        for f, w, v in _fields(value):
            if f == 1 and isinstance(v, bytes):
                try:
                    text = v.decode("utf-8")
                except UnicodeDecodeError:
                    raise ModelFileError(f"piece {len(pieces)} is not UTF-8") from None
            elif f == 2 and w == 5 and isinstance(v, bytes):
                score = struct.unpack("<f", v)[0]
            elif f == 3 and isinstance(v, int):
                kind = v
        if text is None:
            raise ModelFileError(f"piece {len(pieces)} has no text")
        pieces.append(Piece(text, score, kind))
    if not pieces:
        raise ModelFileError("no pieces found: not a SentencePiece model")
    return pieces
