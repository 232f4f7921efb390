#!/usr/bin/env bash
# Links a check_fuzzer from the normal build's static libraries (g++,
# uninstrumented) with only the fuzz target and the model-building files
# compiled by clang-19 with ASan, UBSan and libFuzzer coverage: 7 compiles
# instead of the full -DWARPLINT_FUZZ=ON build's 99 (README.md here says what
# it checks and what it does not). Build the normal build first; its
# libraries are copied under the build lock so that no other build changes
# them half-way.
# FUZZ_INSTRUMENT: the sources (paths under the repository) to instrument
# instead of the six model files; each replaces its object in its library
# (analyzer/, gains/, printers/, rules/). Leave out files that build
# nlohmann::ordered_json objects (printers/ModelJson.cpp): the g++ and clang
# objects then disagree on the object's size and ASan reports a
# new-delete-type-mismatch of the mix, not of the code. FUZZ_LIBS: a folder already holding
# copies of the libraries (taken when the build matched the sources used).
# Usage: tests/fuzz/quick_fuzzer.sh OUT_DIR [NORMAL_BUILD_DIR]
# Result: OUT_DIR/bin/check_fuzzer (run_fuzzer.sh SECONDS OUT_DIR runs it).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=$(mkdir -p "$1" && cd "$1" && pwd)
build=${2:-$root/build}
model="KernelWalker LoopRecurrences IndexExpr Assignments ExprTranslator LoopExitValues"
sources=${FUZZ_INSTRUMENT:-$(for m in $model; do echo "analyzer/model/$m.cpp"; done)}
san="-fsanitize=address,undefined -fno-sanitize=vptr"
flags="-DWARPLINT_CLANG_RESOURCE_DIR=\"/usr/lib/llvm-19/lib/clang/19\" -DWARPLINT_BUILD_SHARE_DIR=\"$build/share/warplint\"
  -DWARPLINT_HAVE_BUNDLED_PROFILES=1 -DWARPLINT_SOURCE_RESOURCE_DIR=\"$root/analyzer/resources\" -DWARPLINT_VERSION=\"0.1.0\"
  -D_GNU_SOURCE -D__STDC_CONSTANT_MACROS -D__STDC_FORMAT_MACROS -D__STDC_LIMIT_MACROS -I$root -I/usr/lib/llvm-19/include
  -O1 -gline-tables-only -Wno-unused-parameter $san -fno-omit-frame-pointer -fsanitize=fuzzer-no-link -fno-rtti -std=gnu++17"
cd "$out"
rm -rf libs obj && mkdir -p libs bin obj
if [ -n "${FUZZ_LIBS:-}" ]; then
  cp "$FUZZ_LIBS"/* libs/
else
  flock /tmp/wl-build.lock cp "$build"/driver/libwarplint_cli.a "$build"/printers/libwarplint_printers.a \
    "$build"/rules/libwarplint_rules.a "$build"/analyzer/libwarplint_analyzer.a "$build"/gains/libwarplint_gains.a \
    "$build"/driver/CMakeFiles/warplint.dir/Baseline.cpp.o "$build"/driver/CMakeFiles/warplint.dir/FileSettings.cpp.o libs/
fi
for lib in analyzer gains printers rules; do cp "libs/libwarplint_$lib.a" "libwarplint_$lib.a"; done
# Two compiles at a time (a sanitized clang-heavy unit needs about 1.5 GB).
for src in $sources; do
  base=$(basename "$src" .cpp)
  while [ "$(jobs -rp | wc -l)" -ge 2 ]; do sleep 1; done
  clang++-19 $flags -c "$root/$src" -o "obj/$base.o" &
done
clang++-19 $flags -c "$root/tests/fuzz/check_fuzzer.cpp" -o check_fuzzer.o &
wait
for src in $sources; do
  base=$(basename "$src" .cpp); lib=libwarplint_${src%%/*}.a
  ar d "$lib" "$base.cpp.o" && ar r "$lib" "obj/$base.o"
done
clang++-19 -O1 -gline-tables-only $san -fsanitize=fuzzer check_fuzzer.o libs/Baseline.cpp.o libs/FileSettings.cpp.o \
  -o bin/check_fuzzer -Wl,-rpath,/usr/lib/llvm-19/lib libs/libwarplint_cli.a libwarplint_printers.a \
  libwarplint_rules.a libwarplint_analyzer.a libwarplint_gains.a libwarplint_rules.a libwarplint_analyzer.a \
  /usr/lib/llvm-19/lib/libclang-cpp.so.19.1 /usr/lib/llvm-19/lib/libLLVM.so.1
echo "$out/bin/check_fuzzer"
