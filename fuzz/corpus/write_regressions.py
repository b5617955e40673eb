#!/usr/bin/env python3
"""Writes the regression inputs of fuzz/corpus/<target>/regress_* (inputs that once crashed a
parser, rebuilt from the fix's description where the original reproducer was not kept).

    python3 fuzz/corpus/write_regressions.py     # rewrites the files; they are committed

Each file must make its target raise a tfcc::Error (never crash); libFuzzer replays every corpus
file before fuzzing, so CI's smoke (scripts/run-fuzz.sh) runs them on every commit, and
tests/unit/io/fuzz_corpus_test.cc checks that each one is rejected with a tfcc::Error.
"""
import os
import struct

ROOT = os.path.dirname(os.path.abspath(__file__))


def crc32c(data: bytes) -> int:
    crc = 0xFFFFFFFF
    for b in data:
        crc ^= b
        for _ in range(8):
            crc = (crc >> 1) ^ (0x82F63B78 if crc & 1 else 0)
    return crc ^ 0xFFFFFFFF


def masked(data: bytes) -> int:
    c = crc32c(data)
    return ((((c >> 15) | (c << 17)) & 0xFFFFFFFF) + 0xA282EAD8) & 0xFFFFFFFF


def record(payload: bytes) -> bytes:
    length = struct.pack("<Q", len(payload))
    return (length + struct.pack("<I", masked(length)) + payload +
            struct.pack("<I", masked(payload)))


def varint(n: int) -> bytes:
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def field_varint(number: int, value: int) -> bytes:
    return varint(number << 3) + varint(value)


def field_bytes(number: int, value: bytes) -> bytes:
    return varint(number << 3 | 2) + varint(len(value)) + value


def write(target: str, name: str, data: bytes) -> None:
    folder = os.path.join(ROOT, target)
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, name), "wb") as f:
        f.write(data)


def tensor_content_overflow() -> bytes:
    """9f281d0: TensorProto::to_doubles compared tensor_content's size with n * width in 64 bits,
    so a float tensor of 2^62 + 1 elements "needed" 4 bytes (the product wraps) and the reserve
    of 2^62 + 1 doubles threw std::length_error instead of DataLossError. An event file with one
    Event (step 1) holding that tensor, encoded as Event::serialize() writes it (the target checks
    that parse/serialize round-trips)."""
    dim = field_varint(1, (1 << 62) + 1)
    shape = field_bytes(2, dim)
    tensor = field_varint(1, 1) + field_bytes(2, shape) + field_bytes(4, b"\0\0\x80\x3f")
    value = field_bytes(1, b"t") + field_bytes(8, tensor)
    event = field_varint(2, 1) + field_bytes(5, field_bytes(1, value))
    # The target's last byte picks stop_at_truncated_tail; a record ends in a CRC byte, any value.
    return record(event)


write("event_file_reader_fuzz", "regress_tensor_content_overflow", tensor_content_overflow())
