#!/usr/bin/env bash
# fuzz.sh [seconds] -- build the libFuzzer target for the PTX parser and run it.
#
# Seeds come from tests/fuzz/corpus (read only); inputs the fuzzer finds go to
# build-fuzz/fuzz-corpus, crashes/leaks/timeouts to build-fuzz/fuzz-artifacts/.
# Every artifact is a bug: fix it and copy the input to tests/fuzz/regressions/
# (test_ptx_fuzz_regress parses all of them in the normal test build).
set -euo pipefail

secs=${1:-60}
root=$(cd "$(dirname "$0")/.." && pwd)
build=${WS_FUZZ_BUILD:-$root/build-fuzz}
flags="-g -O1 -fno-omit-frame-pointer -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all"

CC=clang cmake -S "$root" -B "$build" -DWS_FUZZ=ON -DCMAKE_BUILD_TYPE=Debug \
    -DCMAKE_C_FLAGS="$flags" >/dev/null
cmake --build "$build" --target fuzz_ptx -j2

mkdir -p "$build/fuzz-corpus" "$build/fuzz-artifacts"
exec "$build/tests/fuzz_ptx" "$build/fuzz-corpus" "$root/tests/fuzz/corpus" \
    -dict="$root/tests/fuzz/ptx.dict" \
    -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -max_len=16384 \
    -artifact_prefix="$build/fuzz-artifacts/" -print_final_stats=1
