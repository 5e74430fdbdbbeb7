#!/usr/bin/env bash
# Makes `import perfdx` work for python3 after a build: writes a perfdx.pth
# (one line, the path of build/<preset>/python) into the site-packages of
# each python3 that can load the built module — the one on PATH and Debian's
# /usr/bin/python3 — the user's site-packages, or a virtual environment's
# own. Nothing is copied: a rebuild is seen at once. Undo: delete perfdx.pth
# (this script prints where it wrote it).
#   scripts/python_setup.sh [PRESET]     (default: release)
set -euo pipefail
cd "$(dirname "$0")/.."
package="$(pwd)/build/${1:-release}/python"
if [ ! -f "$package/perfdx/__init__.py" ]; then
  echo "perfdx: $package/perfdx is not built (cmake --build --preset ${1:-release})" >&2
  exit 1
fi
seen=""
for py in "$(command -v python3 || true)" /usr/bin/python3; do
  [ -n "$py" ] && [ -x "$py" ] || continue
  real=$("$py" -c 'import sys; print(sys.executable)')
  case " $seen " in *" $real "*) continue ;; esac
  seen="$seen $real"
  # The module is built for one CPython ABI (its file name says which).
  suffix=$("$py" -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))')
  if [ ! -f "$package/perfdx/_perfdx$suffix" ]; then
    echo "perfdx: skipping $real: the module was built for another Python" \
         "($(cd "$package/perfdx" && ls _perfdx*.so 2>/dev/null | head -1))"
    continue
  fi
  site=$("$py" -c '
import site, sys, sysconfig
in_venv = sys.prefix != sys.base_prefix
print(sysconfig.get_paths()["purelib"] if in_venv or not site.ENABLE_USER_SITE
      else site.getusersitepackages())')
  mkdir -p "$site"
  echo "$package" > "$site/perfdx.pth"
  echo "perfdx: $real imports perfdx from $package (via $site/perfdx.pth)"
done
