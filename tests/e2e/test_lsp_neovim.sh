#!/usr/bin/env bash
# `warplint lsp` with a real client: Neovim, headless, opens a kernel that
# only compiles with its compile database's flags (found in build/ above the
# file, as clangd finds it; an nvcc command line), gets the diagnostics,
# applies the quickfix code actions, writes the file, and shuts the server
# down (exit 0). The written file must equal what `warplint check --fix`
# makes of the same kernel. Skipped without nvim (scripts/bootstrap.sh
# installs Debian's neovim).
. "$(dirname "$0")/lib.sh"
set -e
command -v nvim >/dev/null 2>&1 || skip "nvim is not installed (apt-get install neovim)"

PROJ="$WORK/proj"
mkdir -p "$PROJ/src" "$PROJ/build"
cat >"$PROJ/src/tile.cu" <<'CU'
// Written for this test: a transpose through a shared tile read by columns.
#ifndef FROM_DATABASE
#error "parsed without the compile database's -DFROM_DATABASE"
#endif
__global__ void transposeTile(float *out, const float *in, int n) {
  __shared__ float tile[32][32];
  int x = blockIdx.x * 32 + threadIdx.x;
  int y = blockIdx.y * 32 + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = in[y * n + x];
  __syncthreads();
  out[y * n + x] = tile[threadIdx.x][threadIdx.y];
}
CU
cat >"$PROJ/build/compile_commands.json" <<JSON
[{"directory": "$PROJ/build",
  "command": "/usr/local/cuda/bin/nvcc -DFROM_DATABASE -arch=sm_90 --expt-relaxed-constexpr -Xcompiler -fPIC -x cu -c $PROJ/src/tile.cu -o tile.o",
  "file": "$PROJ/src/tile.cu"}]
JSON
cp "$PROJ/src/tile.cu" "$WORK/original.cu"

STEP="check --fix (the expected result)"
run_warplint check --no-cuda-toolkit -p "$PROJ/build" "$PROJ/src/tile.cu" --fix --quiet
[ "$RC" -eq 0 ] || [ "$RC" -eq 1 ] || fail "warplint exit $RC"
grep -q 'tile\[32\]\[33\]' "$PROJ/src/tile.cu" || fail "--fix did not pad the tile"
cp "$PROJ/src/tile.cu" "$WORK/expected.cu"
cp "$WORK/original.cu" "$PROJ/src/tile.cu"

STEP="neovim"
echo "+ nvim --headless (tests/e2e/lsp_neovim.lua)"
set +e
WARPLINT="$WARPLINT" LSP_FILE="$PROJ/src/tile.cu" LSP_ROOT="$PROJ" HOME="$WORK" XDG_STATE_HOME="$WORK/state" \
  XDG_CACHE_HOME="$WORK/cache" timeout 280 nvim --headless --clean -n -c "luafile $E2E_DIR/lsp_neovim.lua" >"$OUT" 2>&1
RC=$?
set -e
cat "$OUT"
[ "$RC" -eq 0 ] || fail "the Neovim session failed (exit $RC)"
grep -q "server exited 0" "$OUT" || fail "the session did not finish"

STEP="the edited file"
diff -u "$WORK/expected.cu" "$PROJ/src/tile.cu" || fail "the code actions' result differs from check --fix's"
echo "PASS"
