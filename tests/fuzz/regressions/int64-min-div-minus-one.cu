__global__ void k(float *a) {
  long long m = -9223372036854775807LL - 1;
  long long d = (long long)threadIdx.x - 1;
  a[m / d] = 1.0f;
}
void h(float *a) { k<<<1, 32>>>(a); }
