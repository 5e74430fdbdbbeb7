#!/usr/bin/env python3
"""Generates docs/recommendations.md from the fix catalogue src/perfdx/advisor/knobs.toml.

    python3 scripts/gen_recommendations.py          # rewrite docs/recommendations.md
    python3 scripts/gen_recommendations.py --check  # exit 1 when the page is out of date
"""
import argparse
import pathlib
import sys
import tomllib

ROOT = pathlib.Path(__file__).resolve().parent.parent
CATALOGUE = ROOT / "src/perfdx/advisor/knobs.toml"
PAGE = ROOT / "docs/recommendations.md"


def tags(names):
    return ", ".join(f"`{n}`" for n in names)


def render(catalogue):
    out = ["# Recommendations: the catalogue of fixes", "", catalogue["doc"]["intro"].strip(), ""]
    out += ["## Evidence tags", "", "| tag | holds when |", "|---|---|"]
    out += [f"| `{name}` | {text} |" for name, text in catalogue["tags"].items()]
    out.append("")
    seen = []
    for fix in catalogue["fix"]:
        if fix["id"] not in seen:
            seen.append(fix["id"])
    for fix_id in seen:
        out += [f"## `{fix_id}`", ""]
        for fix in (f for f in catalogue["fix"] if f["id"] == fix_id):
            out += [f"### {', '.join(fix['targets'])}", "", fix["text"].strip(), "", "```"]
            out += [fix["snippet"].strip("\n"), "```", "", f"Source: <{fix['doc_url']}>", ""]
            needs = "Shown when: " + " and ".join(tags(r.split("|")).replace(", ", " or ")
                                                  for r in fix["requires"])
            if fix["excluded_by"]:
                needs += "; not when: " + tags(fix["excluded_by"]).replace(", ", " or ")
            out += [needs + ".", "", fix["verified"].strip(), ""]
    out.append(catalogue["doc"]["not_recommended"].strip())
    return "\n".join(out) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare instead of writing")
    args = parser.parse_args()
    with CATALOGUE.open("rb") as f:
        text = render(tomllib.load(f))
    if args.check:
        if PAGE.read_text(encoding="utf-8") != text:
            print(f"{PAGE.relative_to(ROOT)} is out of date: run python3 scripts/gen_recommendations.py",
                  file=sys.stderr)
            return 1
        return 0
    PAGE.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
