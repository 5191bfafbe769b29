#!/usr/bin/env bash
# test.sh -- build warpsim and run every test twice: a normal build in
# build/ and an AddressSanitizer+UBSan build in build-asan/.  Installs
# missing packages first (scripts/bootstrap.sh).  Exits non-zero if any
# configure, build or test step fails.  Usage: bash scripts/test.sh
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
jobs="${WS_JOBS:-2}"

bash scripts/bootstrap.sh || { echo "test.sh: FAILED (bootstrap)"; exit 1; }

failed=()
run_suite() {   # run_suite NAME BUILD_DIR [cmake options...]
  local name="$1" dir="$2"
  shift 2
  echo "==== $name: configure + build ($dir) ===="
  if ! cmake -S . -B "$dir" "$@"; then failed+=("$name:configure"); return; fi
  if ! cmake --build "$dir" -j"$jobs"; then failed+=("$name:build"); return; fi
  echo "==== $name: ctest ===="
  if ! ctest --test-dir "$dir" -j"$jobs" --output-on-failure; then
    failed+=("$name:tests")
  fi
}

run_suite normal build
run_suite asan build-asan -DWS_SANITIZE=ON

if [ "${#failed[@]}" -eq 0 ]; then
  echo "test.sh: ALL PASSED (normal build + sanitizer build)"
  exit 0
fi
echo "test.sh: FAILED: ${failed[*]}"
exit 1
