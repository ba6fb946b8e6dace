# Shared by the command-line tests (tests/runner/*.sh, tests/interop/*.sh): source it after setting
# $jointlab. It makes $tmp (removed on exit), counts failures in $failures, and defines
#   fail MESSAGE...
#   run EXPECTED_STATUS REGEX args... : runs jointlab without a display; checks the exit status (a
#       signal is a crash) and that stderr matches REGEX (empty REGEX: no check), and with
#       one_line_messages=1 that the message is one line.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

run() {
  local want=$1 regex=$2
  shift 2
  env -u DISPLAY "$jointlab" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
  local status=$?
  if (( status >= 128 )); then fail "$*: crashed with signal $((status - 128))"; return; fi
  (( status == want )) || fail "$*: exit $status, expected $want ($(cat "$tmp/err"))"
  if [[ -n $regex ]]; then
    grep -Eq -- "$regex" "$tmp/err" || fail "$*: stderr '$(cat "$tmp/err")' does not match /$regex/"
    if [[ ${one_line_messages:-0} == 1 ]]; then
      (( $(wc -l <"$tmp/err") == 1 )) || fail "$*: message is not one line"
    fi
  fi
}
