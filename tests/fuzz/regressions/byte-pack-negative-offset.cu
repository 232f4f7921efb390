__global__ void bytesAThread(unsigned char *out, const unsigned char *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[4 * i + 0] = in[4 * i + 0] ^ 0x80;
  out[4 * i + 1] = in[4 * i + -1] ^ 0x80;
  out[4 * i + 2] = in[4 * i + 2] ^ 0x80;
  out[4 * i + 3] = in[4 * i + 3] ^ 0x80;
}
