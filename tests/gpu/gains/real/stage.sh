#!/bin/bash
# Stage real public CUDA programs as before/after pairs for the gains ground truth.
#
#   bash tests/gpu/gains/real/stage.sh [PAIR...]      (default: every pairs/*.conf)
#
# For each pair (pairs/<pair>.conf) this copies the program's sources from the
# fetched mirror (/work/.mirror/<owner>+<name>/repo, the `fetch` tool's bare git
# dir) into .realprogs/<pair>/before, copies that to after, and applies warplint's
# fix there (`warplint check FILE --fix --rules RULE`), or, for a pair with
# HAND_SED, the one exact hand edit that the finding's note names. It then
# writes the warplint JSON of the before file and the fix's diff, and compiles
# both sides with the pair's nvcc command.
# Nothing here is committed but the scripts: .realprogs/ is ignored
# (.git/info/exclude), so no third-party code enters the repository.
set -u
ROOT=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
HERE=$ROOT/tests/gpu/gains/real
STAGE=$ROOT/.realprogs
WARPLINT=${WARPLINT:-/opt/wl/bin/warplint}
MIRRORS=${MIRRORS:-/work/.mirror}
export PATH=/usr/local/cuda/bin:$PATH
mkdir -p "$STAGE"

# Copy the git tree PATH (a folder) of MIRROR at COMMIT into DEST, source files
# and small data only (docs and large binaries are left out).
copy_tree() {
  local gd=$1 commit=$2 path=$3 dest=$4 f rel
  git --git-dir="$gd" ls-tree -r --name-only "$commit" -- "$path" | while read -r f; do
    rel=${f#"$path"/}
    case "$rel" in
      doc/*|*.pdf|*.doc|*.docx|*.png|*.ppm|*.pgm|*.jpg|*.sln|*.vcxproj*|*.md|CMakeLists.txt|Makefile*|makefile|run|README*) continue ;;
    esac
    mkdir -p "$dest/$(dirname "$rel")"
    git --git-dir="$gd" show "$commit:$f" > "$dest/$rel" 2>/dev/null || rm -f "$dest/$rel"
  done
}

# cuda-samples' shared helper headers (Common/*.h), once per commit.
stage_cs_common() {
  local gd=$1 commit=$2 f
  [ -f "$STAGE/_cs_common/.commit" ] && [ "$(cat "$STAGE/_cs_common/.commit")" = "$commit" ] && return
  rm -rf "$STAGE/_cs_common"; mkdir -p "$STAGE/_cs_common"
  git --git-dir="$gd" ls-tree --name-only "$commit" -- Common/ | grep '\.h$' | while read -r f; do
    git --git-dir="$gd" show "$commit:$f" > "$STAGE/_cs_common/$(basename "$f")"
  done
  echo "$commit" > "$STAGE/_cs_common/.commit"
}

stage_pair() {
  local pair=$1 conf=$HERE/pairs/$1.conf
  local REPO SRC FILE RULES CS_COMMON="" HAND_SED="" HAND_DESC="" BUILD RUN KERNELS COUNT PASS_RE OUT_FILES=""
  # shellcheck disable=SC1090
  source "$conf"
  local gd=$MIRRORS/${REPO/\//+}/repo
  local commit; commit=$(git --git-dir="$gd" rev-parse HEAD)
  local d=$STAGE/$pair
  rm -rf "$d"; mkdir -p "$d/before"
  copy_tree "$gd" "$commit" "$SRC" "$d/before"
  cp "$conf" "$d/pair.conf"
  local -a flags=()
  if [ -n "$CS_COMMON" ]; then
    stage_cs_common "$gd" "$commit"
    flags=(-- "-I$STAGE/_cs_common")
  fi
  # The findings of the before file (all rules), as warplint reports them.
  (cd "$d/before" && "$WARPLINT" check "$FILE" --format json -o "$d/findings.json" --quiet "${flags[@]}" >/dev/null 2>&1)
  cp -r "$d/before" "$d/after"
  local cmd
  if [ -n "$HAND_SED" ]; then
    cmd="sed -i '$HAND_SED' $FILE"
    (cd "$d/after" && sed -i "$HAND_SED" "$FILE")
    echo "$HAND_DESC" > "$d/how.txt"
  else
    cmd="warplint check $FILE --fix --rules $RULES ${flags[*]}"
    cmd=${cmd//$STAGE/.realprogs}
    (cd "$d/after" && "$WARPLINT" check "$FILE" --fix --rules "$RULES" "${flags[@]}" > "$d/fix.log" 2>&1)
    echo "warplint --fix" > "$d/how.txt"
  fi
  echo "$cmd" > "$d/command.txt"
  echo "$commit" > "$d/commit.txt"
  (cd "$d" && diff -ru before after > fix.diff)
  if [ ! -s "$d/fix.diff" ]; then echo "$pair: FIX CHANGED NOTHING"; return 1; fi
  # Both sides must compile here (nvcc, no GPU needed); the SASS of the two
  # builds is compared on the device machine (no cuobjdump here).
  local side ok=1
  for side in before after; do
    if ! (cd "$d/$side" && eval "$BUILD") > "$d/build_$side.log" 2>&1; then
      echo "$pair: $side DOES NOT COMPILE (see $d/build_$side.log)"; ok=0
    fi
  done
  [ $ok = 1 ] || return 1
  # Builds are redone on the device; do not carry binaries.
  rm -f "$d"/before/prog "$d"/after/prog "$d"/before/*.o "$d"/after/*.o
  echo "$pair: staged ($(grep -c '^[-+][^-+]' "$d/fix.diff") changed lines, both compile)"
}

if [ $# -eq 0 ]; then set -- $(cd "$HERE/pairs" && ls *.conf | sed 's/\.conf$//'); fi
for p in "$@"; do stage_pair "$p"; done
