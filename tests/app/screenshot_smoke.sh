#!/usr/bin/env bash
# Smoke test of the desktop app: render the default scene under a virtual X display and check the
# PNG shows a viewport with grid and bodies plus the UI (see screenshot_check.cpp).
#   screenshot_smoke.sh JOINTLAB CHECKER OUT_DIR
set -euo pipefail
jointlab=$1 checker=$2 out_dir=$3
out="$out_dir/app_screenshot_smoke.png"
mkdir -p "$out_dir"
rm -f "$out"
# -a picks a free display number; 24-bit screen so GLX offers RGB visuals.
xvfb-run -a -s "-screen 0 1600x1000x24" "$jointlab" --screenshot "$out" --frames 5
if [[ ! -s "$out" ]]; then
  echo "screenshot_smoke: $jointlab exited 0 but wrote no image at $out" >&2
  exit 1
fi
"$checker" "$out"
# Issue 28: the smallest supported screen, and the same layout at UI scale 2 on a screen twice as
# large, are whole pictures too.
for size in "1280x720 1" "2560x1440 2"; do
  read -r wh scale <<<"$size"
  shot="$out_dir/app_screenshot_${wh}_scale${scale}.png"
  rm -f "$shot"
  xvfb-run -a -s "-screen 0 2600x1500x24" "$jointlab" --screenshot "$shot" --frames 5 --size "$wh" --scale "$scale"
  "$checker" "$shot"
done
