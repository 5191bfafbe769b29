#!/usr/bin/env bash
# run_bench.sh -- one benchmark-suite test: build a bundled benchmark with
# nvcc and run it on the simulator at --size tiny through `warpsim bench run`
# (which uses the `warpsim exec` machinery), then check its verdict.
# Exits 77 (CTest SKIP_RETURN_CODE) when nvcc or the shim libraries are absent.
# Run by ctest:
#   bash run_bench.sh WARPSIM NVCC BINDIR MODE PRELOAD NAME...
# MODE pass:    each NAME must exit 0 with a "PASS NAME" line, the statistics
#               JSON must be written and every manifest kernel must have run.
# MODE corrupt: with WARPSIM_BENCH_CORRUPT=1 (one output element flipped
#               before verification) each NAME must exit 1 with "FAIL NAME".
# MODE dram:    on the timing model with the full memory system, once under
#               each warp scheduler (lrr, gto, oldest, two-level, swl) and each
#               other DRAM scheduler (fcfs, frfair, reminst): each NAME must exit
#               0 with a "PASS NAME" line, and its statistics must equal the
#               committed snapshot tests/bench/snapshots/NAME.json (made by the
#               simulator before the policy-platform refactoring; snapshot.py).
#               WS_SNAPSHOT_WRITE=1 writes the snapshot instead of checking.
#               MODE dram-sample (the sanitizer build): by the program's
#               name, either lrr and gto (and haws, below), or one of
#               them and one of the other six settings.
#               Then once under warp_scheduler=haws: PASS, and haws_check.py
#               (program order kept, exit registers as gto's where they do
#               not depend on warp order).
# MODE insns:   thread instructions as GPGPU-Sim counts them: insn_count.py
#               compares each NAME's gpu_sim_insn (gtx480, gto) with
#               GPGPU-Sim's counts of the same program (gpgpusim_insns.json).
# PRELOAD: library put in LD_PRELOAD (the ASan runtime in a sanitizer build:
# nvcc's output is not instrumented); "" for none.
ws="$1"; nvcc="$2"; bindir="$3"; mode="$4"; preload="$5"; shift 5
sample=0
if [ "$mode" = dram-sample ]; then mode=dram; sample=1; fi
if [ "$nvcc" = "NO_SHIMS" ]; then
  echo "SKIP: the CUDA shims were not built (CUDA headers or libzstd missing)"; exit 77
fi
if [ -z "$nvcc" ] || [ ! -x "$nvcc" ]; then
  echo "SKIP: nvcc (CUDA 13) not found: the benchmark programs cannot be built"; exit 77
fi
mkdir -p "$bindir" || exit 1
# warpsim bench finds nvcc on PATH first
export PATH="$(dirname "$nvcc"):$PATH"
if [ "$mode" = insns ]; then
  WS_PRELOAD="$preload" python3 "$(dirname "$0")/insn_count.py" "$ws" "$bindir" \
    "$(dirname "$0")/gpgpusim_insns.json" "$@"
  exit $?
