// Launches kernels that kernels.cu defines, through declarations.
namespace stencil {
__global__ void columnSum(float *out, const float *in, int n);
}
__global__ void rowCopy(float *out, const float *in);
static __global__ void helperOnly(float *out);

void run(float *out, const float *in, int n) {
  stencil::columnSum<<<n / 128, 128>>>(out, in, n);
  dim3 block(64, 4);
  rowCopy<<<1, block>>>(out, in);
  helperOnly<<<1, 512>>>((float *)out);
}
