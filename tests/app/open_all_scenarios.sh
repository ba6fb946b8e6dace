#!/usr/bin/env bash
# The app opens every example in assets/scenarios/ and renders it (screenshot mode, one virtual
# display for all of them): each run must exit 0, write a PNG and print no error.
#   open_all_scenarios.sh JOINTLAB SCENARIO_DIR OUT_DIR
set -uo pipefail
jointlab=$1 dir=$2 out_dir=$3
mkdir -p "$out_dir"
export jointlab dir out_dir
xvfb-run -a -s "-screen 0 1280x800x24" bash -c '
  failures=0 count=0
  for f in "$dir"/*.json; do
    name=$(basename "$f" .json)
    out="$out_dir/open_$name.png"
    rm -f "$out"
    count=$((count + 1))
    if ! "$jointlab" --screenshot "$out" "$f" --frames 3 --size 960x600 >"$out_dir/open_$name.log" 2>&1; then
      echo "FAIL $name: exit status $?"; cat "$out_dir/open_$name.log"; failures=$((failures + 1)); continue
    fi
    if [[ ! -s $out ]]; then echo "FAIL $name: no image"; failures=$((failures + 1)); continue; fi
    if grep -qiE "error|invalid|cannot" "$out_dir/open_$name.log"; then
      echo "FAIL $name: the app complained"; cat "$out_dir/open_$name.log"; failures=$((failures + 1)); continue
    fi
    echo "ok   $name"
  done
  echo "$count scenarios, $failures failed"
  [[ $count -gt 0 && $failures -eq 0 ]]'
