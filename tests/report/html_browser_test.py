#!/usr/bin/env python3
"""The HTML report in a real browser (issue #14, item 1; CTest html_report_browser).

Renders `perfdx analyze --format html` of a shared Kineto trace and of the
2-rank Ascend profile, opens each page in headless Chromium (Debian's
`chromium`) and checks, on the DOM after the page's script has run:
  - no console message at all (errors, CSP violations, script exceptions);
  - no request leaves the page (Chromium's net log, with every host name
    resolving to nothing and the page's Content-Security-Policy in force);
  - every chart is there, with as many marks as the JSON report of the same
    input calls for (steps, phases, gaps, memory bars, ranks), counted here
    from the JSON, not from the renderer;
  - the sorting script ran (it makes every sortable column header focusable)
    and sorts: on a copy of the page with a probe script added, clicks on the
    kernel table's "count" header order the rows as the JSON's counts sorted
    here;
and keeps a screenshot of each page (1280x2000, and 1280x16000 for the whole
page) under --artifacts. Then the same for `perfdx check --format html` of the
ResNet-50 pair (4 DataLoader workers against 0: improved, exit 0): no console
message, no request, the distribution chart with one dot per step of each side
(the step counts from `--format json` of the same check).

A control page first proves the detectors work in this Chromium: one console
message and one request that they must see. If Chromium is missing or cannot
start, or ../shared is missing, the test fails and says why; it never skips.
"""
import argparse
import glob
import html.parser
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

SHARED = "../shared/traces"
CASES = [
    # (artifact name, inputs: globs under ../shared/traces)
    ("kineto_resnet50", ["kineto/tbp/resnet50_num_workers_0/*.json.gz"]),
    ("ascend_2rank", ["ascend/torch_npu_2rank_text_level0"]),
]
# The flags that work on this machine's closed network (no background
# connections, no GPU, root without the sandbox), plus host names that all
# resolve to nothing: a request the CSP let through would still fail here and
# show in the net log.
CHROMIUM_FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--host-resolver-rules=MAP * ~NOTFOUND", "--enable-logging=stderr", "--v=0",
]
# `perfdx check NEW --against BASE`: the ResNet-50 pair, 4 workers against 0.
CHECK_NEW = "kineto/tbp/resnet50_num_workers_4/worker0.1623212756351.pt.trace.json.gz"
CHECK_BASE = "kineto/tbp/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz"
CHROMIUM_TIMEOUT_S = 180
# Added to a copy of the page: clicks the kernel table's "count" header twice
# and logs the first rows' counts after each click.
SORT_PROBE = """<script>
(function () {
  var t = document.querySelector('table.sortable.kernels');
  var heads = Array.prototype.slice.call(t.tHead.rows[0].cells);
  var th = heads.filter(function (h) { return h.textContent === 'count'; })[0];
  var i = heads.indexOf(th);
  function counts() {
    return Array.prototype.slice.call(t.tBodies[0].rows).map(function (r) {
      return r.cells[i].getAttribute('data-v');
    }).join(',');
  }
  th.click();
  console.log('perfdx-sort-1 ' + th.getAttribute('aria-sort') + ' ' + counts());
  th.click();
  console.log('perfdx-sort-2 ' + th.getAttribute('aria-sort') + ' ' + counts());
})();
</script>"""

failures = []


def fail_now(message):
    print(f"FAIL: {message}")
    sys.exit(1)


def check(ok, message):
    if not ok:
        failures.append(message)
        print(f"  not ok: {message}")
    return ok


def find_chromium():
    for name in ("chromium", "/usr/bin/chromium", "chromium-browser"):
        path = shutil.which(name)
        if path:
            return path
    fail_now("Chromium not found: the browser test needs Debian's chromium package "
             "(scripts/deps.sh installs it: apt-get install chromium)")


