#!/usr/bin/env bash
# Autosave and crash recovery end to end: the app autosaves a running scene to its recovery folder
# (never over the user's file), a live session's autosave is not offered to another start, and
# after the session is killed (a crash) the next start offers it in the recovery prompt, which the
# screenshot shows. The autosave is an ordinary scenario that `jointlab run` continues, and a
# clean exit (SIGTERM) deletes the session's autosave.
#   recovery_crash.sh JOINTLAB CHECKER SCENARIO OUT_DIR
set -uo pipefail
jointlab=$1 checker=$2 scenario=$3 out_dir=$4
tmp=$(mktemp -d)
live_pid=""
cleanup() { [[ -n $live_pid ]] && kill -9 "$live_pid" 2>/dev/null; rm -rf "$tmp"; }
trap cleanup EXIT
fail() { echo "recovery_crash: FAIL: $*" >&2; exit 1; }
mkdir -p "$out_dir"
doc="$tmp/my scene.json"
cp "$scenario" "$doc"
rec="$tmp/recovery"

# A session on the document, autosaving every 0.5 s of wall clock (the default is 120 s).
xvfb-run -a -s "-screen 0 1280x800x24" "$jointlab" "$doc" --recovery-dir "$rec" --autosave 0.5 \
  --size 1280x800 >"$tmp/live.out" 2>&1 &
wrapper=$!
for _ in $(seq 1 120); do
  compgen -G "$rec/*.json" >/dev/null && break
  kill -0 "$wrapper" 2>/dev/null || fail "the app exited: $(cat "$tmp/live.out")"
  sleep 0.25
done
autosave=$(compgen -G "$rec/*.json" | head -1)
[[ -n $autosave ]] || fail "no autosave in $rec after 30 s"
[[ $(basename "$autosave") == my_scene-*.json ]] || fail "recovery file name $(basename "$autosave") does not name the document"
cmp -s "$scenario" "$doc" || fail "the user's file was changed by the autosave"
[[ ! -e "$doc.bak" ]] || fail "the autosave made a backup of the user's file"
live_pid=${autosave##*-}
live_pid=${live_pid%.json}
kill -0 "$live_pid" 2>/dev/null || fail "recovery file names pid $live_pid, which is not running"

# While that session runs, another start does not offer its autosave.
xvfb-run -a -s "-screen 0 1280x800x24" "$jointlab" --screenshot "$tmp/while_live.png" --recovery-dir "$rec" \
  --frames 2 >"$tmp/while_live.out" 2>&1 || fail "screenshot while live: $(cat "$tmp/while_live.out")"
grep -q "jointlab: 0 autosave(s) to recover" "$tmp/while_live.out" || fail "a live session's autosave was offered: $(cat "$tmp/while_live.out")"

# The crash.
kill -9 "$live_pid"
wait "$wrapper" 2>/dev/null
live_pid=""
[[ -s $autosave ]] || fail "the autosave is gone after the crash"

# The next start offers it, and the picture shows the prompt (look at it: OUT_DIR/recovery_prompt.png).
shot="$out_dir/recovery_prompt.png"
rm -f "$shot"
xvfb-run -a -s "-screen 0 1280x800x24" "$jointlab" --screenshot "$shot" --recovery-dir "$rec" --frames 4 \
  >"$tmp/after.out" 2>&1 || fail "screenshot after the crash: $(cat "$tmp/after.out")"
grep -q "jointlab: 1 autosave(s) to recover" "$tmp/after.out" || fail "the crash's autosave was not offered: $(cat "$tmp/after.out")"
grep -q "of $doc at step [1-9]" "$tmp/after.out" || fail "the offer does not name the document and a run state: $(cat "$tmp/after.out")"
[[ -s $shot ]] || fail "no screenshot at $shot"
# The prompt covers the viewport's centre, so the full image check runs on the start that had
# nothing to recover.
"$checker" "$tmp/while_live.png" >/dev/null || fail "the screenshot does not look like the app"

# The autosave is a scenario that continues the run.
"$jointlab" run "$autosave" --steps 10 >"$tmp/run.out" 2>&1 || fail "jointlab run on the autosave: $(cat "$tmp/run.out")"
cmp -s "$scenario" "$doc" || fail "the user's file changed"
# A clean exit removes the session's autosave: a new session autosaves its run, and SIGTERM (like
# closing the window, the scene has no unsaved edits) ends it normally.
rm -f "$autosave" "$autosave.bak"
xvfb-run -a -s "-screen 0 1280x800x24" "$jointlab" "$doc" --recovery-dir "$rec" --autosave 0.5 \
  --size 1280x800 >"$tmp/clean.out" 2>&1 &
wrapper=$!
for _ in $(seq 1 120); do
  compgen -G "$rec/my_scene-*.json" >/dev/null && break
  sleep 0.25
done
second=$(compgen -G "$rec/my_scene-*.json" | head -1)
[[ -n $second ]] || fail "the second session wrote no autosave"
live_pid=${second##*-}
live_pid=${live_pid%.json}
kill -TERM "$live_pid"
for _ in $(seq 1 80); do
  kill -0 "$live_pid" 2>/dev/null || break
  sleep 0.25
done
kill -0 "$live_pid" 2>/dev/null && fail "SIGTERM did not end the session"
live_pid=""
wait "$wrapper" 2>/dev/null
[[ ! -e $second ]] || fail "a clean exit left its autosave $second behind"
cmp -s "$scenario" "$doc" || fail "the user's file changed"
echo "recovery_crash: ok ($(basename "$autosave"))"
