#!/usr/bin/env python3
"""Checks that every arg key of the model has a reader.

src/perfdx/model/arg_key.h: the table holds the args something reads (the
builder or an analysis). Every key in it is decoded and stored for every
event that carries it; one nobody reads costs each such event for nothing
(issue #13's decode cost: the kernel occupancy fields were half the args of
a CUDA trace). A reader is any use of `ArgKey::kX` in src/ other than the
table itself and an importer constructing the arg (IntArg / StringArg /
DoubleArg, or an aggregate `{ArgKey::kX, ArgType...}`). A self-check first
runs on made-up files, so the test cannot pass by finding nothing.

Usage: arg_keys_read_test.py [REPO_ROOT]   (default: the current directory)
"""
import os
import re
import sys
import tempfile

ENTRY = re.compile(r"^\s*X\((k\w+),")
USE = re.compile(r"ArgKey::(k\w+)")
WRITE = re.compile(r"(?:IntArg|StringArg|DoubleArg)\(\s*(?:model::)?ArgKey::(k\w+)"
                   r"|\{\s*(?:model::)?ArgKey::(k\w+)\s*,\s*(?:model::)?ArgType::")
COMMENT = re.compile(r"//.*$")


def unread_keys(src_root):
    table = os.path.join(src_root, "perfdx", "model", "arg_key.h")
    with open(table, encoding="utf-8") as f:
        keys = [m.group(1) for m in map(ENTRY.match, f) if m]
    read = set()
    for folder, _, files in os.walk(src_root):
        for name in files:
            if not name.endswith((".h", ".cc")) or name.startswith("arg_key."):
                continue
            with open(os.path.join(folder, name), encoding="utf-8") as f:
                for line in f:
                    code = COMMENT.sub("", line)
                    written = {a or b for a, b in WRITE.findall(code)}
                    read.update(k for k in USE.findall(code) if k not in written)
    return keys, [k for k in keys if k not in read]


def self_check():
    with tempfile.TemporaryDirectory() as tmp:
        model = os.path.join(tmp, "perfdx", "model")
        os.makedirs(model)
        with open(os.path.join(model, "arg_key.h"), "w") as f:
            f.write('#define T(X) \\\n  X(kRead, "read", "r") \\\n  X(kWritten, "w", "w") \\\n'
                    '  X(kNamed, "n", "n")\n')
        with open(os.path.join(model, "a.cc"), "w") as f:
            f.write("x = t.ArgInt(s, ArgKey::kRead);\n"
                    "args.push_back(IntArg(ArgKey::kWritten, 1));\n"
                    "e.args.push_back({model::ArgKey::kNamed, model::ArgType::kString, 0});\n"
                    "// ArgKey::kNamed in a comment\n")
        keys, unread = unread_keys(tmp)
        return keys == ["kRead", "kWritten", "kNamed"] and unread == ["kWritten", "kNamed"]


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    if not self_check():
        print("FAIL: the self-check did not find the made-up unread keys")
        return 1
    keys, unread = unread_keys(os.path.join(root, "src"))
    if len(keys) < 10:
        print(f"FAIL: only {len(keys)} keys found in arg_key.h")
        return 1
    for k in unread:
        print(f"FAIL: ArgKey::{k} is decoded and stored but nothing reads it")
    if unread:
        return 1
    print(f"PASS: {len(keys)} keys, each read")
    return 0


if __name__ == "__main__":
    sys.exit(main())
