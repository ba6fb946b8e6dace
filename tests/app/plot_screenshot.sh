#!/usr/bin/env bash
# Screenshot test of the Plots panel: open a scenario whose saved plot set-up plots two rows of a
# joint, render it under a virtual X display, save its first plot as a PNG of its own (the same
# read-back as the plot menu's "Save as PNG") and check that image shows two series by their
# palette colours (plot_check.cpp).
#   plot_screenshot.sh JOINTLAB CHECKER SCENARIO OUT_DIR
set -euo pipefail
jointlab=$1 checker=$2 scenario=$3 out_dir=$4
shot="$out_dir/app_plot_screenshot.png" plot="$out_dir/app_plot_first.png"
mkdir -p "$out_dir"
rm -f "$shot" "$plot"
xvfb-run -a -s "-screen 0 1600x1000x24" "$jointlab" --screenshot "$shot" "$scenario" --frames 90 --plot-png "$plot"
for f in "$shot" "$plot"; do
  if [[ ! -s "$f" ]]; then
    echo "plot_screenshot: $jointlab exited 0 but wrote no image at $f" >&2
    exit 1
  fi
done
"$checker" "$plot" 2
