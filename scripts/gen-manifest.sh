#!/usr/bin/env bash
# gen-manifest.sh -- one-time generator of bench/manifest.json from the
# per-benchmark bench/<name>/bench.json files the benchmark authors wrote.
# Since then bench/manifest.json is the source of truth (edit it by hand);
# this script is kept to document where it came from.  Needs jq.
# Usage: bash scripts/gen-manifest.sh > bench/manifest.json
set -euo pipefail
cd "$(dirname "$0")/.."
command -v jq >/dev/null || { echo "gen-manifest: jq is needed" >&2; exit 1; }
jq -s '{
  about: ("warpsim benchmark suite: one entry per program. classes: compute|memory, "
          + "cache-sensitive, barrier, symmetric|asymmetric (warp-length spread <= 1.02 "
          + "is symmetric). commands: the program command line per size, {bin} being "
          + "the built program; build: how warpsim bench builds it."),
  build: "nvcc -O3 -cudart shared -arch=sm_75 -gencode arch=compute_75,code=compute_75 -I bench/common {source} -o {bin}",
  benchmarks: (sort_by(.name) | map({
    name, source, kernels, classes, stands_in_for,
    commands: (.sizes | map_values("{bin} " + .)),
    notes
  }))
}' bench/*/bench.json
