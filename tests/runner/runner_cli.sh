#!/usr/bin/env bash
# The headless runner end to end: `jointlab run` on every example, byte-identical reruns, and every
# failure path (exit 64 for arguments, 2 for files) with a one-line message naming the flag or file
# and no output file touched.
#   runner_cli.sh JOINTLAB SOURCE_DIR
set -uo pipefail
jointlab=$1 src=$2
one_line_messages=1
source "$(dirname "${BASH_SOURCE[0]}")/../cli_lib.sh"

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
[[ $(head -1 "$tmp/a.csv") == "step,time,joint,joint_type,row,row_label,impulse,geometric_error,velocity_error,clamped,active,force,torque,force_fraction,torque_fraction,broken,projections,kinetic_energy,potential_energy,max_error,rms_error,active_rows,step_ms,residuals" ]] \
  || fail "CSV header: $(head -1 "$tmp/a.csv")"
grep -q '^600,10.000000000000076,joint 3,revolute,0,' "$tmp/a.csv" || fail "CSV has no line for step 600"
# The runner does not time its steps (step_ms 0), so the bytes above can be the same; every line
# has the step's residuals, one per sweep.
awk -F, 'NR > 1 && ($23 != "0" || $24 == "") { bad = 1 } END { exit bad }' "$tmp/a.csv" \
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
# --point-solve (issue 25): rows solves the pendulum's point constraint row by row, which moves the
# result away from block's (the file's default); tree runs; a bad value is refused naming the flag.
run 0 "" run "$pendulum" --steps 60 --point-solve block --state "$tmp/pb.json"
run 0 "" run "$pendulum" --steps 60 --point-solve rows --state "$tmp/pr.json"
run 0 "" run "$pendulum" --steps 60 --state "$tmp/pd.json"
cmp -s "$tmp/pb.json" "$tmp/pd.json" || fail "--point-solve block should be the pendulum's default"
cmp -s "$tmp/pb.json" "$tmp/pr.json" && fail "--point-solve rows should change the pendulum's run"
run 0 "" run "$pendulum" --steps 60 --point-solve tree --state "$tmp/pt.json"
run 64 "--point-solve: expected block, rows or tree" run "$pendulum" --point-solve jacobi
# --correction (issue 25): relax is the file's; under TGS baumgarte changes the run, under PGS
# (which solves relax as baumgarte) nothing; a bad value is refused naming the flag.
run 0 "" run "$pendulum" --steps 60 --solver tgs --state "$tmp/cd.json"
run 0 "" run "$pendulum" --steps 60 --solver tgs --correction relax --state "$tmp/cr.json"
run 0 "" run "$pendulum" --steps 60 --solver tgs --correction baumgarte --state "$tmp/cb.json"
cmp -s "$tmp/cd.json" "$tmp/cr.json" || fail "--correction relax should be the pendulum's default"
cmp -s "$tmp/cr.json" "$tmp/cb.json" && fail "--correction baumgarte should change the TGS run"
run 0 "" run "$pendulum" --steps 60 --solver tgs --correction soft --state "$tmp/cs.json"
cmp -s "$tmp/cr.json" "$tmp/cs.json" && fail "--correction soft should change the TGS run"
run 0 "" run "$pendulum" --steps 60 --correction baumgarte --state "$tmp/pgs_cb.json"
cmp -s "$tmp/pd.json" "$tmp/pgs_cb.json" || fail "PGS should solve --correction baumgarte as relax"
run 64 "--correction: expected baumgarte, relax, splitImpulse, soft, ngs or rattle" run "$pendulum" --correction bogus
# The row trace (--trace): runs the reference kernel; the λ after a row's last visit in a step is
# the impulse --csv reports for that row and step, to the last digit (both print the shortest
# round-trip form of the same double).
for solver in pgs tgs; do
  run 0 "" run "$scenarios/showcase.json" --steps 20 --solver "$solver" --trace "$tmp/trace.csv" --csv "$tmp/tcsv.csv"
  grep -q "(reference kernel)" "$tmp/out" || fail "--trace did not run the reference kernel"
  head -1 "$tmp/trace.csv" | grep -qx "step,phase,sweep,joint,row,C,jv,K,bias,lambda_before,lambda_after,clamped,block" \
    || fail "--trace header: $(head -1 "$tmp/trace.csv")"
  awk -F, 'NR == FNR { if (FNR > 1 && $4 != "ground contact") last[$1 "," $4 "," $5] = $11; next }
           FNR > 1 { n++; k = $1 "," $3 "," $5; if (!(k in last) || last[k] != $7) { bad++; if (bad < 4) print "differs: " k " trace " last[k] " csv " $7 } }
           END { if (n < 100 || bad) { print n " csv rows, " bad " differ"; exit 1 } }' \
    "$tmp/trace.csv" "$tmp/tcsv.csv" >"$tmp/cmp" || fail "--trace $solver: last λ differs from the CSV's impulse: $(cat "$tmp/cmp")"