fi
bad=0
for name in "$@"; do
  out="$bindir/$name.$mode.out"; err="$bindir/$name.$mode.err"; json="$bindir/$name.$mode.json"
  rm -f "$json"
  if [ "$mode" = dram ]; then
    snap="$(dirname "$0")/snapshots/$name.json"
    [ "${WS_SNAPSHOT_WRITE:-0}" = 1 ] && rm -f "$snap"
    settings="warp_scheduler=lrr warp_scheduler=gto"
    others=(warp_scheduler=oldest warp_scheduler=two-level warp_scheduler=swl
            dram_scheduler=fcfs dram_scheduler=frfair dram_scheduler=reminst)
    haws=1
    if [ "$sample" = 1 ]; then
      # the sanitizer build, by the program's name: half the programs run
      # lrr, gto and haws (haws_check needs all three), the other half
      # lrr or gto and one of the other six settings, so every setting
      # still meets the sanitizers on part of the suite
      sum=$(printf '%s' "$name" | cksum | cut -d' ' -f1)
      if [ $(( sum / 6 % 2 )) = 1 ]; then
        base=(warp_scheduler=lrr warp_scheduler=gto)
        settings="${base[$(( sum / 12 % 2 ))]} ${others[$(( sum % ${#others[@]} ))]}"
        haws=0
      fi
    else
      settings="$settings ${others[*]}"
    fi
    for setting in $settings; do
      # one host thread: with ctest's two jobs on two CPUs, threaded runs
      # wait for each other's threads (nw went from 19 to 41 s with two of
      # its nine settings at threads 2 and 4); cli_threads_identity checks
      # the thread counts
      LD_PRELOAD="$preload" "$ws" bench run "$name" --size tiny --bin-dir "$bindir" --quiet \
        --timing --set memory_model=full --set "$setting" --timing-report "$json" \
        --stats-json "$bindir/$name.${setting#*=}.stats.json" >"$out" 2>"$err"
      rc=$?
      if [ "$rc" -ne 0 ] || ! grep -Eq "^PASS $name size=tiny " "$out"; then
        echo "FAIL: $name under $setting: exit status $rc"
        echo "--- stdout"; cat "$out"; echo "--- stderr"; tail -n 40 "$err"
        exit 1
      fi
      if [ "${WS_SNAPSHOT_WRITE:-0}" = 1 ]; then
        python3 "$(dirname "$0")/snapshot.py" add "$snap" "$setting" "$json" || exit 1
      elif ! python3 "$(dirname "$0")/snapshot.py" check "$snap" "$setting" "$json"; then
        echo "FAIL: $name under $setting: statistics differ from $snap"
        exit 1
      fi
      echo "$name ($setting): ok, statistics as in the snapshot"
    done
    [ "$haws" = 1 ] || continue
    # HAWS (specs/haws.md §9 items 1-3): the same program results, order kept
    LD_PRELOAD="$preload" "$ws" bench run "$name" --size tiny --bin-dir "$bindir" --quiet \
      --timing --set memory_model=full --set warp_scheduler=haws --timing-report "$json" \
      --stats-json "$bindir/$name.haws.stats.json" >"$out" 2>"$err"
    rc=$?
    if [ "$rc" -ne 0 ] || ! grep -Eq "^PASS $name size=tiny " "$out"; then
      echo "FAIL: $name under warp_scheduler=haws: exit status $rc"
      echo "--- stdout"; cat "$out"; echo "--- stderr"; tail -n 40 "$err"
      exit 1
    fi
    python3 "$(dirname "$0")/haws_check.py" "$name" "$bindir/$name.lrr.stats.json" \
      "$bindir/$name.gto.stats.json" "$bindir/$name.haws.stats.json" "$json" || exit 1
    continue
  fi
  if [ "$mode" = corrupt ]; then
    WARPSIM_BENCH_CORRUPT=1 LD_PRELOAD="$preload" "$ws" bench run "$name" --size tiny \
      --bin-dir "$bindir" --quiet >"$out" 2>"$err"
    rc=$?
    want_rc=1; want_line="^FAIL $name size=tiny "
  else
    LD_PRELOAD="$preload" "$ws" bench run "$name" --size tiny --bin-dir "$bindir" \
      --stats-json "$json" >"$out" 2>"$err"
    rc=$?
    want_rc=0; want_line="^PASS $name size=tiny "
  fi
  fail() { echo "FAIL: $name ($mode): $*"; bad=1; }
  [ "$rc" -eq "$want_rc" ] || fail "exit status $rc, want $want_rc"
  grep -Eq "$want_line" "$out" || fail "no line matching /$want_line/ on stdout"
  if [ "$mode" = pass ]; then
    grep -q "^warpsim bench: $name (size tiny): PASS, exit status 0" "$out" \
      || fail "no summary line"
    grep -q '"warp_insns_max": [1-9]' "$json" 2>/dev/null || fail "no statistics JSON"
    if grep -q "not launched\|not in the manifest" "$err"; then
      fail "kernels differ from the manifest"
    fi
  fi
  if [ "$bad" -ne 0 ]; then
    echo "--- stdout"; cat "$out"; echo "--- stderr"; tail -n 40 "$err"
    exit 1
  fi
  echo "$name ($mode): ok"
done
exit 0
