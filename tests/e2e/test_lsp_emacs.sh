#!/usr/bin/env bash
# `warplint lsp` with a real client: Emacs in batch mode with eglot, set up by
# the elisp block of docs/editors.md as it stands (tests/e2e/lsp_emacs.el
# evaluates it). The kernel only compiles with the flags of the
# compile_commands.json next to it (an nvcc command line). Emacs opens it,
# eglot starts `warplint lsp` from PATH, the bank conflict must reach Flymake
# at the marked line, `eglot-code-actions` applies the padding quickfix, the
# re-analysis drops the warning, the buffer is saved, and the server exits 0
# after shutdown and exit. The saved file must equal what `warplint check
# --fix` makes of the kernel. Skipped without emacs or eglot
# (scripts/bootstrap.sh installs Debian's emacs-nox and elpa-eglot).
. "$(dirname "$0")/lib.sh"
set -e
command -v emacs >/dev/null 2>&1 || skip "emacs is not installed (apt-get install emacs-nox elpa-eglot)"
DOCS="$E2E_DIR/../../docs/editors.md"
[ -f "$DOCS" ] || fail "no $DOCS"

PROJ="$WORK/proj"
mkdir -p "$PROJ/kernels"
SRC="$PROJ/kernels/rowsums.cu"
cat >"$SRC" <<'CU'
// Written for this test: each thread of a TILE-thread block sums one row of
// a shared tile, so a warp reads the tile down a column: TILE floats (128
// bytes) between lanes, every lane in the same bank.
#ifndef TILE
#error "parsed without the compile database's -DTILE=32"
#endif
__global__ void rowSums(float *sums, const float *in) {
  __shared__ float rows[TILE][TILE]; // E2E-DECL
  for (int k = 0; k < TILE; ++k)
    rows[k][threadIdx.x] = in[(blockIdx.x * TILE + k) * TILE + threadIdx.x];
  __syncthreads();
  float s = 0.f;
  for (int k = 0; k < TILE; ++k)
    s += rows[threadIdx.x][k]; // E2E-CONFLICT
  sums[blockIdx.x * TILE + threadIdx.x] = s;
}

void launchRowSums(float *sums, const float *in, int tiles) {
  rowSums<<<tiles, TILE>>>(sums, in);
}
CU
cat >"$PROJ/kernels/compile_commands.json" <<JSON
[{"directory": "$PROJ/kernels",
  "command": "/usr/local/cuda/bin/nvcc -DTILE=32 -arch=sm_90 --expt-relaxed-constexpr -x cu -c $SRC -o rowsums.o",
  "file": "$SRC"}]
JSON
cp "$SRC" "$WORK/original.cu"

STEP="check --fix (the expected result)"
run_warplint check -p "$PROJ/kernels" "$SRC" --fix --quiet
[ "$RC" -eq 0 ] || [ "$RC" -eq 1 ] || fail "warplint exit $RC"
DECL_LINE=$(line_of "$SRC" E2E-DECL)
EXPECT_DECL='__shared__ float rows[TILE][TILE + 1];'
grep -Fq "$EXPECT_DECL" "$SRC" || fail "--fix did not pad the tile"
cp "$SRC" "$WORK/expected.cu"
cp "$WORK/original.cu" "$SRC"

STEP="emacs"
# The documented set-up runs "warplint" from PATH.
mkdir -p "$WORK/bin"
ln -s "$WARPLINT" "$WORK/bin/warplint"
echo "+ emacs --batch -l tests/e2e/lsp_emacs.el ($(emacs --version | head -n1))"
set +e
PATH="$WORK/bin:$PATH" HOME="$WORK/home" WARPLINT_DOCS="$DOCS" LSP_FILE="$SRC" LSP_TIMEOUT=60 \
  CONFLICT_LINE=$(line_of "$SRC" E2E-CONFLICT) DECL_LINE="$DECL_LINE" EXPECT_DECL="$EXPECT_DECL" \
  timeout 280 emacs --batch -l "$E2E_DIR/lsp_emacs.el" >"$OUT" 2>&1 </dev/null
RC=$?
set -e
cat "$OUT"
[ "$RC" -ne 77 ] || skip "$(grep '^SKIP: ' "$OUT" | head -n1 | cut -c7-)"
[ "$RC" -eq 0 ] || fail "the Emacs session failed (exit $RC)"
grep -q "server exited 0" "$OUT" || fail "the session did not finish"

STEP="the saved file"
diff -u "$WORK/expected.cu" "$SRC" || fail "the code action's result differs from check --fix's"
echo "PASS"
