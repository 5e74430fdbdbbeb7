"""The objects perfdx returns: each holds one report's JSON contract as Python
objects (docs/python.md), the CLI's own renderings of it, and, for analyze,
DataFrames that reshape it. Nothing here computes a number: every value comes
from the engine, as the JSON report holds it."""

import sys


class Node(dict):
    """A JSON object of a report: a dict whose keys also read as attributes
    (`finding.title` is `finding["title"]`; a key that is also a dict method,
    such as "items", reads only as `node["items"]`)."""

    __slots__ = ()

    def __getattr__(self, name):
        try:
            return self[name]
        except KeyError:
            raise AttributeError(
                f"no key {name!r} in this perfdx report object (keys: {', '.join(self)})"
            ) from None

    def __dir__(self):
        return sorted(set(dir(dict)) | {k for k in self if k.isidentifier()})


def _pandas():
    try:
        import pandas
    except ImportError as e:
        raise ImportError(
            "perfdx: DataFrames need pandas, which this interpreter "
            f"({sys.executable}) cannot import (Debian: apt install python3-pandas, "
            "for /usr/bin/python3)") from e
    return pandas


def _flatten(obj, prefix="", out=None):
    """One row from a JSON object: nested objects become "outer.inner" columns;
    lists stay Python lists."""
    if out is None:
        out = {}
    for key, value in obj.items():
        name = prefix + key
        if isinstance(value, dict):
            _flatten(value, name + ".", out)
        else:
            out[name] = value
    return out


class _Document:
    """A report: its JSON contract as `Node`s (`to_dict()`, or its keys as
    attributes), the same as JSON text (`to_json()`) and as text (`str()`)."""

    def __init__(self, tree, json_text, text):
        self._tree = tree
        self._json = json_text
        self._text = text

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self._tree, name)

    def __getitem__(self, key):
        return self._tree[key]

    def __contains__(self, key):
        return key in self._tree

    def __dir__(self):
        return sorted(set(object.__dir__(self)) | set(dir(self._tree)))

    def to_dict(self):
        """The report's JSON contract as Python objects (Node is a dict)."""
        return self._tree

    def to_json(self, path=None):
        """The JSON report, byte for byte what the CLI writes; to `path` if given."""
        return self._write(self._json, path)

    def to_text(self, path=None):
        """The text report the CLI prints."""
        return self._write(self._text, path)

    def __str__(self):
        return self._text

    @staticmethod
    def _write(content, path):
        if path is None:
            return content
        with open(path, "w", encoding="utf-8") as f:
            f.write(content)
        return None


class Report(_Document):
    """What `perfdx.analyze` returns: `ranks`, `findings` (ranked by estimated
    gain), `jobs` and `warnings` as the JSON report has them, and DataFrames."""

    def __init__(self, tree, json_text, text, html, markdown):
        super().__init__(tree, json_text, text)
        self._html = html
        self._markdown = markdown

    def to_html(self, path=None):
        """The self-contained HTML page `--format html` writes (no network: open it
        from a file or a mail attachment); to `path` if given."""
        return self._write(self._html, path)

    def to_markdown(self, path=None):
        """The Markdown `--format md` writes (a pull-request comment or a ticket)."""
        return self._write(self._markdown, path)

    def __repr__(self):
        steps = sum(len(r.steps) for r in self._tree.ranks)
        return (f"<perfdx.Report: {len(self._tree.ranks)} rank(s), {steps} step(s), "
                f"{len(self._tree.findings)} finding(s)>")

    def _rank_rows(self, key, ranks=None):
        rows = []
        for rank in self._tree.ranks if ranks is None else ranks:
            for item in rank[key]:
                row = {"rank": rank.rank, "path": rank.path}
                row.update(_flatten(item))
                rows.append(row)
        return rows

    def _frame(self, rows):
        return _pandas().DataFrame.from_records(rows) if rows else _pandas().DataFrame()

    def steps_df(self):
        """One row per rank and analysed step: ranks[].steps[] (id, times,
        breakdown_ns.*, breakdown_share.*, device_ns.*, health.*)."""
        return self._frame(self._rank_rows("steps"))

    def kernels_df(self):
        """One row per rank and kernel: ranks[].kernels[]."""
        return self._frame(self._rank_rows("kernels"))

    def ops_df(self):
        """One row per rank and operator: ranks[].ops[]."""
        return self._frame(self._rank_rows("ops"))

    def gaps_df(self):
        """One row per rank and idle gap: ranks[].gaps[] (cause.*, host_activity and
        stalled_call.* columns)."""
        return self._frame(self._rank_rows("gaps"))

    def findings_df(self):
        """One row per finding, in the report's order: findings[] (evidence.*,
        estimated_gain.* columns; recommendations as a list per row)."""
        return self._frame([_flatten(f) for f in self._tree.findings])

    def cluster_df(self):
        """For each job of more than one rank: one row per rank and step of its
        cluster section, jobs[].cluster.ranks[].steps[] (step_ns, computing_ns,
        wait_ns, transit_ns, bubble_ns, ...), with a `job` column (the index
        into jobs[]), the rank's `clock_offset_ns` and its standing against
        the other ranks (`late_steps`, `wait_caused_ns`, `phase`: the phase of
        its step longer than the others', None when none is)."""
        rows = []
        for index, job in enumerate(self._tree.jobs):
            cluster = job.get("cluster")
            if cluster is None:
                continue
            for rank in cluster["ranks"]:
                for step in rank["steps"]:
                    standing = rank["standing"]
                    rows.append({"job": index, "rank": rank["rank"], "path": rank["path"],
                                 "clock_offset_ns": rank["clock_offset_ns"],
                                 "late_steps": standing["late_steps"],
                                 "wait_caused_ns": standing["wait_caused_ns"],
                                 "phase": standing["phase"], **_flatten(step)})
        return self._frame(rows)


class WhatIf(_Document):
    """What `perfdx.whatif` returns: `what_if`, `ranks` (each with its `replay`,
    `prediction` and `steps`) and `warnings`, as `perfdx whatif --format json`."""

    def __repr__(self):
        return f"<perfdx.WhatIf: {self._tree.what_if}, {len(self._tree.ranks)} rank(s)>"


class Info(_Document):
    """What `perfdx.info` returns: `ranks` and `warnings` as `perfdx info --json`."""

    def __repr__(self):
        return f"<perfdx.Info: {len(self._tree.ranks)} rank(s)>"


class CheckResult(_Document):
    """What `perfdx.check` returns: `verdict` ("improved", "unchanged",
    "regressed"), `step_time_ratio`, `ci`, `summary`, ... as `perfdx check --format json`."""

    def __init__(self, tree, json_text, text, markdown, html):
        super().__init__(tree, json_text, text)
        self._markdown = markdown
        self._html = html

    def to_html(self, path=None):
        """The page `perfdx check --format html` writes: the verdict and both runs'
        step-time distributions."""
        return self._write(self._html, path)

    def to_markdown(self, path=None):
        """The Markdown snippet `perfdx check --format markdown` writes (a PR comment)."""
        return self._write(self._markdown, path)

    def __repr__(self):
        return f"<perfdx.CheckResult: {self._tree.summary}>"
