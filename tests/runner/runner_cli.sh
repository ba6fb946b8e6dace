#!/usr/bin/env bash
# The headless runner end to end: `jointlab run` on every example, byte-identical reruns, and every
# failure path (exit 64 for arguments, 2 for files) with a one-line message naming the flag or file
# and no output file touched.
#   runner_cli.sh JOINTLAB SOURCE_DIR
set -uo pipefail
jointlab=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# run EXPECTED_STATUS REGEX args... : status and one-line stderr matching REGEX (empty REGEX: no check)
run() {
  local want=$1 regex=$2
  shift 2
  env -u DISPLAY "$jointlab" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
  local status=$?
  if (( status >= 128 )); then fail "$*: crashed with signal $((status - 128))"; return; fi
  (( status == want )) || fail "$*: exit $status, expected $want ($(cat "$tmp/err"))"
  if [[ -n $regex ]]; then
    grep -Eq -- "$regex" "$tmp/err" || fail "$*: stderr '$(cat "$tmp/err")' does not match /$regex/"
    (( $(wc -l <"$tmp/err") == 1 )) || fail "$*: message is not one line"
  fi
}

scenarios=$src/assets/scenarios
pendulum=$scenarios/pendulum.json

# Every example runs headless.
for f in "$scenarios"/*.json; do
  run 0 "" run "$f" --steps 120
  grep -q "^jointlab run: 120 steps" "$tmp/out" || fail "$f: no summary line"
done

# Same inputs, same bytes; both --flag value and --flag=value spellings.
run 0 "" run "$scenarios/bridge.json" --csv "$tmp/a.csv" --state "$tmp/a.json"
run 0 "" run "$scenarios/bridge.json" --csv="$tmp/b.csv" --state="$tmp/b.json"
cmp -s "$tmp/a.csv" "$tmp/b.csv" || fail "CSV differs between identical runs"
cmp -s "$tmp/a.json" "$tmp/b.json" || fail "state differs between identical runs"
[[ $(head -1 "$tmp/a.csv") == "step,time,joint,joint_type,row,row_label,impulse,geometric_error,velocity_error,clamped,active,force,torque,force_fraction,torque_fraction,broken,kinetic_energy,potential_energy,max_error,rms_error,active_rows,step_ms,residuals" ]] \
  || fail "CSV header: $(head -1 "$tmp/a.csv")"
grep -q '^600,10.000000000000076,joint 0,revolute,0,' "$tmp/a.csv" || fail "CSV has no line for step 600"
# The runner does not time its steps (step_ms 0), so the bytes above can be the same; every line
# has the step's residuals, one per sweep.
awk -F, 'NR > 1 && ($22 != "0" || $23 == "") { bad = 1 } END { exit bad }' "$tmp/a.csv" \
  || fail "CSV: step_ms is not 0 or residuals are empty"
grep -q '"crate": {' "$tmp/a.json" || fail "state has no body \"crate\""
grep -q '"broken": true' "$tmp/a.json" || fail "state shows no broken joint on the bridge"

# Overrides change the run.
run 0 "" run "$pendulum" --steps 30 --solver tgs --pos-iters 8 --vel-iters 2 --baumgarte 0.5 --dt 0.01 --state "$tmp/o.json"
grep -q '"time": 0.3' "$tmp/o.json" || fail "--dt 0.01 x 30 steps should end at t = 0.3 ($(grep time "$tmp/o.json"))"
grep -q "solver tgs" "$tmp/out" || fail "--solver tgs not applied"
# Both kernels run every example (issue 23): the same rows in the same order, so the final states
# agree to rounding. --kernel and --row-order are settings like any other: the summary names the
# kernel, and a bad value is refused naming the flag.
for f in "$scenarios"/*.json; do
  for k in reference fast; do
    run 0 "" run "$f" --steps 60 --kernel "$k" --state "$tmp/k_$k.json"
    grep -q "($k kernel)" "$tmp/out" || fail "--kernel $k not applied to $(basename "$f")"
  done
done
run 0 "" run "$pendulum" --steps 60 --kernel reference --row-order sequential --state "$tmp/ks.json"
run 64 "--kernel: expected reference or fast" run "$pendulum" --kernel avx
run 64 "--row-order: expected coloured, wavefront or sequential" run "$pendulum" --row-order random
# Two solver threads: the same bytes run after run. The bridge's 12 joints are too few for two
# parts of 32 (docs/solvers.md section 7), so it runs as on one thread: the same bytes again.
run 0 "" run "$scenarios/bridge.json" --threads 2 --state "$tmp/t2a.json"
run 0 "" run "$scenarios/bridge.json" --threads=2 --state "$tmp/t2b.json"
cmp -s "$tmp/t2a.json" "$tmp/t2b.json" || fail "--threads 2: state differs between identical runs"
cmp -s "$tmp/t2a.json" "$tmp/a.json" || fail "--threads 2 on 12 joints should run as one thread does"
run 0 "" run "$pendulum" --steps 0 --state "$tmp/zero.json"
grep -q '"step": 0' "$tmp/zero.json" || fail "--steps 0 should write the initial state"

# Failures: exit status, message, and outputs left alone.
echo keep >"$tmp/keep.csv"
echo keep >"$tmp/keep.json"
outs=(--csv "$tmp/keep.csv" --state "$tmp/keep.json")
run 64 "missing SCENARIO"            run "${outs[@]}"
run 64 "^jointlab run: --steps: missing value" run "$pendulum" "${outs[@]}" --steps
run 64 "^jointlab run: --input: missing value" run "$pendulum" "${outs[@]}" --input
run 64 "^jointlab run: --csv: would overwrite the --input log" run "$pendulum" --csv "$tmp/log.json" --input "$tmp/log.json"
run 2 "pendulum.json: format: expected \"jointlab-input\".*this is a scenario file, not an input log" \
      run "$pendulum" "${outs[@]}" --input "$pendulum"
run 2 "no-such.input.json: No such file" run "$pendulum" "${outs[@]}" --input "$tmp/no-such.input.json"
run 64 "^jointlab run: --steps: must be >= 0, got -5" run "$pendulum" "${outs[@]}" --steps -5
run 64 "^jointlab run: --steps: expected an integer, got \"ten\"" run "$pendulum" "${outs[@]}" --steps ten
run 64 "^jointlab run: --dt: expected a finite number, got \"nan\"" run "$pendulum" "${outs[@]}" --dt nan
run 64 "^jointlab run: --dt: must be <= 0.1, got 5" run "$pendulum" "${outs[@]}" --dt 5
run 64 "^jointlab run: --pos-iters: must be >= 1, got 0" run "$pendulum" "${outs[@]}" --pos-iters 0
run 64 "^jointlab run: --threads: must be <= 16, got 17" run "$pendulum" "${outs[@]}" --threads 17
run 64 "^jointlab run: --threads: must be >= 1, got 0" run "$pendulum" "${outs[@]}" --threads 0
run 64 "^jointlab run: --baumgarte: must be <= 1, got 1.5" run "$pendulum" "${outs[@]}" --baumgarte 1.5
run 64 "^jointlab run: --solver: expected pgs or tgs" run "$pendulum" "${outs[@]}" --solver sor
run 64 "unknown option \"--stpes\"" run "$pendulum" "${outs[@]}" --stpes 3
run 64 "--csv: would overwrite the scenario file" run "$pendulum" --csv "$pendulum"
run 2 "no/such/file\.json: No such file" run no/such/file.json "${outs[@]}"
printf '{"format": "jointlab-scenario", "version": 1, "bodies": [{"name": "a", "mass": -2}]}' >"$tmp/bad.json"
run 2 "bad\.json: bodies\[0\]\.mass: must be > 0, got -2" run "$tmp/bad.json" "${outs[@]}"
run 2 "no/such/dir/x\.csv" run "$pendulum" --csv "$tmp/no/such/dir/x.csv" --state "$tmp/keep.json"
[[ $(cat "$tmp/keep.csv") == keep && $(cat "$tmp/keep.json") == keep ]] || fail "a failed run touched an output file"
ls "$tmp"/*.tmp >/dev/null 2>&1 && fail "temporary files left behind: $(ls "$tmp"/*.tmp)"

run 0 "" run --help
grep -q "usage: jointlab run" "$tmp/out" || fail "--help prints no usage"
grep -q "1 the simulation diverged" "$tmp/out" || fail "--help does not explain exit code 1"

# A step that diverges: a 1e-300 kg bob takes a recorded 1e15 N push at step 30 (loader-valid
# input; dt*F/m overflows). Exit 1, one line naming the joint and the step, the run stopped at the
# last good step, and the outputs written with that state (finite).
diverging=$src/tests/data/diverging/feather_pendulum
for solver in pgs tgs; do
  run 1 '^jointlab run: stopped: joint "pivot" diverged at step 31 \(body "bob" became non-finite\); every body was put back to its state before that step$' \
      run "$diverging.json" --input "$diverging.input.json" --solver "$solver" --csv "$tmp/div.csv" --state "$tmp/div.json"
  grep -q "^jointlab run: 30 steps," "$tmp/out" || fail "diverging run ($solver): summary should say 30 steps: $(cat "$tmp/out")"
  grep -q '"step": 30' "$tmp/div.json" || fail "diverging run ($solver): state is not the last good step 30"
  grep -Eqi 'nan|inf' "$tmp/div.json" && fail "diverging run ($solver): the state written holds NaN/Inf"
  [[ $(tail -1 "$tmp/div.csv" | cut -d, -f1) == 30 ]] || fail "diverging run ($solver): CSV should end at step 30: $(tail -1 "$tmp/div.csv")"
done
# Without the push the same scene runs through.
run 0 "" run "$diverging.json" --steps 60

if (( failures )); then echo "$failures failure(s)"; exit 1; fi
echo "runner_cli: all checks passed"
