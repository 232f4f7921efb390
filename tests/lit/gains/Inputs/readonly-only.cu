// Only a const/__restrict__ finding, which the cost model prices at ~1.00x.
__global__ void scale(float *out, float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = 2.f * in[i];
}

void launch(float *out, float *in, int n) { scale<<<(n + 255) / 256, 256>>>(out, in, n); }
