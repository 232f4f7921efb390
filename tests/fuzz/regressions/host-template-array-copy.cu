// Open defect (bench/README.md, "Fuzzing and sanitizers", row 5): not in
// regressions/ until it is fixed, or ctest's fuzz.regressions would fail.
// `warplint check --no-cuda-toolkit` dies with SIGSEGV (exit 139):
// HostBuffers::traceDecl asks ASTContext::getTypeSizeInChars for the size of
// `T h_mask[8]`, an array of a dependent type in a host template. Found by
// check_fuzzer on the unmutated seed HeCBench convolution1D-cuda/main.cu
// (`T h_mask[MAX_MASK_WIDTH]; ... cudaMemcpyToSymbol(mask<T>, h_mask, ...)`).
#include <cuda_runtime.h>
template <typename T> void run() {
  T h_mask[8];
  T *d;
  cudaMalloc((void **)&d, 8 * sizeof(T));
  cudaMemcpy(d, h_mask, 8 * sizeof(T), cudaMemcpyHostToDevice);
}
