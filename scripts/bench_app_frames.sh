#!/usr/bin/env bash
# The app's frame benchmark (issue 28): main-thread CPU per frame, phase by phase, for the default
# scene, 1000 bodies and joints, and 200 plotted joints, rendered off screen under a virtual display.
#
#   scripts/bench_app_frames.sh [JOINTLAB] [FRAMES] [OUT.md]
#
# Prints one table (median and 95th percentile per phase, in ms) and writes it to OUT.md when given.
# Needs xvfb-run (Debian package xvfb) when there is no display.
set -euo pipefail
app=${1:-build/app/jointlab}
frames=${2:-300}
out=${3:-}
run=("$app")
[[ -z ${DISPLAY:-} ]] && run=(xvfb-run -a -s "-screen 0 1920x1080x24" "$app")
table="| scene | sim | ui | draw | sim + ui + draw (budget 8 ms) | gl (driver) | total |
|---|---:|---:|---:|---:|---:|---:|"
for scene in default bodies1000 plots200; do
  line=$("${run[@]}" --bench-frames "$frames" --bench-scene "$scene" --size 1600x900 | grep '^bench,')
  IFS=, read -r _ name sim sim95 ui ui95 draw draw95 ours ours95 gl gl95 total total95 <<<"$line"
  table+="
| $name | $sim ($sim95) | $ui ($ui95) | $draw ($draw95) | **$ours** ($ours95) | $gl ($gl95) | $total ($total95) |"
done
header="Main-thread CPU per frame [ms], median (95th percentile) over $frames frames at 1600x900, $(date +%Y-%m-%d), $(git rev-parse --short HEAD 2>/dev/null || echo '?'):"
printf '%s\n\n%s\n' "$header" "$table"
[[ -n $out ]] && printf '%s\n\n%s\n' "$header" "$table" >"$out"
exit 0
