#!/usr/bin/env bash
# Installs what warplint needs (Debian bookworm packages only), then
# configures and builds it in ./build. Safe to run again: it installs only
# what is missing and rebuilds incrementally.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(clang-19 libclang-19-dev llvm-19-dev llvm-19-tools nlohmann-json3-dev libgtest-dev cmake make g++ python3)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "bootstrap: installing ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

build_dir=${WARPLINT_BUILD_DIR:-build}
jobs=${WARPLINT_JOBS:-$(nproc)}
cmake -S . -B "$build_dir" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$build_dir" -j "$jobs"