def run_chromium(chromium, url, workdir, extra):
    """Runs Chromium once on `url`; returns (stdout, stderr). Fails the test if it cannot."""
    profile = tempfile.mkdtemp(prefix="profile-", dir=workdir)
    cmd = [chromium] + CHROMIUM_FLAGS + [f"--user-data-dir={profile}"] + extra + [url]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=CHROMIUM_TIMEOUT_S)
    except FileNotFoundError as e:
        fail_now(f"Chromium could not start ({e}): {' '.join(cmd)}")
    except subprocess.TimeoutExpired:
        fail_now(f"Chromium did not finish within {CHROMIUM_TIMEOUT_S} s: {' '.join(cmd)}")
    if proc.returncode != 0:
        tail = "\n".join(proc.stderr.splitlines()[-15:])
        fail_now(f"Chromium exited with status {proc.returncode} on {url}:\n{tail}")
    return proc.stdout, proc.stderr


def console_messages(stderr):
    # Chromium logs each console message of the page, whatever its level, as
    # "[pid:tid:time:INFO:CONSOLE:line] "text", source: URL (line)".
    return [line for line in stderr.splitlines() if ":CONSOLE" in line]


def page_requests(net_log_path):
    """URLs of the network requests a page made (Chromium's own start-up
    requests, whose initiator is 'not an origin', are not the page's)."""
    with open(net_log_path, encoding="utf-8") as f:
        text = f.read()
    try:
        log = json.loads(text)
    except json.JSONDecodeError:
        # A log Chromium did not close: its events array stops mid-way.
        log = json.loads(text.rstrip().rstrip(",") + "]}")
    names = {v: k for k, v in log["constants"]["logEventTypes"].items()}
    urls = []
    for event in log.get("events", []):
        params = event.get("params") or {}
        if names.get(event.get("type")) != "URL_REQUEST_START_JOB" or "url" not in params:
            continue
        if params.get("initiator") != "not an origin":
            urls.append(params["url"])
    return urls


