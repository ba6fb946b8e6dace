#!/usr/bin/env bash
# The joint drawing is in the image: render SCENARIO with joint JOINT selected (--select), and again
# with the joint drawing off (--hide-joints); the app prints where the joint's anchor is, and the
# checker finds the frame axes and the limit drawn around it only in the first image.
#   screenshot_joint.sh JOINTLAB CHECKER OUT_DIR SCENARIO JOINT
set -euo pipefail
jointlab=$1 checker=$2 out_dir=$3 scenario=$4 joint=$5
mkdir -p "$out_dir"
name=$(basename "$scenario" .json)
shot="$out_dir/joint_$name.png" plain="$out_dir/joint_${name}_plain.png"
rm -f "$shot" "$plain"
run() {  # run OUT.png [extra flags]: prints the app's stdout
  local out=$1
  shift
  xvfb-run -a -s "-screen 0 1600x1000x24" "$jointlab" --screenshot "$out" "$scenario" --frames 5 --select "$joint" "$@"
}
log=$(run "$shot")
echo "$log"
run "$plain" --hide-joints
read -r x y < <(sed -n "s/^jointlab: joint '$joint' anchor at pixel \([0-9-]*\) \([0-9-]*\)$/\1 \2/p" <<<"$log")
if [[ -z ${x:-} ]]; then
  echo "screenshot_joint: the app did not report the anchor of joint '$joint'" >&2
  exit 1
fi
"$checker" --joint "$shot" "$plain" "$x" "$y"
