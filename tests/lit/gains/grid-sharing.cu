// The cost model's DRAM part counts a sector the grid's blocks share once:
// every block reading one table, neighbouring tiles reading each other's
// halo. Blocks that read disjoint data share nothing.
// RUN: %warplint check %s --dump-model --color=never 2>/dev/null | %FileCheck %s

// Every block reads the same 4096-float table: DRAM serves it once, so the
// kernel's DRAM bytes are its 4 MiB of output and one 16 KiB table (4096
// blocks x 16 KiB without the sharing).
// CHECK: "DRAM traffic: each block's distinct sectors, less those its neighbouring blocks touch too
// CHECK: "dram": "4.2{{[0-9]}}e+06 bytes read and written
// CHECK: "name": "tableForAll"
__global__ void tableForAll(float *out, const float *table, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0;
  for (int k = 0; k < 4096; k += 256)
    s += table[k + threadIdx.x];
  out[i] = s;
}

// Each block reads its own 256 floats: nothing shared (4 MiB in, 4 MiB out).
// CHECK: "DRAM traffic: each block's distinct sectors; the blocks share none
// CHECK: "dram": "8.39e+06 bytes read and written
// CHECK: "name": "streaming"
__global__ void streaming(float *out, const float *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = 2.0f * in[i];
}

void launch(float *out, const float *table, const float *in) {
  tableForAll<<<4096, 256>>>(out, table, 1 << 20);
  streaming<<<4096, 256>>>(out, in);
}