class Dom(html.parser.HTMLParser):
    """The parts of a dumped DOM the checks read."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.svg_ids = []
        self.marks = {}  # svg id -> [(tag, classes)]
        self.current_svg = None
        self.sortable_depth = 0
        self.sortable_tables = 0
        self.sortable_headers = 0
        self.focusable_headers = 0
        self.fetching = []  # (tag, attribute, value) that a browser would load

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        classes = (a.get("class") or "").split()
        if tag == "svg":
            self.current_svg = a.get("id", "")
            self.svg_ids.append(self.current_svg)
            self.marks.setdefault(self.current_svg, [])
        elif self.current_svg is not None and "mark" in classes:
            self.marks[self.current_svg].append((tag, classes))
        if tag == "table" and "sortable" in classes:
            self.sortable_tables += 1
            self.sortable_depth += 1
        if tag == "th" and self.sortable_depth:
            self.sortable_headers += 1
            if a.get("tabindex") == "0":
                self.focusable_headers += 1
        for attr in ("src", "href"):
            value = a.get(attr)
            if value is None or (tag == "a" and attr == "href"):
                continue  # a link is followed on a click, not loaded
            if not (value.startswith("data:") or value.startswith("#")):
                self.fetching.append((tag, attr, value))

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag == "svg":
            self.current_svg = None

    def handle_endtag(self, tag):
        if tag == "svg":
            self.current_svg = None
        if tag == "table" and self.sortable_depth:
            self.sortable_depth -= 1

    def count(self, svg_id, tag, css=None, prefix=None):
        n = 0
        for t, classes in self.marks.get(svg_id, []):
            if t != tag:
                continue
            if css and css not in classes:
                continue
            if prefix and not any(c.startswith(prefix) for c in classes):
                continue
            n += 1
        return n


def expected_charts(report):
    """svg id -> list of (tag, class or None, class prefix or None, count), from the JSON."""
    charts = {}
    for i, rank in enumerate(report["ranks"]):
        steps = rank["steps"]
        outliers = set(rank["summary"]["step_time_ns"]["outlier_steps"])
        charts[f"step-time-{i}"] = [
            ("circle", "pt", None, len(steps)),
            ("circle", "outlier", None, sum(1 for s in steps if s["id"] in outliers)),
        ]
        charts[f"step-breakdown-{i}"] = [
            ("rect", "seg", None, sum(1 for s in steps for v in s["breakdown_ns"].values() if v > 0)),
        ]
        charts[f"device-activity-{i}"] = [
            ("rect", "span", "cause-", len(rank["gaps"])),
            ("rect", "c-computing", None, sum(1 for s in steps if s["device_ns"]["computing"] > 0)),
            ("rect", "c-comm", None, sum(1 for s in steps if s["device_ns"]["communication"] > 0)),
            ("rect", "c-comm-exposed", None,
             sum(1 for s in steps if s["device_ns"]["communication_not_overlapped"] > 0)),
            ("rect", "c-memcpy", None, sum(1 for s in steps if s["breakdown_share"]["memcpy"] > 0)),
        ]
        bars = 0
        for d in rank["memory"]["devices"]:
            bars += d["peak_allocated_bytes"] > 0
            bars += (d["peak_reserved_bytes"] or 0) > 0
            bars += (d["capacity_bytes"] or 0) > 0
        charts[f"memory-{i}"] = [("rect", "hseg", None, bars)]
    for j, job in enumerate(report["jobs"]):
        if len(job["ranks"]) < 2:
            continue
        members = [r for r in report["ranks"] if r["path"] in job["paths"]]
        check(len(members) == len(job["ranks"]), f"job {j}: its ranks are in the report")
        charts[f"rank-breakdown-{j}"] = [
            ("rect", "hseg", None,
             sum(1 for r in members for v in r["temporal_breakdown_share"].values() if v > 0)),
        ]
        charts[f"rank-step-time-{j}"] = [
            ("rect", "hseg", None,
             sum((r["summary"]["step_time_ns"]["median"] > 0) + (r["summary"]["step_time_ns"]["p90"] > 0)
                 for r in members)),
        ]
        parts = ("preparing", "computing", "communication_not_overlapped", "free", "trailing")
        charts[f"rank-device-time-{j}"] = [
            ("rect", "seg", None,
             sum(1 for r in members for s in r["steps"] for p in parts if s["device_ns"][p] > 0)),
        ]
    return charts


def control_check(chromium, workdir):
    """The detectors must see a console message and a request on a page made to have both."""
    page = os.path.join(workdir, "control.html")
    with open(page, "w", encoding="utf-8") as f:
        f.write("<!DOCTYPE html><html><body><img src=\"http://perfdx-control.invalid/x.png\">"
                "<script>console.error('perfdx-control-message')</script></body></html>")
    net_log = os.path.join(workdir, "control.netlog.json")
    _, stderr = run_chromium(chromium, "file://" + page, workdir,
                             ["--dump-dom", f"--log-net-log={net_log}"])
    messages = console_messages(stderr)
    requests = page_requests(net_log)
    if not any("perfdx-control-message" in m for m in messages):
        fail_now("control page: Chromium's log showed no console message, so the console check "
                 "would see nothing (stderr tail:\n" + "\n".join(stderr.splitlines()[-10:]) + ")")
    if not any("perfdx-control.invalid" in u for u in requests):
        fail_now(f"control page: the net log showed no request ({requests}), so the request check "
                 "would see nothing")
    print("ok: control page: the console and request detectors see a message and a request")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--perfdx", required=True)
    parser.add_argument("--artifacts", required=True, help="folder for the pages and screenshots")
    args = parser.parse_args()

    if not os.path.isdir(SHARED):
        fail_now(f"{SHARED} is missing (run from the repository root, beside ../shared)")
    chromium = find_chromium()
    version = subprocess.run([chromium, "--version"], capture_output=True, text=True)
    print(f"chromium: {version.stdout.strip() or version.stderr.strip()}")
    os.makedirs(args.artifacts, exist_ok=True)
    artifacts = os.path.abspath(args.artifacts)
    workdir = tempfile.mkdtemp(prefix="perfdx-html-browser-")
    try:
        control_check(chromium, workdir)
        for name, patterns in CASES:
            inputs = []
            for pattern in patterns:
                found = sorted(glob.glob(os.path.join(SHARED, pattern)))
                if not found:
                    fail_now(f"{name}: no input matches {SHARED}/{pattern}")
                inputs += found
            run_case(args.perfdx, chromium, name, inputs, artifacts, workdir)
        check_page_case(args.perfdx, chromium, artifacts, workdir)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    if failures:
        print(f"FAIL: {len(failures)} check(s) failed:")
        for f in failures:
            print(f"  - {f}")
        return 1
    print(f"PASS (pages and screenshots in {artifacts})")
    return 0


def check_sorting(chromium, name, source, report, workdir):
    probe = os.path.join(workdir, f"{name}.sort-probe.html")
    with open(probe, "w", encoding="utf-8") as f:
        f.write(source.replace("</body>", SORT_PROBE + "</body>"))
    _, stderr = run_chromium(chromium, "file://" + probe, workdir, ["--dump-dom"])
    lines = {}
    for m in console_messages(stderr):
        found = re.search(r'"(perfdx-sort-\d) (\w+) ([\d,]*)"', m)
        if found:
            lines[found.group(1)] = (found.group(2), [int(c) for c in found.group(3).split(",") if c])
        else:
            check(False, f"{name}: sort probe: unexpected console message {m}")
    counts = sorted(k["count"] for k in report["ranks"][0]["kernels"])
    check(lines.get("perfdx-sort-1") == ("descending", counts[::-1]),
          f"{name}: a click on 'count' sorts the kernels by count, largest first "
          f"(got {lines.get('perfdx-sort-1')})")
    check(lines.get("perfdx-sort-2") == ("ascending", counts),
          f"{name}: a second click sorts them smallest first (got {lines.get('perfdx-sort-2')})")


def run_case(perfdx, chromium, name, inputs, artifacts, workdir):
    print(f"== {name}: {' '.join(inputs)}")
    page = os.path.join(artifacts, f"{name}.html")
    json_path = os.path.join(workdir, f"{name}.json")
    for fmt, out in (("html", page), ("json", json_path)):
        proc = subprocess.run([perfdx, "analyze", *inputs, "--format", fmt, "-o", out],
                              capture_output=True, text=True)
        if proc.returncode not in (0, 1):
            fail_now(f"{name}: perfdx analyze --format {fmt} exited {proc.returncode}: "
                     f"{proc.stderr.strip()}")
    with open(json_path, encoding="utf-8") as f:
        report = json.load(f)
    with open(page, encoding="utf-8") as f:
        source = f.read()
    check("Content-Security-Policy" in source, f"{name}: the page carries its CSP")
    check(not re.search(r"""\ssrc\s*=\s*["']?(https?:)?//""", source),
          f"{name}: no src= names another host")

    url = "file://" + page
    net_log = os.path.join(workdir, f"{name}.netlog.json")
    dom_text, stderr = run_chromium(chromium, url, workdir,
                                    ["--dump-dom", f"--log-net-log={net_log}"])
    check(dom_text.strip().startswith("<html") or "<body" in dom_text,
          f"{name}: Chromium dumped the DOM")
    messages = console_messages(stderr)
    check(not messages, f"{name}: no console message (got: {messages[:5]})")
    requests = page_requests(net_log)
    check(not requests, f"{name}: no request leaves the page (got: {requests[:5]})")

    dom = Dom()
    dom.feed(dom_text)
    expected = expected_charts(report)
    check(sorted(dom.svg_ids) == sorted(expected),
          f"{name}: the charts are {sorted(expected)} (found {sorted(dom.svg_ids)})")
    for svg_id, counts in sorted(expected.items()):
        for tag, css, prefix, n in counts:
            got = dom.count(svg_id, tag, css, prefix)
            what = css or prefix
            check(got == n, f"{name}: {svg_id} has {n} <{tag}> marks of class {what} (found {got})")
    check(dom.sortable_tables >= 2, f"{name}: sortable tables ({dom.sortable_tables})")
    check(dom.sortable_headers > 0 and dom.focusable_headers == dom.sortable_headers,
          f"{name}: the sorting script ran ({dom.focusable_headers} of {dom.sortable_headers} "
          "sortable headers focusable)")
    check(not dom.fetching, f"{name}: nothing in the DOM loads from elsewhere ({dom.fetching[:5]})")

    check_sorting(chromium, name, source, report, workdir)

    screenshot = os.path.join(artifacts, f"{name}.png")
    if os.path.exists(screenshot):
        os.remove(screenshot)
    _, shot_err = run_chromium(chromium, url, workdir,
                               [f"--screenshot={screenshot}", "--window-size=1280,2000",
                                "--hide-scrollbars"])
    ok = os.path.exists(screenshot) and os.path.getsize(screenshot) > 10000
    if ok:
        with open(screenshot, "rb") as f:
            ok = f.read(8) == b"\x89PNG\r\n\x1a\n"
    check(ok, f"{name}: screenshot written ({screenshot})")
    check(not console_messages(shot_err), f"{name}: no console message while taking the screenshot")
    # The whole page too (the first 16000 pixels), for a look at every chart.
    full = os.path.join(artifacts, f"{name}_full.png")
    run_chromium(chromium, url, workdir,
                 [f"--screenshot={full}", "--window-size=1280,16000", "--hide-scrollbars"])
    check(os.path.exists(full), f"{name}: full-page screenshot written ({full})")
    marks = sum(len(v) for v in dom.marks.values())
    print(f"ok: {name}: {len(dom.svg_ids)} charts, {marks} marks, {len(report['ranks'])} rank(s); "
          f"page {page}; screenshot {screenshot}")


