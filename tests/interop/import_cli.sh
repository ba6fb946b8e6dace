#!/usr/bin/env bash
# `jointlab import` end to end: the project's MJCF and URDF arms and slider-crank become scenarios
# that `jointlab run` runs; the warning goes to stderr; bad input exits 64 with one line naming the
# file and writes nothing; the output never replaces the model (the runner's guard).
#   import_cli.sh JOINTLAB SOURCE_DIR
set -uo pipefail
jointlab=$1 src=$2
data=$src/tests/data/interop
source "$(dirname "${BASH_SOURCE[0]}")/../cli_lib.sh"

# The models import, and the scenarios run.
run 0 "a light pinion hinged to it.*\(mirror\)" import "$data/arm.xml" -o "$tmp/arm_mjcf.json"
(( $(wc -l <"$tmp/err") == 1 )) || fail "arm.xml: the warning is not one line"
grep -q "^jointlab import: .*arm.xml -> .*: 6 bodies, 7 joints" "$tmp/out" || fail "arm.xml: summary $(cat "$tmp/out")"
run 0 "effort and velocity limits" import "$data/arm.urdf" -o "$tmp/arm_urdf.json"
grep -q '"relative": true' "$tmp/arm_urdf.json" || fail "arm.urdf: no relative rack for the <mimic>"
run 0 "" import "$data/slider_crank.xml" -o "$tmp/crank.json"
[[ ! -s $tmp/err ]] || fail "slider_crank.xml: a warning where everything maps: $(cat "$tmp/err")"
for f in arm_mjcf arm_urdf crank; do
  run 0 "" run "$tmp/$f.json" --steps 600
  grep -q "^jointlab run: 600 steps" "$tmp/out" || fail "$f: did not run 600 steps"
done

# A malformed model: the parser's message with the file and line, exit 64, nothing written.
printf '<mujoco>\n<worldbody>\n<body><geom type="nosuch"/></body>\n</worldbody></mujoco>\n' >"$tmp/bad.xml"
run 64 "bad\.xml: .*line" import "$tmp/bad.xml" -o "$tmp/bad.json"
[[ ! -e $tmp/bad.json ]] || fail "bad.xml: an output was written"
printf '<robot name="r">\n<link name="a">\n</robot>\n' >"$tmp/bad.urdf"
run 64 "bad\.urdf: not well-formed XML, line 3" import "$tmp/bad.urdf" -o "$tmp/bad.json"
[[ ! -e $tmp/bad.json ]] || fail "bad.urdf: an output was written"
run 64 "not a model JointLab imports" import "$src/README.md" -o "$tmp/bad.json"
[[ ! -e $tmp/bad.json ]] || fail "README.md: an output was written"

# Arguments: missing model or -o, unknown options.
run 64 "missing -o" import "$data/arm.xml"
run 64 "missing the model" import -o "$tmp/x.json"
run 64 "unknown option" import "$data/arm.xml" -o "$tmp/x.json" --frobnicate

# The output is never the model, by any spelling (a symlink, ./, a hard link).
cp "$data/arm.xml" "$tmp/model.xml"
cp "$tmp/model.xml" "$tmp/model.orig"
ln -s model.xml "$tmp/link.xml"
ln "$tmp/model.xml" "$tmp/hard.xml"
for out in "$tmp/model.xml" "$tmp/./model.xml" "$tmp/link.xml" "$tmp/hard.xml"; do
  run 64 "would overwrite the model" import "$tmp/model.xml" -o "$out"
  cmp -s "$tmp/model.xml" "$tmp/model.orig" || fail "-o $out changed the model"
done

# An existing scenario is replaced whole, its previous content kept as .bak (as a save).
echo '{}' >"$tmp/old.json"
run 0 "" import "$data/slider_crank.xml" -o "$tmp/old.json"
grep -q '"bodies"' "$tmp/old.json" || fail "the scenario was not written over old.json"
[[ $(cat "$tmp/old.json.bak") == "{}" ]] || fail "old.json.bak does not hold the previous content"

# The app opens a model file directly (jointlab MODEL.urdf) as an imported scene, and refuses a
# malformed one with the parser's message; on a virtual display when there is one.
if command -v xvfb-run >/dev/null; then
  xvfb-run -a "$jointlab" --screenshot "$tmp/arm.png" "$data/arm.urdf" --frames 3 --size 640x480 \
    >"$tmp/out" 2>"$tmp/err" || fail "the app did not open arm.urdf: $(cat "$tmp/err")"
  [[ -s $tmp/arm.png ]] || fail "no screenshot of the imported arm"
  grep -q "arm.urdf: Not imported or changed: joint effort" "$tmp/err" || fail "the app did not print the warning"
  xvfb-run -a "$jointlab" --screenshot "$tmp/bad.png" "$tmp/bad.urdf" --frames 3 >"$tmp/out" 2>"$tmp/err"
  (( $? == 1 )) || fail "the app accepted bad.urdf"
  grep -q "bad.urdf: not well-formed XML, line 3" "$tmp/err" || fail "the app's message: $(cat "$tmp/err")"
  [[ ! -e $tmp/bad.png ]] || fail "a screenshot of a model that was refused"
fi

if (( failures )); then echo "$failures failure(s)"; exit 1; fi
echo "import_cli: all checks passed"
