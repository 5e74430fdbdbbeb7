#!/usr/bin/env python3
"""Writes the malformed-input corpus (issue #2, item 7). Deterministic; run it
from this folder to regenerate. Each file's expected outcome is asserted in
tests/formats/malformed_input_test.cc."""
import gzip
import io
import os
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))


def write(name, data):
    if isinstance(data, str):
        data = data.encode("utf-8")
    with open(os.path.join(HERE, name), "wb") as f:
        f.write(data)


GOOD = '{"ph": "X", "name": "aten::mm", "cat": "cpu_op", "pid": 1, "tid": 1, "ts": 100, "dur": 10}'

write("empty.json", b"")
write("whitespace_only.json", " \n\t\r\n  ")
write("binary_garbage.bin", bytes((i * 131 + 7) % 256 for i in range(4096)))
write("wrong_shape_object.json", '{"foo": 1, "bar": [1, 2, 3]}')
write("wrong_shape_scalar.json", "42")
write("trace_events_not_array.json", '{"traceEvents": {"ph": "X"}}')
write("wrong_types.json", "[" + ", ".join([
    GOOD,
    '{"ph": "X", "name": "bad_ts", "pid": 1, "tid": 1, "ts": "abc", "dur": 1}',
    '{"ph": "X", "name": "bad_dur", "pid": 1, "tid": 1, "ts": 1, "dur": [1]}',
    '{"ph": 7, "name": "bad_ph", "pid": 1, "tid": 1, "ts": 1, "dur": 1}',
    '{"ph": "X", "name": 5, "pid": {"a": 1}, "tid": true, "ts": 1, "dur": 1}',
    '{"ph": "X", "name": "ts_object", "pid": 1, "tid": 1, "ts": {"v": 1}, "dur": 1}',
    '{"ph": "X", "name": "args_not_object", "pid": 1, "tid": 1, "ts": 1, "dur": 1, "args": 3}',
]) + "]")
write("nan_and_huge.json", "[" + ", ".join([
    GOOD,
    '{"ph": "X", "name": "nan", "pid": 1, "tid": 1, "ts": NaN, "dur": 1}',
    '{"ph": "X", "name": "inf", "pid": 1, "tid": 1, "ts": Infinity, "dur": 1}',
    '{"ph": "X", "name": "huge_ts", "pid": 1, "tid": 1, "ts": 1e400, "dur": 1}',
    '{"ph": "X", "name": "huge_dur", "pid": 1, "tid": 1, "ts": 1, "dur": 99999999999999999999999}',
    '{"ph": "X", "name": "big_int_pid", "pid": 99999999999999999999999, "tid": 1e30, "ts": 1, "dur": 1}',
]) + "]")
# Numbers at the edge of what a trace may hold (model/trace_builder.h):
# a kernel and a step just under 2^60 ns long, a kernel just after -2^61 ns,
# a step of 9e15 us (over the limit: skipped), and a memory event whose sizes
# are 1e308 and -1e308 (no 64-bit integer holds them).
write("huge_values.json", '{"traceEvents": [' + ", ".join([
    '{"ph": "X", "cat": "cpu_op", "name": "ProfilerStep#1", "pid": 1, "tid": 1, "ts": 0, "dur": 1000}',
    '{"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 10, "dur": 1152921504606846}',
    '{"ph": "X", "cat": "kernel", "name": "k2", "pid": 0, "tid": 7, "ts": -2305843009213693, "dur": 5}',
    '{"ph": "X", "cat": "cpu_op", "name": "ProfilerStep#2", "pid": 1, "tid": 1, "ts": 1000, "dur": 1152921504606846}',
    '{"ph": "X", "cat": "cpu_op", "name": "ProfilerStep#3", "pid": 1, "tid": 1, "ts": 2000, "dur": 9000000000000000}',
    '{"ph": "i", "cat": "cpu_instant_event", "name": "[memory]", "pid": 1, "tid": 1, "ts": 20, "s": "t", '
    '"args": {"Bytes": 1e308, "Total Allocated": 1e308, "Total Reserved": -1e308, "Device Id": 0, "Device Type": 1}}',
]) + "]}")
# Forty launches from one op, each a kernel, a copy of 2^62 bytes and an NCCL
# kernel of just under 2^60 ns (the longest duration a trace holds): every
# per-name and per-op sum of them passes int64 (tests/bounds/sums_bounds_test.cc
# checks the sums; here every rule reads them, under UBSan in the asan build).
LONGEST_US = 1152921504606846
longest = [
    '{"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1", "pid": 1, "tid": 1, "ts": 0, "dur": %d}' % LONGEST_US,
    '{"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#2", "pid": 1, "tid": 1, "ts": %d, "dur": %d}' % (LONGEST_US, LONGEST_US),
]
for i in range(40):
    c, stream = 1000 + i, 7 + i % 4
    longest += [
        '{"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": %d, "dur": %d, "args": {"External id": %d}}' % (2 + i, LONGEST_US, c),
        '{"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": %d, "dur": 1, "args": {"correlation": %d, "External id": %d}}' % (2 + i, c, c),
        '{"ph": "X", "cat": "kernel", "name": "void gemm_kernel<float>(float*)", "pid": 0, "tid": %d, "ts": %d, "dur": %d, "args": {"correlation": %d, "External id": %d, "stream": %d, "device": 0}}' % (stream, 10 + i, LONGEST_US, c, c, stream),
        '{"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy HtoD (Pageable -> Device)", "pid": 0, "tid": %d, "ts": %d, "dur": %d, "args": {"correlation": %d, "stream": %d, "device": 0, "bytes": %d}}' % (stream, LONGEST_US + i, LONGEST_US, c, stream, 1 << 62),
        '{"ph": "X", "cat": "kernel", "name": "ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, unsigned long, ncclWork*)", "pid": 0, "tid": %d, "ts": %d, "dur": %d, "args": {"stream": %d, "device": 0}}' % (20 + i % 4, 10 + i, LONGEST_US, 20 + i % 4),
    ]
