// Regression input (libFuzzer, quick build, 2026-11-27 13:54, on an unmutated
// seed): a kernel template copying elements of a struct of structs. The copy
// calls the outer struct's implicit operator=, whose body calls the members'
// operator=; the warp-tail scan follows the first into the second and asked
// that callee for getName() in its __syncwarp test, which asserts on a name
// that is not an identifier (operators, constructors, conversions).
typedef struct {
  unsigned int r, g, b, a;
} quad4;

typedef struct {
  quad4 lo, hi;
} quad;

template <class T>
__global__ void copyElements(T *__restrict out, const T *__restrict in, int n) {
  int i = blockDim.x * blockIdx.x + threadIdx.x;
  if (i < n)
    out[i] = in[i];
}

void run(quad *out, const quad *in, int n) {
  copyElements<quad><<<(n + 255) / 256, 256>>>(out, in, n);
}
