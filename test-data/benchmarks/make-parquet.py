#!/usr/bin/env python3
"""Writes the small Parquet fixtures of the import tests without any Parquet library (none is installed here):
one row group, required UTF-8 string columns, PLAIN encoding, no compression, Thrift compact metadata by hand.
Run: python3 make-parquet.py  (writes aime-2024.sample.parquet and missing-answer.parquet from the JSONL sample)."""
import json
import struct


def varint(n):
    out = bytearray()
    while True:
        byte = n & 0x7F
        n >>= 7
        if n:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def zigzag(n):
    return (n << 1) ^ (n >> 63)


class Struct:
    """Thrift compact protocol: fields in increasing id order."""

    def __init__(self):
        self.out = bytearray()
        self.last = 0

    def header(self, field_id, kind):
        delta = field_id - self.last
        assert 0 < delta <= 15
        self.out.append((delta << 4) | kind)
        self.last = field_id

    def i32(self, field_id, value):
        self.header(field_id, 5)
        self.out += varint(zigzag(value))
        return self

    def i64(self, field_id, value):
        self.header(field_id, 6)
        self.out += varint(zigzag(value))
        return self

    def string(self, field_id, value):
        data = value.encode()
        self.header(field_id, 8)
        self.out += varint(len(data)) + data
        return self

    def struct(self, field_id, inner):
        self.header(field_id, 12)
        self.out += inner.end()
        return self

    def list(self, field_id, kind, items):
        self.header(field_id, 9)
        self.out.append((len(items) << 4) | kind if len(items) < 15 else 0xF0 | kind)
        if len(items) >= 15:
            self.out += varint(len(items))
        for item in items:
            if kind == 5:
                self.out += varint(zigzag(item))
            elif kind == 8:
                data = item.encode()
                self.out += varint(len(data)) + data
            else:
                self.out += item.end()
        return self

    def end(self):
        return bytes(self.out) + b"\x00"


def write_parquet(path, columns):
    names = list(columns)
    rows = len(columns[names[0]])
    body = bytearray(b"PAR1")
    chunks = []
    for name in names:
        data = b"".join(struct.pack("<I", len(v.encode())) + v.encode() for v in columns[name])
        page = Struct().i32(1, 0).i32(2, len(data)).i32(3, len(data))
        page.struct(5, Struct().i32(1, rows).i32(2, 0).i32(3, 3).i32(4, 3))
        offset = len(body)
        body += page.end() + data
        size = len(body) - offset
        meta = (
            Struct().i32(1, 6).list(2, 5, [0]).list(3, 8, [name]).i32(4, 0).i64(5, rows)
            .i64(6, size).i64(7, size).i64(9, offset)
        )
        chunks.append(Struct().i64(2, offset).struct(3, meta))
    schema = [Struct().string(4, "schema").i32(5, len(names))]
    schema += [Struct().i32(1, 6).i32(3, 0).string(4, name).i32(6, 0) for name in names]
    group = Struct().list(1, 12, chunks).i64(2, len(body) - 4).i64(3, rows)
    footer = Struct().i32(1, 1).list(2, 12, schema).i64(3, rows).list(4, 12, [group]).string(6, "tfgrpo make-parquet.py").end()
    body += footer + struct.pack("<I", len(footer)) + b"PAR1"
    with open(path, "wb") as handle:
        handle.write(body)


records = [json.loads(line) for line in open("aime-2024.sample.jsonl", encoding="utf-8")]
write_parquet("aime-2024.sample.parquet", {
    "problem": [r["question"] for r in records],
    "answer": [r["answer"] for r in records],
})
write_parquet("missing-answer.parquet", {"problem": [r["question"] for r in records[:2]]})
