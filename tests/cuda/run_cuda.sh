#!/usr/bin/env bash
# run_cuda.sh -- one CUDA-program test of `warpsim exec`: build SRC with nvcc
# (-cudart shared plus the variant's flags), run it on the simulator with
# --stats-json, then check the exit status, stdout, stderr and the JSON.
# Exits 77 (CTest SKIP_RETURN_CODE) when nvcc or the shim libraries are absent.
# Run by ctest:
#   bash run_cuda.sh WARPSIM NVCC SRC OUTDIR "NVCC FLAGS" RC STDOUT_RE STDERR_RE KERNELS \
#        [PRELOAD] [FILES_RE]
# KERNELS: space-separated mangled names that must appear in the JSON ("" = none
# checked); PRELOAD: library put in LD_PRELOAD for the program (the ASan runtime
# in a sanitizer build: nvcc's output is not instrumented); FILES_RE: every match
# of this extended regex in stderr (at least one) must name an existing file (a
# PTX file a message cites).  FLAGS naming -cudart replace `-cudart shared`; RC
# 127 (warpsim exec refused to start the program) expects no report.
ws="$1"; nvcc="$2"; src="$3"; out="$4"; flags="$5"; want_rc="$6"
want_out="$7"; want_err="$8"; kernels="$9"; preload="${10}"; files_re="${11}"
name="$(basename "$src" .cu)"
if [ -z "$nvcc" ] || [ ! -x "$nvcc" ]; then
  echo "SKIP: nvcc (CUDA 13) not found: CUDA programs cannot be built"; exit 77
fi
if [ "$nvcc" = "NO_SHIMS" ]; then
  echo "SKIP: the CUDA shims were not built (CUDA headers or libzstd missing)"; exit 77
fi
mkdir -p "$out" || exit 1
bin="$out/$name"
cudart="-cudart shared"
[[ "$flags" == *-cudart* ]] && cudart=""
# shellcheck disable=SC2086  # the flags are a word list on purpose
"$nvcc" $cudart $flags -o "$bin" "$src" >"$out/$name.build.log" 2>&1 \
  || { echo "FAIL: nvcc $flags $src:"; cat "$out/$name.build.log"; exit 1; }
if [[ "$flags" == *NV_LEGACY_LAUNCH* ]] && command -v nm >/dev/null; then
  nm -D "$bin" | grep -q " cudaLaunchKernel@" \
    || { echo "FAIL: the legacy build does not call cudaLaunchKernel"; exit 1; }
fi
json="$out/$name.json"; rm -f "$json"
# PTX files the shim writes for messages go to the test's folder, not /tmp
rm -rf "$out/tmp-$name"; mkdir -p "$out/tmp-$name"
TMPDIR="$out/tmp-$name" LD_PRELOAD="$preload" "$ws" exec --stats-json "$json" -- "$bin" >"$out/$name.out" 2>"$out/$name.err"
rc=$?
bad=0
fail() { echo "FAIL: $*"; bad=1; }
[ "$rc" -eq "$want_rc" ] || fail "exit status $rc, want $want_rc"
[ -z "$want_out" ] || grep -Eq "$want_out" "$out/$name.out" || fail "stdout does not match /$want_out/"
[ -z "$want_err" ] || grep -Eq "$want_err" "$out/$name.err" || fail "stderr does not match /$want_err/"
[ "$want_rc" -eq 127 ] || grep -q "^warpsim: total: " "$out/$name.err" \
  || fail "no statistics report on stderr"
if [ -n "$files_re" ]; then
  cited="$(grep -oE "$files_re" "$out/$name.err" | sort -u)"
  [ -n "$cited" ] || fail "stderr cites no file matching /$files_re/"
  for f in $cited; do [ -f "$f" ] || fail "stderr cites '$f', which does not exist"; done
fi
if [ -n "$kernels" ]; then
  [ -s "$json" ] || fail "no JSON statistics written"
  for k in $kernels; do
    grep -Eq "\"name\": \"$k\", (\"demangled\": \"[^\"]*\", )?\"launches\": [1-9][0-9]*, \"ctas\": [1-9][0-9]*, \"warps\": [1-9][0-9]*, \"warp_insns\": [1-9][0-9]*, \"thread_insns\": [1-9]" "$json" \
      || fail "JSON has no counts for kernel $k"
  done
  grep -q "\"api\": \"cudart\"" "$json" || fail "JSON does not name the cudart API"
fi
if [ "$bad" -ne 0 ]; then
  echo "--- stdout"; cat "$out/$name.out"; echo "--- stderr"; cat "$out/$name.err"
  [ -s "$json" ] && { echo "--- json"; cat "$json"; }
fi
[ "$bad" -eq 0 ] && echo "$name ($flags): ok"
exit "$bad"
