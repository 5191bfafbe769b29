#!/usr/bin/env bash
# bench_list.sh -- `warpsim bench` without CUDA: list shows every manifest
# entry with its tags; unknown names list the valid ones; usage errors exit
# 2; a missing nvcc and a malformed manifest give clear messages.
# Run by ctest: bash bench_list.sh WARPSIM SOURCE_DIR
ws="$1"; src="$2"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
out="$tmp/out"; err="$tmp/err"
bad=0
fail() { echo "FAIL: $*"; bad=1; }

"$ws" bench list >"$out" 2>"$err" || fail "bench list exited $?: $(cat "$err")"
n="$(grep -c '^[a-z]' "$out")"
[ "$n" -ge 28 ] || fail "bench list shows $n benchmarks, want >= 28"
grep -Eq '^nw +memory,barrier,asymmetric +Rodinia' "$out" || fail "nw row missing or wrong"
grep -Eq '^ +kernels: nw_diagonal$' "$out" || fail "nw kernels missing"
grep -Eq "^$n benchmarks \(.*bench/manifest.json\)$" "$out" || fail "no count line"
for tag in compute memory cache-sensitive barrier symmetric asymmetric; do
  grep -Eq "^[a-z]+ +([a-z-]+,)*$tag(,|\s)" "$out" || fail "no benchmark tagged $tag"
done

"$ws" bench run nosuch >"$out" 2>"$err"; rc=$?
[ "$rc" -eq 2 ] || fail "unknown benchmark exited $rc, want 2"
grep -q "unknown benchmark 'nosuch'" "$err" || fail "unknown-name message: $(cat "$err")"
grep -q "^valid benchmarks:.* bfs .* triad" "$err" || fail "valid names not listed"
"$ws" bench >"$out" 2>"$err"; [ $? -eq 2 ] || fail "bench without a subcommand should exit 2"
"$ws" bench frob >"$out" 2>"$err"; [ $? -eq 2 ] || fail "unknown subcommand should exit 2"
grep -q "valid: list, run, characterize" "$err" || fail "subcommands not listed"
"$ws" bench run >"$out" 2>"$err"; [ $? -eq 2 ] || fail "run without a name should exit 2"
"$ws" bench run nw --size huge >"$out" 2>"$err"; [ $? -eq 2 ] || fail "bad --size should exit 2"
"$ws" bench run nw --frob >"$out" 2>"$err"; [ $? -eq 2 ] || fail "unknown option should exit 2"
grep -q "warpsim bench run: unknown option '--frob'" "$err" || fail "option error: $(cat "$err")"
"$ws" bench --help >"$out" 2>&1 || fail "bench --help failed"
grep -q "characterize" "$out" || fail "help does not mention characterize"

# a manifest of our own: missing nvcc, malformed entries, missing folder
mkdir -p "$tmp/tree/bench/x"
touch "$tmp/tree/bench/x/x.cu"
cat >"$tmp/tree/bench/manifest.json" <<'JSON'
{"build": "nvcc {source} -o {bin}", "benchmarks": [
 {"name": "x", "source": "bench/x/x.cu", "kernels": ["k"], "classes": ["compute"],
  "stands_in_for": "nothing", "commands": {"tiny": "{bin}", "small": "{bin}", "default": "{bin}"}}]}
JSON
WARPSIM_NVCC=/nonexistent/nvcc "$ws" bench run x --bench-dir "$tmp/tree/bench" \
  --bin-dir "$tmp/bin" >"$out" 2>"$err"; rc=$?
[ "$rc" -eq 1 ] || fail "missing nvcc exited $rc, want 1"
grep -q "nvcc was not found.*CUDA 13" "$err" || fail "missing-nvcc message: $(cat "$err")"
sed -i 's/"source": "bench\/x\/x.cu", //' "$tmp/tree/bench/manifest.json"
"$ws" bench list --bench-dir "$tmp/tree/bench" >"$out" 2>"$err"; rc=$?
[ "$rc" -eq 1 ] || fail "manifest without source exited $rc, want 1"
grep -q 'manifest.json: benchmark 1 (x): missing or malformed "source"' "$err" \
  || fail "malformed-entry message: $(cat "$err")"
echo '{"benchmarks": [' >"$tmp/tree/bench/manifest.json"
"$ws" bench list --bench-dir "$tmp/tree/bench" >"$out" 2>"$err"; rc=$?
[ "$rc" -eq 1 ] || fail "broken JSON exited $rc, want 1"
grep -q "manifest.json:[0-9]*:[0-9]*: " "$err" || fail "JSON error has no position: $(cat "$err")"
"$ws" bench list --bench-dir "$tmp/none" >"$out" 2>"$err"; [ $? -eq 1 ] || fail "missing dir should exit 1"
grep -q "not found (use --bench-dir" "$err" || fail "missing-dir message: $(cat "$err")"

[ "$bad" -eq 0 ] && echo "bench list: ok"
exit "$bad"