def check_page_case(perfdx, chromium, artifacts, workdir):
    name = "check_resnet50"
    new, base = (os.path.join(SHARED, p) for p in (CHECK_NEW, CHECK_BASE))
    print(f"== {name}: check {new} --against {base}")
    page = os.path.join(artifacts, f"{name}.html")
    json_path = os.path.join(workdir, f"{name}.json")
    for fmt, out in (("html", page), ("json", json_path)):
        proc = subprocess.run([perfdx, "check", new, "--against", base, "--format", fmt, "-o", out],
                              capture_output=True, text=True)
        if proc.returncode != 0:  # 0: improved (1 would be a regression)
            fail_now(f"{name}: perfdx check --format {fmt} exited {proc.returncode}: "
                     f"{proc.stderr.strip()}")
    with open(json_path, encoding="utf-8") as f:
        result = json.load(f)
    check(result["verdict"] == "improved", f"{name}: the verdict is improved ({result['verdict']})")
    net_log = os.path.join(workdir, f"{name}.netlog.json")
    dom_text, stderr = run_chromium(chromium, "file://" + page, workdir,
                                    ["--dump-dom", f"--log-net-log={net_log}"])
    messages = console_messages(stderr)
    check(not messages, f"{name}: no console message (got: {messages[:5]})")
    requests = page_requests(net_log)
    check(not requests, f"{name}: no request leaves the page (got: {requests[:5]})")
    dom = Dom()
    dom.feed(dom_text)
    check(dom.svg_ids == ["check-distribution"],
          f"{name}: the distribution chart is there (found {dom.svg_ids})")
    for side, css in (("base", "c-base"), ("new", "c-new")):
        got = dom.count("check-distribution", "circle", css)
        n = result[side]["steps"]
        check(got == n, f"{name}: one dot per {side} step: {n} (found {got})")
    check(not dom.fetching, f"{name}: nothing in the DOM loads from elsewhere ({dom.fetching[:5]})")
    screenshot = os.path.join(artifacts, f"{name}.png")
    _, shot_err = run_chromium(chromium, "file://" + page, workdir,
                               [f"--screenshot={screenshot}", "--window-size=1280,1000",
                                "--hide-scrollbars"])
    check(os.path.exists(screenshot), f"{name}: screenshot written ({screenshot})")
    check(not console_messages(shot_err), f"{name}: no console message while taking the screenshot")
    print(f"ok: {name}: {result['base']['steps']} + {result['new']['steps']} steps drawn; "
          f"page {page}; screenshot {screenshot}")


if __name__ == "__main__":
    sys.exit(main())
