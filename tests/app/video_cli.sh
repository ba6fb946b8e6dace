#!/usr/bin/env bash
# Issue 30, points 4 and 5: screenshots and videos without a display (EGL), and what a video holds.
#   video_cli.sh JOINTLAB CHECKER SOURCE_DIR CASE
# Cases:
#   formats     an MP4, a GIF and a PNG folder, drawn without a display: ffprobe counts the
#               requested range / stride in frames, the PNG frames have the requested size; the
#               runner's `jointlab run --steps 120 --video` gives 120 frames
#   guard       --video naming the scenario or another output: exit 64, nothing written; a folder
#               that holds files is refused
#   no-ffmpeg   no ffmpeg on the PATH (or JOINTLAB_FFMPEG naming nothing): exit 69 saying how to
#               install it; a PNG folder still works
#   egl-vs-xvfb the same screenshot drawn through EGL (no display) and under Xvfb: the same picture
# (Neither a display nor EGL: tests/app/cli_errors.sh no-display.)
set -uo pipefail
jointlab=$1 checker=$2 src=$3 case=$4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
scene=$src/assets/scenarios/pendulum.json

# run EXPECTED_STATUS REGEX args... (no display: the app draws through EGL)
run() {
  local want=$1 regex=$2
  shift 2
  env -u DISPLAY -u WAYLAND_DISPLAY "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
  local status=$?
  cat "$tmp/out" "$tmp/err"
  if (( status >= 128 )); then fail "$*: crashed with signal $((status - 128))"; return; fi
  (( status == want )) || fail "$*: exit $status, expected $want"
  if [[ -n $regex ]]; then
    grep -Eq -- "$regex" "$tmp/err" || fail "$*: stderr does not match /$regex/"
  fi
}

frames_of() {  # the number of video frames ffprobe decodes
  ffprobe -v error -count_frames -select_streams v:0 -show_entries stream=nb_read_frames -of csv=p=0 "$1"
}
size_of() {  # WIDTHxHEIGHT of an image or video
  ffprobe -v error -select_streams v:0 -show_entries stream=width,height -of csv=s=x:p=0 "$1"
}

