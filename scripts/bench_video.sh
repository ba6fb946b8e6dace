#!/usr/bin/env bash
# Video encode rate (issue 30): frames per second of `jointlab --video` at 1280x720, end to end
# (each frame: one physics step, the UI and the viewport drawn off screen, read back, and piped
# to ffmpeg or written as PNG), for an MP4, a GIF and a PNG folder; 240 frames of the showcase,
# median of three, drawn without a display (EGL) as a server would.
#
#   scripts/bench_video.sh [JOINTLAB] [OUT.md]
set -euo pipefail
app=${1:-build/app/jointlab}
out=${2:-}
here=$(cd "$(dirname "$0")/.." && pwd)
scene=$here/assets/scenarios/showcase.json
frames=240
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

rate() {  # OUTPUT-SUFFIX -> median frames/s of three videos
  local rates=()
  for i in 1 2 3; do
    rm -rf "$work/v$1"
    local t0 t1
    t0=$(date +%s.%N)
    env -u DISPLAY -u WAYLAND_DISPLAY "$app" --video "$work/v$1" "$scene" --frames "$frames" --size 1280x720 >/dev/null
    t1=$(date +%s.%N)
    rates+=("$(awk -v a="$t0" -v b="$t1" -v n="$frames" 'BEGIN { printf "%.1f", n / (b - a) }')")
  done
  printf '%s\n' "${rates[@]}" | sort -g | sed -n 2p
}
mp4=$(rate .mp4)
gif=$(rate .gif)
png=$(rate /)
header="Video export rate, showcase, $frames frames at 1280x720 through EGL (llvmpipe), median of 3, $(nproc) cores, $(date +%Y-%m-%d), $(git -C "$here" rev-parse --short HEAD 2>/dev/null || echo '?'):"
table="| output | frames/s (render + encode) |
|---|---:|
| MP4 (H.264, ffmpeg) | $mp4 |
| GIF (palettegen + paletteuse, ffmpeg) | $gif |
| PNG frames (folder) | $png |"
printf '%s\n\n%s\n' "$header" "$table"
[[ -n $out ]] && printf '%s\n\n%s\n' "$header" "$table" >"$out"
exit 0
