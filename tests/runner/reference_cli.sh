#!/usr/bin/env bash
# `jointlab export` and `jointlab run --reference mujoco` end to end (issue 31, points 2 and 3):
# the export of a tree example is MJCF MuJoCo loads (checked by running it as the reference), its
# left-out joints are listed; the reference CSV has one line per step and its columns; every bad
# combination is refused with one line and exit 64, nothing written; outputs never clobber inputs.
#   reference_cli.sh JOINTLAB SOURCE_DIR
set -uo pipefail
jointlab=$1 src=$2
source "$(dirname "${BASH_SOURCE[0]}")/../cli_lib.sh"

scenarios=$src/assets/scenarios

# Export: a tree example is written whole; a scene with a distance joint lists it.
run 0 "" export "$scenarios/chain20.json" -o "$tmp/chain.xml"
(( $(grep -c '<body name=' "$tmp/chain.xml") == 20 )) || fail "export: not the chain's 20 bodies"
grep -q "<mujoco" "$tmp/chain.xml" || fail "export: not MJCF: $(head -2 "$tmp/chain.xml")"
run 0 'left out: joint "slider spring" \(distance\): MuJoCo has no such joint' export "$scenarios/showcase.json" -o "$tmp/show.xml"
# Export refusals: usage, the input as output (also through another spelling of its path), an unreadable scene.
run 64 "missing -o MODEL.xml" export "$scenarios/chain20.json"
run 64 "missing SCENARIO.json" export -o "$tmp/x.xml"
run 64 "unknown option" export "$scenarios/chain20.json" -o "$tmp/x.xml" --frobnicate
cp "$scenarios/pendulum.json" "$tmp/p.json"
run 64 "would overwrite the scenario" export "$tmp/p.json" -o "$tmp/./p.json"
cmp -s "$tmp/p.json" "$scenarios/pendulum.json" || fail "export clobbered its input"
echo "{" >"$tmp/broken.json"
run 2 "broken.json" export "$tmp/broken.json" -o "$tmp/x.xml"
[[ -e $tmp/x.xml ]] && fail "a refused export wrote its output"

# A 97-link chain is one body deeper than MuJoCo 2.2.2's XML reader takes: export and reference
# refuse it up front, naming the depth and the limit, and write nothing; 96 links are written.
chain() {  # chain N FILE: N hinged links hanging from the world, each a body deeper
  local n=$1 bodies="" joints="" i
  for ((i = 1; i <= n; i++)); do
    bodies+="${bodies:+,}{\"name\": \"l$i\", \"shape\": \"sphere\", \"radius\": 0.02, \"mass\": 0.1, \"position\": [$((i - 1)).5, 2, 0]}"
    joints+="${joints:+,}{\"type\": \"revolute\", \"name\": \"h$i\", \"body0\": \"$([[ $i == 1 ]] || echo "l$((i - 1))")\", \"body1\": \"l$i\", \"frame0\": {\"position\": [$([[ $i == 1 ]] && echo "0, 2, 0" || echo "0.5, 0, 0")]}, \"frame1\": {\"position\": [-0.5, 0, 0]}}"
  done
  printf '{"format": "jointlab-scenario", "version": 2, "settings": {"groundPlane": false, "bodyCollisions": false}, "bodies": [%s], "joints": [%s]}\n' "$bodies" "$joints" >"$2"
}
chain 97 "$tmp/chain97.json"
chain 96 "$tmp/chain96.json"
run 0 "" export "$tmp/chain96.json" -o "$tmp/chain96.xml"
run 64 'the tree is 97 bodies deep \(body "l97"\).*loads trees up to 96 bodies deep; nothing was written' export "$tmp/chain97.json" -o "$tmp/chain97.xml"
[[ -e $tmp/chain97.xml ]] && fail "a too deep export wrote its model"
run 64 'the tree is 97 bodies deep .*up to 96 bodies deep' run "$tmp/chain97.json" --steps 2 --reference mujoco --reference-csv "$tmp/chain97.csv"
[[ -e $tmp/chain97.csv ]] && fail "a too deep reference wrote its CSV"

# Reference: one line per step, the header names each joint twice; the pendulum at 1 ms stays
# within 0.5% of its 2.09 rad swing for 2 s.
run 0 "" run "$scenarios/pendulum_hinge.json" --dt 0.001 --steps 2000 --reference mujoco --reference-csv "$tmp/ref.csv"
[[ $(head -1 "$tmp/ref.csv") == "step,max_position_divergence_m,hinge_jointlab,hinge_mujoco" ]] \
  || fail "--reference-csv header: $(head -1 "$tmp/ref.csv")"
(( $(wc -l <"$tmp/ref.csv") == 2001 )) || fail "--reference-csv: not one line per step"
awk -F, 'NR > 1 { d = $3 - $4; if (d < 0) d = -d; if (d > m) m = d } END { exit !(m < 0.005 * 2.0944) }' "$tmp/ref.csv" \
  || fail "pendulum: JointLab and MuJoCo angles differ by more than 0.5% of the swing"
grep -q "MuJoCo reference: largest body position difference" "$tmp/out" || fail "no reference summary"
# Refusals: a loop (named), half the flags, a wrong engine, with --input or --from-step or --video.
run 64 '"joint 5" closes a loop' run "$scenarios/bridge.json" --reference mujoco --reference-csv "$tmp/x.csv"
run 64 "--reference needs --reference-csv" run "$scenarios/pendulum.json" --reference mujoco
run 64 "--reference-csv needs --reference" run "$scenarios/pendulum.json" --reference-csv "$tmp/x.csv"
run 64 "--reference: expected mujoco" run "$scenarios/pendulum.json" --reference bullet --reference-csv "$tmp/x.csv"
run 64 "--reference: not together with --input" run "$scenarios/pendulum.json" --reference mujoco --reference-csv "$tmp/x.csv" --from-step 3
run 64 "would overwrite the scenario" run "$tmp/p.json" --reference mujoco --reference-csv "$tmp/p.json"
[[ -e $tmp/x.csv ]] && fail "a refused --reference wrote its CSV"
cmp -s "$tmp/p.json" "$scenarios/pendulum.json" || fail "--reference-csv clobbered its input"

if (( failures )); then echo "$failures failure(s)"; exit 1; fi
echo "reference_cli: all checks passed"
