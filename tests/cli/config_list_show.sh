#!/usr/bin/env bash
# config_list_show.sh -- `warpsim config list | show` and `warpsim policies`:
# presets listed, every parameter shown with value and unit (text is a
# loadable config file, JSON parses), --set and GPGPU-Sim files applied,
# configuration and usage errors exit 2 with a message naming key and value.
# Run by ctest: bash config_list_show.sh WARPSIM SOURCE_DIR
ws="$1"; src="$2"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
out="$tmp/out"; err="$tmp/err"
bad=0
fail() { echo "FAIL: $*"; bad=1; }

"$ws" config list >"$out" 2>"$err" || fail "config list exited $?"
for p in gtx480 fx5800 owl28 tesla8 k20x; do
  grep -q "^$p " "$out" || fail "config list does not name $p"
done
grep -q "^gtx480 .*\[default\]" "$out" || fail "gtx480 not marked default"

"$ws" config show >"$out" 2>"$err" || fail "config show exited $?"
grep -Eq "^l1d\.sets +=  *64 +# sets:" "$out" || fail "default l1d.sets: $(grep l1d.sets "$out")"
grep -Eq "^warp_scheduler +=  *lrr" "$out" || fail "default warp_scheduler"
[ "$(grep -c ' = ' "$out")" -gt 60 ] || fail "config show lists too few parameters"
# the text dump loads back as a config file and gives the same dump
cp "$out" "$tmp/dump.cfg"
"$ws" config show "$tmp/dump.cfg" >"$tmp/again" 2>"$err" || fail "dump does not load: $(cat "$err")"
diff <(tail -n +2 "$out") <(tail -n +2 "$tmp/again") >/dev/null || fail "dump does not round-trip"

"$ws" config show fx5800 --set warp_scheduler=gto --set l1d.ways=16 >"$out" 2>"$err" \
  || fail "config show fx5800 --set exited $?"
grep -q "preset: fx5800; 30 SMs" "$out" || fail "fx5800 header: $(head -1 "$out")"
grep -Eq "^warp_scheduler +=  *gto" "$out" || fail "--set warp_scheduler not applied"
grep -Eq "^l1d\.ways +=  *16 " "$out" || fail "--set l1d.ways not applied"

"$ws" config show k20x --json >"$out" 2>"$err" || fail "config show --json exited $?"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["params"]["n_schedulers"]["value"]==4; assert d["params"]["l1d.line_bytes"]["unit"]=="bytes"' "$out" \
  || fail "JSON dump does not parse or lacks values"

# a GPGPU-Sim config file: values applied, one warning naming unused options
"$ws" config show "$src/tests/data/gtx480.gpgpusim.config" >"$out" 2>"$err" \
  || fail "gpgpusim.config: exited $?: $(cat "$err")"
grep -Eq "^l1d\.mshr_entries +=  *64 " "$out" || fail "gpgpusim.config L1D MSHRs"
[ "$(grep -c warning "$err")" -eq 1 ] || fail "want exactly one warning line: $(cat "$err")"
grep -q "unknown: -gpgpu_no_such_option" "$err" || fail "warning does not name unknown options"
grep -q -- "-gpgpu_operand_collector_num_units_mem" "$err" || fail "warning does not name ignored options"

# errors: exit 2, message names key, value and bounds
"$ws" config show --set l1d.ways=0 >"$out" 2>"$err"; rc=$?
[ "$rc" -eq 2 ] || fail "bad value exited $rc, want 2"
grep -q "l1d.ways.*0.*\[1, 4096\]" "$err" || fail "bad value message: $(cat "$err")"
"$ws" config show --set l1d.set=4 >"$out" 2>"$err"; rc=$?
[ "$rc" -eq 2 ] || fail "bad key exited $rc, want 2"
grep -q "did you mean: l1d.sets" "$err" || fail "bad key message: $(cat "$err")"
"$ws" config show gtx999 >"$out" 2>"$err"; rc=$?
[ "$rc" -eq 2 ] || fail "unknown preset exited $rc, want 2"
grep -q "gtx999.*gtx480" "$err" || fail "unknown preset message: $(cat "$err")"
"$ws" config show --set warp_scheduler=gtoo >"$out" 2>"$err"; rc=$?
[ "$rc" -eq 2 ] || fail "unknown scheduler exited $rc, want 2"
grep -q "gtoo.*lrr, gto" "$err" || fail "unknown scheduler message: $(cat "$err")"
"$ws" config show --frob >"$out" 2>"$err"; rc=$?
[ "$rc" -eq 2 ] || fail "bad option exited $rc, want 2"
"$ws" config frob >"$out" 2>"$err"; rc=$?
[ "$rc" -eq 2 ] || fail "bad subcommand exited $rc, want 2"
"$ws" config >"$out" 2>"$err"; rc=$?
[ "$rc" -eq 2 ] || fail "no subcommand exited $rc, want 2"

"$ws" policies >"$out" 2>"$err" || fail "policies exited $?"
for p in lrr gto oldest two-level swl rr icount lrf fair all bar mem-bar; do
  grep -q "^  $p " "$out" || fail "policies does not list $p"
done
"$ws" --list-policies >"$tmp/lp" 2>"$err" || fail "--list-policies exited $?"
cmp -s "$out" "$tmp/lp" || fail "--list-policies differs from policies"
"$ws" timing-bench --help >"$out" 2>"$err" || fail "timing-bench --help exited $?"
grep -q "usage: warpsim timing-bench" "$out" || fail "timing-bench --help prints no usage"
"$ws" timing-bench --size default >"$out" 2>"$err"; rc=$?
[ "$rc" -eq 2 ] || fail "timing-bench --size default exited $rc, want 2"
"$ws" timing-bench --set l1d.ways=0 >"$out" 2>"$err"; rc=$?
[ "$rc" -eq 2 ] || fail "timing-bench bad --set exited $rc, want 2"
[ "$bad" -eq 0 ] && echo "config_list_show: ok"
exit "$bad"
