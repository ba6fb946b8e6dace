#!/usr/bin/env bash
# Checks (default) or applies (--fix) the project's .clang-format to every C++ file in engine/,
# app/, bench/, interop/ and tests/, with clang-format-14 (Debian package clang-format-14, installed by
# scripts/setup.sh). Run by .ci/run before the tests; `make format` applies it.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
tool=clang-format-14
command -v "$tool" >/dev/null || { echo "check_format: $tool not found: run scripts/setup.sh" >&2; exit 1; }
mapfile -t files < <(git ls-files 'engine/*.cpp' 'engine/*.h' 'app/*.cpp' 'app/*.h' 'bench/*.cpp' 'bench/*.h' 'interop/*.cpp' 'interop/*.h' \
                                  'tests/*.cpp' 'tests/*.h')
if [[ ${1:-} == --fix ]]; then
  "$tool" -i "${files[@]}"
  echo "check_format: formatted ${#files[@]} files"
  exit 0
fi
if ! "$tool" --dry-run -Werror "${files[@]}"; then
  echo "check_format: the files above do not follow .clang-format; run \`make format\` to fix them" >&2
  exit 1
fi
echo "check_format: all ${#files[@]} C++ files follow .clang-format"
