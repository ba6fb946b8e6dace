#!/usr/bin/env bash
# Installs the Debian (bookworm) packages JointLab needs, but only those that are missing.
# Says what it installs; needs root or sudo only when something is missing. Used by `make run`
# and `make test`; safe to run again (it does nothing when all packages are present).
set -euo pipefail

packages=(
  # build
  build-essential cmake pkg-config
  # formatting check of .ci/run (scripts/check_format.sh)
  clang-format-14
  # app and engine
  libglfw3-dev libimgui-dev libglm-dev python3-glad nlohmann-json3-dev libstb-dev
  fonts-dejavu-core  # UI font; the app falls back to Dear ImGui's built-in font without it
  # tests, including the app's screenshot test on a virtual display
  libgtest-dev googletest xvfb xauth libgl1-mesa-dri
  # benchmark peers and fuzzing (bench/, tests/fuzz)
  libbullet-dev libode-dev clang-14 libclang-rt-14-dev
  # reliability: every example under valgrind (scripts/valgrind_examples.sh, docs/reliability.md)
  valgrind
  # driving the app's window under Xvfb (mouse and keys) to measure its CPU use idle and running,
  # and to take the interactive screenshots of docs/user-guide.md
  xdotool
  # screenshots and videos without a display: EGL on Mesa's surfaceless platform (render/egl_context.cpp)
  libegl-dev libegl-mesa0
  # videos (--video OUT.mp4|OUT.gif, File > Export video): frames piped to the ffmpeg program
  ffmpeg
  # import and reference (interop/): MJCF compiled by MuJoCo, URDF parsed by urdfdom; the sample
  # models the import tests read (tests/interop)
  libmujoco-dev liburdfdom-dev libtinyxml-dev libmujoco-samples
  # sweeps on many cores or hosts: the GNU parallel recipe of docs/sweeps.md (tested by sweep_parallel)
  parallel
)

missing=()
for p in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${db:Status-Abbrev}' "$p" 2>/dev/null || true)
  [[ $status == ii* ]] || missing+=("$p")
done

if (( ${#missing[@]} == 0 )); then
  echo "setup: all ${#packages[@]} required Debian packages are installed"
  exit 0
fi

echo "setup: installing ${#missing[@]} missing Debian package(s): ${missing[*]}"
if (( $(id -u) == 0 )); then
  as_root=()
elif command -v sudo >/dev/null 2>&1; then
  as_root=(sudo)
else
  echo "setup: installing packages needs root: run as root, or install sudo, or install them yourself:" >&2
  echo "  apt-get install ${missing[*]}" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
"${as_root[@]}" apt-get update
"${as_root[@]}" apt-get install -y --no-install-recommends "${missing[@]}"
echo "setup: done"
