#!/usr/bin/env python3
"""The text report fits the terminal (issue #14, item 4): `perfdx analyze` on
every trace of tests/accuracy/expected_findings.json (the shared traces and
examples/) and on each multi-rank job folder, run with COLUMNS=100, 60 and 200 (and 100 in colour):
no line is wider than COLUMNS display columns but a link alone on its line
(never cut, so that it can be clicked and copied), and at 200 the report uses the
room (some line is wider than 100). Display columns: one per code point, two
for East Asian wide characters, none for escape sequences (the report is run
with --color=never, so there are none) and combining marks.

Each fix's code, as the report at 60 and 100 columns shows it wrapped, is
the code of the JSON report once pasted: the same Python syntax tree
(ast.parse) or, for the shell, the same words (shlex, after bash's
backslash-newline), whatever the cuts; its link is on one line, whole.

Usage: text_width_test.py PATH_TO_PERFDX   (from the repository root)
"""
import ast
import json
import os
import re
import shlex
import subprocess
import sys
import unicodedata
from concurrent.futures import ThreadPoolExecutor

ANSI = re.compile(r"\x1b\[[0-9;?]*[@-~]")
LINK = re.compile(r"https?://\S+")


def width(line):
    line = ANSI.sub("", line)
    w = 0
    for ch in line:
        if unicodedata.combining(ch) or ord(ch) < 0x20:
            continue
        w += 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
    return w


def inputs():
    with open("tests/accuracy/expected_findings.json") as f:
        paths = [t["path"] for t in json.load(f)["traces"]]
    # The two-rank Ascend profiles as one job (their cross-rank findings).
    jobs = sorted({os.path.dirname(p) for p in paths if p.endswith("_ascend_pt")})
    return paths + jobs


def run(perfdx, path, columns, color):
    env = dict(os.environ, COLUMNS=str(columns))
    env.pop("NO_COLOR", None)
    proc = subprocess.run([perfdx, "analyze", f"--color={color}", path], env=env,
                          capture_output=True, text=True, encoding="utf-8")
    return proc


def recommendations(perfdx, path):
    proc = subprocess.run([perfdx, "analyze", "--json", path], capture_output=True, text=True,
                          encoding="utf-8")
    report = json.loads(proc.stdout)
    return [r for f in report.get("findings", []) for r in f.get("recommendations", [])]


def squeeze(text):
    return "".join(text.split())


def same_code(shown, snippet):
    """Whether the wrapped lines `shown` paste as `snippet`; a reason if not."""
    try:
        expected = ast.dump(ast.parse(snippet))
    except SyntaxError:
        expected = None
    if expected is not None:
        try:
            got = ast.dump(ast.parse(shown))
        except SyntaxError as e:
            return f"the wrapped Python does not parse: {e}"
        return None if got == expected else "the wrapped Python parses to other code"
    words = lambda src: shlex.split(src.replace("\\\n", " "), comments=True)
    return None if words(shown) == words(snippet) else "the wrapped shell has other words"


def check_pasted_code(path, columns, lines, recs):
    """The snippets shown under each "fix for" line, against the JSON's."""
    failures = []
    starts = [n for n, line in enumerate(lines) if line.startswith("     fix for ")]
    if len(starts) > len(recs):
        return [f"{path} COLUMNS={columns}: {len(starts)} fixes shown, {len(recs)} in the JSON"]
    for n, rec in zip(starts, recs):
        # The fix's sentence, wrapped at 7 columns, then its code, then "see".
        want = squeeze(f"fix for {rec['framework']}: {rec['text']}")
        got, k = "", n
        while k < len(lines) and len(got) < len(want):
            got += squeeze(lines[k])
            k += 1
        code = []
        # "see" and its address, alone on the line when the address is long.
        while (k < len(lines) and lines[k].startswith("       ") and
               lines[k][7:] != "see" and not lines[k][7:].startswith("see ")):
            code.append(lines[k][7:])
            k += 1
        url = rec.get("doc_url", "")
        if url.startswith("http") and not any(url in line for line in lines[k:k + 2]):
            failures.append(f"{path} COLUMNS={columns}: fix {rec['fix_id']}: {url} is cut")
        if not rec.get("snippet"):
            continue
        why = same_code("\n".join(code), rec["snippet"])
        if why:
            failures.append(f"{path} COLUMNS={columns}: fix {rec['fix_id']}: {why}:\n" +
                            "\n".join(code))
    return failures


def main():
    perfdx = sys.argv[1]
    if not os.path.isdir("../shared/traces"):
        print("FAIL: ../shared/traces is missing (run from the repository root)")
        return 1
    paths = inputs()
    missing = [p for p in paths if not os.path.exists(p)]
    if missing:
        print(f"FAIL: inputs missing: {missing}")
        return 1
    failures = []
    wide_at_200 = 0
    # At 100 also in colour: the escape sequences take no room.
    jobs = [(p, c, "never") for p in paths for c in (100, 60, 200)] + [(p, 100, "always") for p in paths]
    with ThreadPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(lambda job: (job, run(perfdx, *job)), jobs))
        recs = dict(zip(paths, pool.map(lambda p: recommendations(perfdx, p), paths)))
    pasted = 0
    for (path, columns, color), proc in results:
        if proc.returncode not in (0, 1):
            failures.append(f"{path} COLUMNS={columns}: exit {proc.returncode}: {proc.stderr[:300]}")
            continue
        lines = proc.stdout.splitlines()
        if not lines:
            failures.append(f"{path} COLUMNS={columns}: no report")
        for n, line in enumerate(lines, 1):
            # A link is never cut: wider than the line, it stands alone on one.
            if width(line) > columns and not LINK.fullmatch(line.strip()):
                failures.append(f"{path} COLUMNS={columns}: line {n} is {width(line)} columns: {line}")
        if color == "never" and columns in (60, 100):
            failures += check_pasted_code(path, columns, lines, recs[path])
            pasted += sum(1 for r in recs[path] if r.get("snippet"))
        if color == "always" and "\x1b[" not in proc.stdout:
            failures.append(f"{path} --color=always: no colour")
        if columns == 200 and any(width(line) > 100 for line in lines):
            wide_at_200 += 1
    # Most reports hold a sentence or a name longer than 100 columns: at 200
    # they use the room instead of keeping the 100-column layout.
    if wide_at_200 < len(paths) // 2:
        failures.append(f"COLUMNS=200: only {wide_at_200} of {len(paths)} reports use more than 100 columns")
    if pasted == 0:
        failures.append("no fix with code was shown: the paste check checked nothing")
    for f in failures[:50]:
        print("FAIL:", f)
    print(f"{len(paths)} inputs x 4 layouts: {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