case $case in
  formats)
    # 120 steps at the default stride: 120 frames (the issue's "Done when").
    run 0 "" "$jointlab" run "$scene" --steps 120 --video "$tmp/run.mp4" --size 320x240
    [[ $(frames_of "$tmp/run.mp4") == 120 ]] || fail "run --steps 120: $(frames_of "$tmp/run.mp4") frames, expected 120"
    [[ $(size_of "$tmp/run.mp4") == 320x240 ]] || fail "run.mp4 is $(size_of "$tmp/run.mp4"), expected 320x240"
    # The runner's overrides reach the video's run: --dt 0.05 makes real time 20 frames/s.
    run 0 "" "$jointlab" run "$scene" --steps 6 --dt 0.05 --video "$tmp/dt.mp4" --size 128x96
    rate=$(ffprobe -v error -select_streams v:0 -show_entries stream=r_frame_rate -of csv=p=0 "$tmp/dt.mp4")
    [[ $rate == 20/1 ]] || fail "run --dt 0.05 --video: $rate fps, expected 20/1 (real time)"
    # Steps 10 to 40 every 3rd: frames after steps 13, 16, ..., 40 = (40 - 10) / 3 = 10.
    run 0 "" "$jointlab" --video "$tmp/range.mp4" "$scene" --frames 40 --video-range 10:40 --video-stride 3 --size 256x192 --fps 12
    [[ $(frames_of "$tmp/range.mp4") == 10 ]] || fail "range.mp4: $(frames_of "$tmp/range.mp4") frames, expected 10"
    rate=$(ffprobe -v error -select_streams v:0 -show_entries stream=r_frame_rate -of csv=p=0 "$tmp/range.mp4")
    [[ $rate == 12/1 ]] || fail "range.mp4 runs at $rate fps, expected 12/1"
    # A GIF: 0 to 25 every 2nd = 12 frames (25 / 2 rounded down), with the plots.
    run 0 "" "$jointlab" --video "$tmp/clip.gif" "$scene" --frames 25 --video-stride 2 --size 300x300 --video-plots
    [[ $(frames_of "$tmp/clip.gif") == 12 ]] || fail "clip.gif: $(frames_of "$tmp/clip.gif") frames, expected 12"
    # A folder of PNG frames: 7 frames of 200x150, named frame_000001.png ...
    run 0 "" "$jointlab" --video "$tmp/frames/" "$scene" --frames 7 --size 200x150
    count=$(find "$tmp/frames" -name 'frame_*.png' | wc -l)
    (( count == 7 )) || fail "frames/: $count PNG frames, expected 7"
    (( $(find "$tmp/frames" -type f | wc -l) == 7 )) || fail "frames/ holds other files: $(ls "$tmp/frames")"
    for f in "$tmp"/frames/frame_00000{1,7}.png; do
      [[ $(size_of "$f") == 200x150 ]] || fail "$f is $(size_of "$f"), expected 200x150"
    done
    # Frames differ from one another: the pendulum moves.
    cmp -s "$tmp/frames/frame_000001.png" "$tmp/frames/frame_000007.png" && fail "the first and last frames are identical"
    # The same run gives the same frames.
    run 0 "" "$jointlab" --video "$tmp/again/" "$scene" --frames 7 --size 200x150
    cmp -s "$tmp/frames/frame_000007.png" "$tmp/again/frame_000007.png" || fail "two identical runs gave different frames"
    ;;
  guard)
    cp "$scene" "$tmp/scene.json"
    before=$(md5sum <"$tmp/scene.json")
    # --video scene.json: not a video name at all; scene.json/: a file, not a folder.
    run 64 "--video: expected OUT\.mp4" "$jointlab" run "$tmp/scene.json" --steps 10 --video "$tmp/scene.json"
    run 64 "--video: expected OUT\.mp4" "$jointlab" --video "$tmp/scene.json" "$tmp/scene.json"
    run 64 "is a file, not a folder" "$jointlab" --video "$tmp/scene.json/" "$tmp/scene.json"
    # A scenario that has a video's name is still the scenario, whatever the spelling.
    cp "$scene" "$tmp/clip.mp4"
    run 64 "--video .*clip\.mp4 would overwrite the scenario" "$jointlab" --video "$tmp/./clip.mp4" "$tmp/clip.mp4" --frames 3
    run 64 "would overwrite the scenario" "$jointlab" run "$tmp/clip.mp4" --steps 3 --video "$tmp/../${tmp##*/}/clip.mp4"
    cmp -s "$scene" "$tmp/clip.mp4" || fail "the scenario clip.mp4 was changed"
    ln -s "$tmp/scene.json" "$tmp/link.mp4"
    run 64 "would overwrite the scenario" "$jointlab" --video "$tmp/link.mp4" "$tmp/scene.json" --frames 3
    run 64 "would overwrite the scenario" "$jointlab" run "$tmp/scene.json" --steps 3 --video "$tmp/link.mp4"
    [[ $(md5sum <"$tmp/scene.json") == "$before" ]] || fail "the scenario was changed"
    # The video against the runner's other outputs.
    run 64 "--video .*out\.mp4.*--csv|--csv .*out\.mp4.*--video" "$jointlab" run "$tmp/scene.json" --steps 3 --csv "$tmp/out.mp4" --video "$tmp/out.mp4"
    [[ -e $tmp/out.mp4 ]] && fail "out.mp4 was written despite the clash"
    run 64 "--video: not together with --screenshot" "$jointlab" --video "$tmp/a.mp4" --screenshot "$tmp/a.png"
    mkdir "$tmp/full" && touch "$tmp/full/keep.txt"
    run 64 "holds files already" "$jointlab" --video "$tmp/full/" "$tmp/scene.json" --frames 3
    run 64 "--video-range: ends at step 50 but the run has 20" "$jointlab" --video "$tmp/b.mp4" "$tmp/scene.json" --frames 20 --video-range 0:50
    run 64 "--fps" "$jointlab" --video "$tmp/b.mp4" --fps 0
    run 64 "--video-stride" "$jointlab" run "$tmp/scene.json" --video "$tmp/b.mp4" --video-stride 0
    run 64 "only used together with --video" "$jointlab" run "$tmp/scene.json" --fps 30
    ;;
  no-ffmpeg)
    run 69 "ffmpeg was not found.*apt-get install ffmpeg" env PATH=/nonexistent "$jointlab" --video "$tmp/a.mp4" "$scene" --frames 3
    run 69 "JOINTLAB_FFMPEG names.*apt-get install ffmpeg" env JOINTLAB_FFMPEG=/nonexistent/ffmpeg "$jointlab" run "$scene" --steps 3 --video "$tmp/a.gif"
    [[ -e $tmp/a.mp4 || -e $tmp/a.gif ]] && fail "a video file was left behind"
    run 0 "" env PATH=/nonexistent "$jointlab" --video "$tmp/frames/" "$scene" --frames 3 --size 128x96
    (( $(find "$tmp/frames" -name 'frame_*.png' | wc -l) == 3 )) || fail "no PNG frames without ffmpeg"
    ;;
  egl-vs-xvfb)
    run 0 "" "$jointlab" --screenshot "$tmp/egl.png" --frames 5 --size 1000x640 "$scene"
    xvfb-run -a -s "-screen 0 1280x1024x24" "$jointlab" --screenshot "$tmp/xvfb.png" --frames 5 --size 1000x640 "$scene" ||
      fail "the Xvfb screenshot failed"
    "$checker" "$tmp/egl.png" || fail "the EGL screenshot does not show the app"
    # The bottom 30 rows hold the status bar, whose CPU milliseconds differ from run to run.
    "$checker" --compare "$tmp/egl.png" "$tmp/xvfb.png" 30 || fail "EGL and Xvfb screenshots differ"
    ;;
  *) echo "video_cli.sh: unknown case '$case'"; exit 2 ;;
esac
(( failures == 0 )) && echo "video_cli $case: ok"
exit $(( failures > 0 ))
