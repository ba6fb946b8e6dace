#!/usr/bin/env bash
# Runs `jointlab run` on every example scenario under valgrind (memcheck), writing the CSV and the
# final state too, and fails on any error: invalid reads or writes, uses of uninitialised values,
# and definite or indirect leaks.
#
#   scripts/valgrind_examples.sh [JOINTLAB_BINARY] [STEPS]
#
# Defaults: build/app/jointlab, 200 steps. Registered as the ctest `valgrind_examples` (label
# "valgrind") when valgrind is installed. See docs/reliability.md.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
jointlab=${1:-$root/build/app/jointlab}
steps=${2:-200}

if ! command -v valgrind >/dev/null; then
  echo "valgrind_examples: valgrind is not installed (apt-get install valgrind)" >&2
  exit 1
fi
if [[ ! -x $jointlab ]]; then
  echo "valgrind_examples: $jointlab is not built" >&2
  exit 1
fi

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
failed=0
count=0
for scenario in "$root"/assets/scenarios/*.json; do
  count=$((count + 1))
  log=$(mktemp)
  # Exit code 1 is also the runner's "diverged" code: valgrind's errors get their own (99).
  if valgrind --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect \
       --show-leak-kinds=definite,indirect --track-origins=yes -q \
       "$jointlab" run "$scenario" --steps "$steps" --csv "$out/run.csv" --state "$out/state.json" >"$log" 2>&1; then
    echo "ok    $(basename "$scenario")"
  else
    status=$?
    echo "FAIL  $(basename "$scenario") (exit $status)"
    cat "$log"
    failed=$((failed + 1))
  fi
  rm -f "$log"
done
echo "valgrind_examples: $count scenarios, $failed failed"
[[ $failed -eq 0 ]]
