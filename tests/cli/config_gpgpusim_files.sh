#!/usr/bin/env bash
# config_gpgpusim_files.sh -- GPGPU-Sim 4.2's own configuration files,
# unchanged (configs/gpgpusim/): `warpsim config show` of each exits 0,
# names the machine after the file's folder, leaves no option unknown and
# names what is not modelled with what it would change; the dump loads back;
# the Volta and Ampere presets are listed and equal their files.
# Run by ctest: bash config_gpgpusim_files.sh WARPSIM SOURCE_DIR
ws="$1"; src="$2"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
out="$tmp/out"; err="$tmp/err"
bad=0
fail() { echo "FAIL: $*"; bad=1; }

n=0
for cfg in "$src"/configs/gpgpusim/*/gpgpusim.config; do
  name="$(basename "$(dirname "$cfg")")"
  n=$((n + 1))
  if ! "$ws" config show "$cfg" >"$out" 2>"$err"; then
    fail "$name: config show exited $?: $(cat "$err")"; continue
  fi
  head -1 "$out" | grep -q "preset: $name/gpgpusim.config" || fail "$name: header $(head -1 "$out")"
  grep -q "unknown:" "$err" && fail "$name: unknown options: $(grep -o 'unknown: [^;]*' "$err")"
  grep -q -- "-gpgpu_dram_return_queue_size (replies a DRAM channel holds before the L2 takes them)" "$err" \
    || fail "$name: -gpgpu_dram_return_queue_size not named with its reason"
  cp "$out" "$tmp/dump.cfg"
  "$ws" config show "$tmp/dump.cfg" >"$tmp/again" 2>/dev/null || fail "$name: dump does not load"
  diff <(tail -n +2 "$out") <(tail -n +2 "$tmp/again") >/dev/null || fail "$name: dump differs"
done
[ "$n" -eq 10 ] || fail "expected 10 GPGPU-Sim configs, found $n"

# the correlation GTX480 file: 0 DP units and the six-value latency list load
"$ws" config show "$src/configs/gpgpusim/gtx480/gpgpusim.config" >"$out" 2>"$err" \
  || fail "gtx480: exited $?"
grep -Eq "^units\.dp +=  *0 " "$out" || fail "gtx480: units.dp $(grep units.dp "$out")"
grep -Eq "^l1d\.hit_latency +=  *35 " "$out" || fail "gtx480: l1d.hit_latency"
grep -Eq "^l2\.sector_bytes +=  *32 " "$out" || fail "gtx480: l2.sector_bytes (S:)"
grep -Eq "^dram_latency +=  *100 " "$out" || fail "gtx480: dram_latency"
grep -q -- "-ptx_opcode_latency_int \[" "$err" || fail "gtx480: latency list approximations not named"

"$ws" config list >"$out" || fail "config list exited $?"
for p in qv100 rtx3070; do grep -q "^$p " "$out" || fail "config list does not name $p"; done
for p in qv100:SM7_QV100 rtx3070:SM86_RTX3070; do
  "$ws" config show "${p%%:*}" | tail -n +2 >"$tmp/a" || fail "${p%%:*}: exited $?"
  "$ws" config show "$src/configs/gpgpusim/${p#*:}/gpgpusim.config" 2>/dev/null | tail -n +2 >"$tmp/b"
  diff "$tmp/a" "$tmp/b" >/dev/null || fail "${p%%:*} differs from its file: $(diff "$tmp/a" "$tmp/b" | head -4)"
done

# --set of an option warpsim does not model: an error saying what it would change
"$ws" config show --set -gpgpu_dram_return_queue_size=116 >"$out" 2>"$err" \
  && fail "--set -gpgpu_dram_return_queue_size accepted"
grep -q "replies a DRAM channel holds" "$err" || fail "--set -gpgpu_dram_return_queue_size: $(cat "$err")"
exit $bad