done
run 64 "would overwrite the scenario" run "$pendulum" --steps 2 --trace "$pendulum"
run 64 "" run "$pendulum" --steps 2 --trace "$tmp/same.csv" --csv "$tmp/./same.csv"
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
run 64 "^jointlab run: --csv .*/log.json would overwrite the --input log .*/log.json \(the same file\); nothing was written$" run "$pendulum" --csv "$tmp/log.json" --input "$tmp/log.json"
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
run 64 "--csv .*pendulum.json would overwrite the scenario .*pendulum.json \(the same file\)" run "$pendulum" --csv "$pendulum"
run 2 "no/such/file\.json: No such file" run no/such/file.json "${outs[@]}"
printf '{"format": "jointlab-scenario", "version": 1, "bodies": [{"name": "a", "mass": -2}]}' >"$tmp/bad.json"
run 2 "bad\.json: bodies\[0\]\.mass: must be >= 1e-6, got -2" run "$tmp/bad.json" "${outs[@]}"
run 2 "no/such/dir/x\.csv" run "$pendulum" --csv "$tmp/no/such/dir/x.csv" --state "$tmp/keep.json"
[[ $(cat "$tmp/keep.csv") == keep && $(cat "$tmp/keep.json") == keep ]] || fail "a failed run touched an output file"
ls "$tmp"/*.tmp >/dev/null 2>&1 && fail "temporary files left behind: $(ls "$tmp"/*.tmp)"


# Outputs never replace inputs or each other (issue 24): compared as files, not as strings. Each
# refusal exits 64 before anything is written, naming both paths; the inputs keep their bytes.
mkdir -p "$tmp/id/a" "$tmp/id/links"
cp "$pendulum" "$tmp/id/scene.json"
ln "$tmp/id/scene.json" "$tmp/id/hard.json"
ln -s "$tmp/id/scene.json" "$tmp/id/soft.json"
ln -s ../scene.json "$tmp/id/links/rel.json"
printf '{"format": "jointlab-input", "version": 1}' >"$tmp/id/log.input.json"
same='would overwrite the scenario .*scene.json \(the same file\); nothing was written$'
(
  cd "$tmp/id" || exit 1
  run 64 "--csv \./scene\.json $same" run scene.json --csv ./scene.json
  run 64 "--state a/\.\./scene\.json $same" run scene.json --state a/../scene.json
  run 64 "--csv hard\.json $same" run scene.json --csv hard.json
  run 64 "--state soft\.json $same" run scene.json --state soft.json
  run 64 "--csv links/rel\.json $same" run ./a/../scene.json --csv links/rel.json
  run 64 "--csv soft\.json would overwrite the scenario hard\.json \(the same file\)" run hard.json --csv soft.json
  run 64 "--state \./log\.input\.json would overwrite the --input log log\.input\.json \(the same file\)" \
      run scene.json --input log.input.json --state ./log.input.json
  run 64 "--state a/\.\./out\.csv and --csv out\.csv name one output file \(the same file\)" \
      run scene.json --csv out.csv --state a/../out.csv
  # Two new names that differ only in case would be one file on a case-insensitive mount.
  run 64 "--state OUT\.csv and --csv out\.csv name one output file \(names that differ only in case" \
      run scene.json --csv out.csv --state OUT.csv
  ln -s out.csv to_out.csv
  run 64 "--state to_out\.csv and --csv out\.csv name one output file" run scene.json --csv out.csv --state to_out.csv
  rm to_out.csv
  cmp -s scene.json "$pendulum" || fail "a refused run changed the scenario"
  [[ -e out.csv || -e OUT.csv ]] && fail "a refused run wrote an output"
  # An input called like an output's temporary is not touched (the temporary's name is unique).
  cp "$pendulum" out.csv.tmp
  run 0 "" run out.csv.tmp --steps 5 --csv out.csv
  cmp -s out.csv.tmp "$pendulum" || fail "the run overwrote out.csv.tmp, its own input"
  rm out.csv.tmp
  # An output that is a symlink: the link is kept and the file it points to replaced.
  echo old >target.csv
  ln -s target.csv link.csv
  run 0 "" run scene.json --steps 5 --csv link.csv
  [[ -L link.csv ]] || fail "writing through a symlink replaced the link"
  grep -q '^step,' target.csv || fail "writing through a symlink did not replace its target"
  ls ./*.tmp >/dev/null 2>&1 && fail "temporary files left behind: $(ls ./*.tmp)"
  exit "$failures"
) || failures=$((failures + $?))

# Bounded runs: no run past step 10^12, refused before anything is written.
run 64 "^jointlab run: --steps: must be <= 1000000000000, got 1000000000001$" run "$pendulum" --steps 1000000000001
sed 's/"step": 45,/"step": 999999999998,/' "$src/tests/data/fuzz_corpus/state_pendulum.json" >"$tmp/late.json"
run 64 "^jointlab run: --steps: 5 steps from step 999999999998 \(the file's saved state\) would pass step 1000000000000" \
    run "$tmp/late.json" --steps 5 --state "$tmp/late_out.json"
[[ -e $tmp/late_out.json ]] && fail "a refused long run wrote its state"
run 0 "" run "$tmp/late.json" --steps 2 --state "$tmp/late_out.json"
grep -q '"step": 1000000000000' "$tmp/late_out.json" || fail "a run up to the last step did not reach it"
printf '{"format": "jointlab-input", "version": 1, "startStep": 0, "endStep": 9223372036854775807, "events": []}' \
  >"$tmp/forever.input.json"
run 2 "forever\.input\.json: endStep: must be <= 1000000000000 \(the longest run JointLab takes\), got 9223372036854775807" \
    run "$pendulum" --input "$tmp/forever.input.json"

# No inf or nan in any CSV column, even with break thresholds of 5e-324 (the fractions overflow).
run 0 "" run "$src/tests/data/fuzz_corpus/reliability_tiny_break_threshold.json" --steps 20 --csv "$tmp/tiny.csv"
grep -Eq '(^|,)-?(inf|nan)(,|$)' "$tmp/tiny.csv" && fail "the CSV holds inf or nan: $(grep -Em1 '(^|,)-?(inf|nan)(,|$)' "$tmp/tiny.csv")"

run 0 "" run --help
grep -q "usage: jointlab run" "$tmp/out" || fail "--help prints no usage"
grep -q "1 the simulation diverged" "$tmp/out" || fail "--help does not explain exit code 1"

# Every accepted scene simulates honestly (issue 24, point 5). The 1e-300 kg bob that used to
# overflow and diverge is refused at load, naming the field.
honest=$src/tests/data/honest
run 2 'feather_pendulum\.json: bodies\[0\]\.mass: must be >= 1e-6, got 1e-300' run "$honest/feather_pendulum.json" --steps 60
# A joint whose mass scales make both sides immovable: its rows are dropped. A warning names the
# joint once, the summary counts the dropped rows; --strict makes it exit 4.
run 0 '^jointlab run: warning: step 1: joint "pivot" row 0 \(.*\) dropped: its unit response' \
    run "$honest/immovable_joint.json" --steps 30
grep -q "^jointlab run: dropped rows: 90 row-steps in 1 joint(s) (pivot)" "$tmp/out" ||
  fail "immovable joint: the summary does not count the dropped rows: $(cat "$tmp/out")"
run 4 "" run "$honest/immovable_joint.json" --steps 30 --strict
grep -q -- "--strict: the engine dropped rows" "$tmp/err" || fail "--strict: no message: $(cat "$tmp/err")"
run 0 "" run "$pendulum" --steps 30 --strict

# History (issue 26, point 5): 600 steps straight, or 300 with --history and then 300 more from
# step 300 of it, give the same state to the byte; a branch from the past; refusals.
chain=$scenarios/chain20.json
run 0 "" run "$chain" --steps 600 --state "$tmp/straight.json"
run 0 "" run "$chain" --steps 300 --history "$tmp/half.json"
[[ -f $tmp/half.json && -f $tmp/half.history.json ]] || fail "--history wrote no scenario or no side file"
run 0 "" run "$tmp/half.json" --from-step 300 --steps 300 --state "$tmp/resumed.json"
cmp -s "$tmp/straight.json" "$tmp/resumed.json" || fail "--from-step 300 --steps 300 does not give the 600-step state"
run 0 "" run "$tmp/half.json" --from-step 120 --steps 480 --state "$tmp/resumed120.json"
cmp -s "$tmp/straight.json" "$tmp/resumed120.json" || fail "--from-step 120 does not give the 600-step state"
# Overrides at a step of the history: another future, and the history keeps both.
run 0 "" run "$tmp/half.json" --from-step 150 --steps 100 --solver tgs --history "$tmp/branched.json" --state "$tmp/tgs.json"
cmp -s "$tmp/tgs.json" "$tmp/straight.json" && fail "--from-step with --solver tgs changed nothing"
grep -q '"parent": 0' "$tmp/branched.history.json" || fail "the overrides at step 150 did not start a branch"
run 64 "^jointlab run: --from-step: 400 is outside the history of .*half\.json, which holds steps 0 to 300" \
    run "$tmp/half.json" --from-step 400
run 2 "pendulum\.history\.json" run "$pendulum" --from-step 10
cp "$tmp/half.json" "$tmp/edited.json"
cp "$tmp/half.history.json" "$tmp/edited.history.json"
sed -i 's/"dt": 0.008333333333333333/"dt": 0.01/' "$tmp/edited.json"
run 2 "edited\.history\.json: scenarioHash: the history belongs to another scenario" \
    run "$tmp/edited.json" --from-step 10
run 64 "would overwrite" run "$tmp/half.json" --from-step 10 --history "$tmp/half.json"
run 64 "--from-step and --input cannot be combined" run "$chain" --from-step 1 --input "$tmp/x.input.json"

# A/B compare (issue 26, points 4-5): B with nothing changed never differs by a bit; PGS against
# TGS drifts apart; bad paths and values are refused naming the entry.
run 0 "" run "$chain" --steps 120 --compare settings.solver=pgs --compare-csv "$tmp/same.csv"
[[ $(head -1 "$tmp/same.csv") == "step,max_position_divergence_m,energy_a_J,energy_b_J" ]] || fail "--compare-csv header: $(head -1 "$tmp/same.csv")"
(( $(wc -l <"$tmp/same.csv") == 121 )) || fail "--compare-csv: not one line per step"
awk -F, 'NR > 1 && ($2 != 0 || $3 != $4) { bad = 1 } END { exit bad }' "$tmp/same.csv" \
  || fail "--compare with the same settings differs: $(awk -F, 'NR > 1 && $2 != 0' "$tmp/same.csv" | head -1)"
run 0 "" run "$chain" --steps 120 --compare settings.solver=tgs,settings.posIters=8 --compare-csv "$tmp/ab.csv"
awk -F, 'NR > 1 && $2 > 1e-6 { found = 1 } END { exit !found }' "$tmp/ab.csv" || fail "PGS against TGS never drifted apart"
run 0 "" run "$tmp/half.json" --from-step 200 --steps 50 --compare settings.solver=tgs --compare-csv "$tmp/from.csv"
(( $(wc -l <"$tmp/from.csv") == 51 )) && head -2 "$tmp/from.csv" | grep -q "^201," || fail "--compare from step 200: $(head -2 "$tmp/from.csv")"
run 64 "--compare: settings.posIter: " run "$chain" --compare settings.posIter=8 --compare-csv "$tmp/x.csv"
run 64 "--compare: settings.posIters: .*300" run "$chain" --compare settings.posIters=300 --compare-csv "$tmp/x.csv"
run 64 "--compare needs --compare-csv" run "$chain" --compare settings.solver=tgs
[[ -e $tmp/x.csv ]] && fail "a refused --compare wrote its CSV"

if (( failures )); then echo "$failures failure(s)"; exit 1; fi
echo "runner_cli: all checks passed"
