#!/usr/bin/env python3
"""Checks the module graph against docs/ARCHITECTURE.md's module table.

The table ("| module | folder | what it owns | may depend on |") is the single
source: a module may include the headers of, and link, the modules in its
"may depend on" cell and whatever those may depend on in turn ("all" means
every module). Two checks, each failing with the file, line and forbidden edge:
  1. every #include "perfdx/<module>/..." under src/perfdx/<from>/;
  2. every perfdx_<module> library a perfdx_<from> target links in
     src/perfdx/CMakeLists.txt (the executable perfdx is the cli module).
A self-check first runs both on a made-up tree with one forbidden edge each, so
the test cannot pass by finding nothing.

Usage: include_matrix_test.py [REPO_ROOT]   (default: the current directory)
"""
import os
import re
import sys
import tempfile

INCLUDE_RE = re.compile(r'^\s*#\s*include\s*["<]perfdx/([A-Za-z0-9_]+)/')
SOURCE_SUFFIXES = (".h", ".hpp", ".cc", ".cpp", ".c", ".inc")


def parse_table(doc_path):
    """Returns {module: set(direct allowed modules)} from the module table."""
    with open(doc_path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    rows, header = {}, None
    for number, line in enumerate(lines, 1):
        if not line.startswith("|"):
            if header is not None and rows:
                break  # end of the table
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if header is None:
            if cells and cells[0] == "module" and "may depend on" in cells:
                header = cells
            continue
        if set(line.replace("|", "").strip()) <= set("-: "):
            continue  # the |---|---| separator
        if len(cells) != len(header):
            raise SystemExit(f"{doc_path}:{number}: module table row has {len(cells)} cells, "
                             f"the header {len(header)}")
        module = cells[0].strip("`")
        deps = cells[header.index("may depend on")]
        rows[module] = {d.strip().strip("`") for d in deps.split(",") if d.strip()}
    if not rows:
        raise SystemExit(f"{doc_path}: no module table (| module | ... | may depend on |) found")
    modules = set(rows)
    allowed = {}
    for module, deps in rows.items():
        direct = set(modules) if "all" in deps else deps & modules  # fmt, zlib...: not modules
        allowed[module] = direct
    # Transitive closure: "may depend on analysis" includes what analysis may depend on.
    changed = True
    while changed:
        changed = False
        for module in allowed:
            grown = set(allowed[module])
            for dep in allowed[module]:
                grown |= allowed.get(dep, set())
            grown.discard(module)
            if grown != allowed[module]:
                allowed[module], changed = grown, True
    return allowed


def check_includes(src_root, allowed, doc_name):
    errors = []
    perfdx_root = os.path.join(src_root, "perfdx")
    for folder in sorted(os.listdir(perfdx_root)):
        folder_path = os.path.join(perfdx_root, folder)
        if not os.path.isdir(folder_path):
            continue
        if folder not in allowed:
            errors.append(f"{os.path.relpath(folder_path)}: module '{folder}' has no row in "
                          f"{doc_name}'s module table")
            continue
        for dirpath, _, names in os.walk(folder_path):
            for name in sorted(names):
                if not name.endswith(SOURCE_SUFFIXES):
                    continue
                path = os.path.join(dirpath, name)
                with open(path, encoding="utf-8", errors="replace") as f:
                    for number, line in enumerate(f, 1):
                        m = INCLUDE_RE.match(line)
                        if not m:
                            continue
                        to = m.group(1)
                        if to == folder or to in allowed[folder]:
                            continue
                        why = ("no such module in the table" if to not in allowed else
                               f"not in {doc_name}'s module table")
                        errors.append(f"{os.path.relpath(path)}:{number}: forbidden edge "
                                      f"{folder} -> {to} ({why}): {line.strip()}")
    return errors


def strip_cmake_comments(text):
    return "\n".join(re.sub(r"#.*$", "", line) for line in text.splitlines())


def module_of_target(target, allowed):
    """perfdx_<module>, or perfdx_<module>_<part> for a module's other targets
    (perfdx_base_huge_page_new: an object of base for the programs)."""
    name = target[len("perfdx_"):]
    if name in allowed:
        return name
    owners = [m for m in allowed if name.startswith(m + "_")]
    return max(owners, key=len) if owners else name


def check_links(cmake_path, allowed):
    """perfdx_module(name ... DEPS ...) and target_link_libraries(perfdx_x ...)."""
    errors = []
    with open(cmake_path, encoding="utf-8") as f:
        raw = f.read()
    text = strip_cmake_comments(raw)
    for m in re.finditer(r"\b(perfdx_module|target_link_libraries)\s*\(([^)]*)\)", text):
        line = text.count("\n", 0, m.start()) + 1
        args = m.group(2).split()
        if not args:
            continue
        if m.group(1) == "perfdx_module":
            module = args[0]
            deps = args[args.index("DEPS") + 1:] if "DEPS" in args else []
        else:
            target = args[0]
            if target == "perfdx":
                module = "cli"
            elif target.startswith("perfdx_") and target[len("perfdx_"):] in allowed:
                module = target[len("perfdx_"):]
            else:
                continue  # perfdx_flags, test targets...
            deps = args[1:]
        if module not in allowed:
            errors.append(f"{os.path.relpath(cmake_path)}:{line}: module '{module}' has no row "
                          f"in the module table")
            continue
        for dep in deps:
            if not dep.startswith("perfdx_") or dep == "perfdx_flags":
                continue
            to = module_of_target(dep, allowed)
            if to != module and to not in allowed[module]:
                errors.append(f"{os.path.relpath(cmake_path)}:{line}: forbidden link edge "
                              f"{module} -> {to} (perfdx_{module} links {dep})")
    return errors


def check_tree(root):
    doc = os.path.join(root, "docs", "ARCHITECTURE.md")
    allowed = parse_table(doc)
    errors = check_includes(os.path.join(root, "src"), allowed, "docs/ARCHITECTURE.md")
    errors += check_links(os.path.join(root, "src", "perfdx", "CMakeLists.txt"), allowed)
    return allowed, errors


def self_check():
    """A made-up tree where analysis includes and links formats: both must be caught."""
    with tempfile.TemporaryDirectory() as tmp:
        os.makedirs(os.path.join(tmp, "docs"))
        with open(os.path.join(tmp, "docs", "ARCHITECTURE.md"), "w") as f:
            f.write("intro\n\n| module | folder | may depend on |\n|---|---|---|\n"
                    "| base | `src/perfdx/base` | fmt |\n| model | x | base |\n"
                    "| formats | x | model, simdjson |\n| analysis | x | model |\n"
                    "| cli | x | all |\n\nafter\n")
        for module, body in {
            "base": '#include "perfdx/base/status.h"\n',
            "model": '#include "perfdx/base/status.h"\n',
            "formats": '#include "perfdx/base/status.h"\n#include "perfdx/model/trace.h"\n',
            "analysis": '#include "perfdx/model/trace.h"\n  #include "perfdx/formats/x.h"\n',
            "cli": '#include "perfdx/formats/x.h"\n#include "perfdx/analysis/y.h"\n'
                   '#include "perfdx/formats/chrome/z.h"\n',
        }.items():
            os.makedirs(os.path.join(tmp, "src", "perfdx", module))
            with open(os.path.join(tmp, "src", "perfdx", module, "a.cc"), "w") as f:
                f.write(body)
        # A format's subfolder is still the formats module, both as the
        # includer and as the included path.
        os.makedirs(os.path.join(tmp, "src", "perfdx", "formats", "chrome"))
        with open(os.path.join(tmp, "src", "perfdx", "formats", "chrome", "b.cc"), "w") as f:
            f.write('#include "perfdx/formats/chrome/z.h"\n#include "perfdx/analysis/y.h"\n')
        with open(os.path.join(tmp, "src", "perfdx", "CMakeLists.txt"), "w") as f:
            f.write("perfdx_module(formats SOURCES a.cc DEPS perfdx_model fmt::fmt)\n"
                    "perfdx_module(analysis\n  SOURCES a.cc\n  DEPS perfdx_model)\n"
                    "# target_link_libraries(perfdx_analysis PUBLIC perfdx_cli)\n"
                    "target_link_libraries(perfdx_analysis PRIVATE perfdx_formats)\n"
                    "target_link_libraries(perfdx PRIVATE perfdx_analysis perfdx_formats)\n"
                    "target_link_libraries(perfdx_model PRIVATE perfdx_formats_part)\n"
                    "target_link_libraries(perfdx PRIVATE perfdx_base_part)\n")
        cwd = os.getcwd()
        os.chdir(tmp)
        try:
            allowed, errors = check_tree(".")
        finally:
            os.chdir(cwd)
    assert allowed["formats"] == {"model", "base"}, allowed["formats"]
    assert allowed["cli"] == {"base", "model", "formats", "analysis"}, allowed["cli"]
    expected = [
        "src/perfdx/analysis/a.cc:2: forbidden edge analysis -> formats",
        "src/perfdx/CMakeLists.txt:6: forbidden link edge analysis -> formats",
        "src/perfdx/formats/chrome/b.cc:2: forbidden edge formats -> analysis",
        # A module's other target (perfdx_<module>_<part>) is that module.
        "src/perfdx/CMakeLists.txt:8: forbidden link edge model -> formats",
    ]
    for want in expected:
        assert any(e.startswith(want) for e in errors), (want, errors)
    assert len(errors) == len(expected), errors


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    self_check()
    os.chdir(root)
    allowed, errors = check_tree(".")
    for e in errors:
        print(e)
    if errors:
        print(f"{len(errors)} dependency edge(s) against docs/ARCHITECTURE.md's module table")
        return 1
    print(f"every #include and link of {len(allowed)} modules follows docs/ARCHITECTURE.md")
    return 0


if __name__ == "__main__":
    sys.exit(main())