write("longest_durations.json", '{"traceEvents": [' + ",\n".join(longest) +
      '], "deviceProperties": [{"id": 0, "name": "NVIDIA A100-SXM4-80GB"}]}')
# One step at 2^61 ns (2043) after the only other event: found by
# ascend_db_fuzzer (the step's completeness test overflowed).
write("late_single_step.json", "[" + ", ".join([
    '{"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 10, "dur": 5}',
    '{"ph": "X", "cat": "cpu_op", "name": "ProfilerStep#1", "pid": 1, "tid": 1, "ts": 2251799813685248, "dur": 1000}',
]) + "]")
write("negative_duration.json", "[" + GOOD + ', {"ph": "X", "name": "neg", "pid": 1, "tid": 1, "ts": 5, "dur": -3}]')
write("unterminated_string.json", '[' + GOOD + ', {"ph": "X", "name": "abc')
write("invalid_utf8.json", ("[" + GOOD + ', {"ph": "X", "name": "bad').encode() + b"\xff\xfe\xc3" +
      b'name", "pid": 1, "tid": 1, "ts": 20, "dur": 1}]')
write("control_chars.json", "[" + GOOD + ', {"ph": "X", "name": "line1\nline2\x01", "pid": 1, "tid": 1, "ts": 30, "dur": 1}]')
deep_args = '{"ph": "X", "name": "deep", "pid": 1, "tid": 1, "ts": 1, "dur": 1, "args": {"a": ' + "[" * 5000 + "]" * 5000 + "}}"
write("deep_nesting.json", "[" + GOOD + ", " + deep_args + ", " + "[" * 100000 + "]" * 100000 + ", " + GOOD + "]")
write("not_objects.json", "[1, \"x\", null, [1, 2], true, " + GOOD + "]")
write("mismatched_brackets.json", '[{"ph": "X", "name": "broken", "args": {"a": [}}, ' + GOOD + "]")
write("kineto_empty_value.json", '[{"ph": "X", "name": "nccl:all_reduce", "pid": 1, "tid": 1, "ts": 1, "dur": 2, '
      '"args": {"Process Group Description": , "Group size": 8}}]')
write("unescaped_backslash.json", '[{"ph": "X", "name": "C:\\Users\\me\\train.py(12): step", "pid": 1, "tid": 1, "ts": 1, "dur": 2}]')
write("trailing_garbage.json", "[" + GOOD + "] this is not json")
write("truncated_object.json", '{"traceEvents": [' + GOOD + ", " + GOOD + ', {"ph": "X", "na')
write("bare_array_no_close.json", "[" + GOOD + ", " + GOOD)
write("trailing_commas.json", "[" + GOOD + ", " + GOOD + ",,]")
write("unknown_phase.json", '[{"ph": "Q", "name": "x", "pid": 1, "ts": 1}, {"ph": "XX", "name": "y", "pid": 1, "ts": 1}, ' + GOOD + "]")

# Truncated gzip: a valid trace compressed, then cut in half.
full = ("[" + ", ".join(GOOD.replace('"ts": 100', '"ts": %d' % (100 + i)) for i in range(2000)) + "]").encode()
gz = gzip.compress(full, mtime=0)
write("truncated.json.gz", gz[: len(gz) // 2])

# Corrupt gzip (found by trace_splice_fuzzer): a dynamic-Huffman block whose
# data goes wrong a few bytes in; igzip reports an invalid look-back, with more
# bytes counted out than it decoded. The whole read is an error.
write("corrupt_lookback.json.gz", bytes.fromhex(
    "1f8b0800000000000203b5da3d0e80c75586d1ad44ae53f8bbffe395202184ac241214"
    "0e16241562efd834889ed3dd99e2ed9eeefce3e2ed9eeefce37ffef0ffffffffffffff"))

# Decompression bombs: 80 MiB of spaces inside a valid array.
bomb = b"[" + b" " * (80 << 20) + b"]"
write("gzip_bomb.json.gz", gzip.compress(bomb, compresslevel=9, mtime=0))
zst = subprocess.run(["zstd", "-19", "-q", "-c"], input=bomb, stdout=subprocess.PIPE, check=True).stdout
write("zstd_bomb.json.zst", zst)
