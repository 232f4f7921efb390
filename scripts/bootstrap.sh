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

# The SARIF validator one test runs (tests/e2e/test_sarif_validate.sh), from
# npm where npm is present; without it that test is skipped.
if command -v npm >/dev/null 2>&1 && ! command -v sarif-multitool >/dev/null 2>&1; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo npm install -g --silent @microsoft/sarif-multitool@5.7.0 >/dev/null 2>&1 ||
    echo "bootstrap: could not install @microsoft/sarif-multitool; the SARIF validation test will be skipped"
fi

# Neovim, the editor the language server's end-to-end test drives
# (tests/e2e/test_lsp_neovim.sh); optional: without it that test is skipped.
if ! command -v nvim >/dev/null 2>&1; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  { $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq \
      --no-install-recommends neovim >/dev/null; } 2>/dev/null ||
    echo "bootstrap: could not install neovim; the language server's editor test will be skipped"
fi

# Emacs with eglot, the other editor those tests drive
# (tests/e2e/test_lsp_emacs.sh); optional: without it that test is skipped.
# An Emacs already installed (another Debian flavour, or 29+ with eglot
# built in) is kept: emacs-nox would replace it.
emacs_has_eglot() {
  emacs --batch --eval '(progn (package-activate-all) (kill-emacs (if (locate-library "eglot") 0 1)))' \
    >/dev/null 2>&1
}
if ! command -v emacs >/dev/null 2>&1; then
  emacs_packages=(emacs-nox elpa-eglot)
elif ! emacs_has_eglot; then
  emacs_packages=(elpa-eglot)
else
  emacs_packages=()
fi
if ((${#emacs_packages[@]})); then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  { $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq \
      --no-install-recommends "${emacs_packages[@]}" >/dev/null; } 2>/dev/null ||
    echo "bootstrap: could not install ${emacs_packages[*]}; the language server's Emacs test will be skipped"
fi

build_dir=${WARPLINT_BUILD_DIR:-build}
jobs=${WARPLINT_JOBS:-$(nproc)}
cmake -S . -B "$build_dir" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$build_dir" -j "$jobs"
