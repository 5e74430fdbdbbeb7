#!/usr/bin/env bash
# Formats every C/C++ file of perfdx (src/, tests/, bench/, examples/) with the
# committed .clang-format, using Debian's clang-format-14 (the version CI has;
# another major version formats some constructs differently).
#   scripts/format.sh           reformat in place
#   scripts/format.sh --check   change nothing; list each file that differs, exit 1 if any
# CLANG_FORMAT=/path/to/clang-format overrides the binary (it must still be 14).
set -euo pipefail
cd "$(dirname "$0")/.."
mode=fix
case "${1:-}" in
  "") ;;
  --check) mode=check ;;
  *) echo "usage: scripts/format.sh [--check]" >&2; exit 2 ;;
esac

clang_format="${CLANG_FORMAT:-}"
if [ -z "$clang_format" ]; then
  for c in clang-format-14 clang-format; do
    if command -v "$c" >/dev/null; then clang_format=$c; break; fi
  done
fi
if [ -z "$clang_format" ]; then
  echo "perfdx: clang-format-14 not found (scripts/deps.sh installs it)" >&2
  exit 2
fi
version=$("$clang_format" --version)
if ! [[ "$version" =~ version\ 14\. ]]; then
  echo "perfdx: $clang_format is not clang-format 14 ($version)" >&2
  exit 2
fi

mapfile -d '' files < <(find src tests bench examples -type f \
  \( -name '*.cc' -o -name '*.h' -o -name '*.cpp' -o -name '*.hpp' -o -name '*.c' \) -print0 | sort -z)
if [ "$mode" = fix ]; then
  "$clang_format" -i --style=file "${files[@]}"
  echo "formatted ${#files[@]} files"
  exit 0
fi
# One run over all files; clang-format names each file:line that differs.
log=$("$clang_format" --dry-run -Werror --style=file "${files[@]}" 2>&1) && status=0 || status=$?
mapfile -t differ < <(grep -oE '^[^:]+:[0-9]+:[0-9]+: error' <<<"$log" | cut -d: -f1 | sort -u)
if [ "$status" -ne 0 ] && [ ${#differ[@]} -eq 0 ]; then
  echo "$log" >&2  # failed without naming a file: show why
  exit 2
fi
if [ ${#differ[@]} -ne 0 ]; then
  printf '%s\n' "${differ[@]}"
  echo "perfdx: ${#differ[@]} of ${#files[@]} files differ from .clang-format (run scripts/format.sh)" >&2
  exit 1
fi
echo "all ${#files[@]} files follow .clang-format"
