#!/usr/bin/env bash
# run_mem.sh -- device-memory semantics through `warpsim exec`: a stencil
# reading its halo at -1 and n runs (functional and --timing) with one
# warning per site at exit and faults with the precise message under
# --memcheck; mem_errors.cu: limits, cudaMemGetInfo, double free, use after
# free with and without --memcheck.  Exits 77 without nvcc or the shims.
# Run by ctest: bash run_mem.sh WARPSIM NVCC SRCDIR OUTDIR [PRELOAD]
ws="$1"; nvcc="$2"; src="$3"; out="$4"; preload="$5"
if [ -z "$nvcc" ] || [ ! -x "$nvcc" ]; then
  echo "SKIP: nvcc (CUDA 13) not found: CUDA programs cannot be built"; exit 77
fi
if [ "$nvcc" = "NO_SHIMS" ]; then
  echo "SKIP: the CUDA shims were not built (CUDA headers or libzstd missing)"; exit 77
fi
mkdir -p "$out/tmp" || exit 1
# the PTX a faulting kernel keeps for its messages ($TMPDIR/warpsim-PID)
# stays in the test's folder, not in /tmp
export TMPDIR="$out/tmp"
for p in stencil_halo mem_errors; do
  "$nvcc" -cudart shared -o "$out/$p" "$src/$p.cu" >"$out/$p.build.log" 2>&1 \
    || { echo "FAIL: nvcc $p.cu:"; cat "$out/$p.build.log"; exit 1; }
done
bad=0
fail() { echo "FAIL: $*"; bad=1; }
run() {  # run NAME PROGRAM EXEC-OPTIONS...: sets rc, $o, $e
  local name="$1" prog="$2"; shift 2
  o="$out/$name.out"; e="$out/$name.err"
  LD_PRELOAD="$preload" "$ws" exec --quiet "$@" -- "$out/$prog" >"$o" 2>"$e"; rc=$?
}
show() { echo "--- stdout"; cat "$o"; echo "--- stderr"; cat "$e"; }

for mode in functional timing; do
  opt=(); [ "$mode" = timing ] && opt=(--timing)
  run "halo_$mode" stencil_halo "${opt[@]}"
  ok=1
  [ "$rc" -eq 0 ] || { fail "$mode: stencil exited $rc"; ok=0; }
  grep -q "stencil_halo: PASS" "$o" || { fail "$mode: stencil did not pass"; ok=0; }
  [ "$(grep -c "warning: kernel '[^']*stencil" "$e")" -eq 2 ] \
    || { fail "$mode: want two warnings, one per halo load"; ok=0; }
  grep -Eq "warning: kernel '[^']*stencil[^']*'( \(PTX: [^)]*\))? CTA \(0,0,0\) thread \(0,0,0\) at .* line [0-9]+: out-of-bounds global load of 4 bytes at address 0x[0-9a-f]+: 0x[0-9a-f]+ is 4 bytes before the 2048-byte allocation at 0x[0-9a-f]+; 3 accesses" "$e" \
    || { fail "$mode: no warning for in[-1] (kernel, thread, line, address, count)"; ok=0; }
  grep -Eq "CTA \(3,0,0\) thread \(127,0,0\) at .* line [0-9]+: out-of-bounds global load of 4 bytes .* 0 bytes past the end of the 2048-byte allocation .*; 3 accesses" "$e" \
    || { fail "$mode: no warning for in[n]"; ok=0; }
  f=$(grep -o "at /[^ ]*[.]ptx line" "$e" | head -1 | sed 's/^at //; s/ line$//')
  [ -n "$f" ] && [ -f "$f" ] || { fail "$mode: the warning cites a PTX file that does not exist: '$f'"; ok=0; }
  [ "$ok" -eq 1 ] || show
done

before=$bad; bad=0
run halo_memcheck stencil_halo --memcheck
[ "$rc" -eq 1 ] || fail "memcheck: stencil exited $rc, want 1"
grep -q "FAIL: .*cudaErrorIllegalAddress" "$o" || fail "memcheck: the program was not told"
grep -Eq "kernel '[^']*stencil[^']*'( \(PTX: [^)]*\))? CTA \(0,0,0\) thread \(0,0,0\) at .* line [0-9]+: out-of-bounds global load of 4 bytes at address 0x[0-9a-f]+: 0x[0-9a-f]+ is 4 bytes before the 2048-byte allocation" "$e" \
  || fail "memcheck: no precise fault message"
grep -q "warning: kernel" "$e" && fail "memcheck: warnings instead of a fault"
[ "$bad" -eq 0 ] || show

before=$((before | bad)); bad=0
run mem_default mem_errors
[ "$rc" -eq 0 ] || fail "mem_errors exited $rc"
grep -q "malloc beyond the device: cudaErrorMemoryAllocation" "$o" || fail "no allocation failure"
grep -q "double free: cudaErrorInvalidValue" "$o" || fail "double free not refused"
grep -q "cudaFree: ws_free: double free" "$e" || fail "double free not named"
grep -q "use after free: cudaSuccess" "$o" || fail "default: a write into a mapped page faulted"
grep -q "warning: kernel '[^']*poke.*use after free: global store of 4 bytes" "$e" \
  || fail "default: the use after free is not warned"
[ "$bad" -eq 0 ] || show

before=$((before | bad)); bad=0
run mem_memcheck mem_errors --memcheck
grep -q "double free: cudaErrorInvalidValue" "$o" || fail "memcheck: double free not refused"
grep -q "use after free: cudaErrorIllegalAddress" "$o" || fail "memcheck: use after free ran"
grep -q "use after free: global store of 4 bytes at address 0x[0-9a-f]*: 0x[0-9a-f]* is 0 bytes inside the freed 1048576-byte allocation" "$e" \
  || fail "memcheck: use after free not named"
[ "$bad" -eq 0 ] || show
bad=$((before | bad))
[ "$bad" -eq 0 ] && echo "run_mem: ok"
exit "$bad"
