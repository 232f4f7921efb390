// managed-memory-no-prefetch, the reverse direction: a kernel writes managed
// memory, then the host reads it with no prefetch back. The note quotes the
// active profile's managed_host_touch at the measured size nearest the
// buffer's (the fixture's values are test values, not measurements).
// RUN: %python %S/Inputs/host_profile_fixture.py %S/../../../probes/profiles/h100.json %t.json
// RUN: %not %warplint check %s --rules managed-memory-no-prefetch --profile %t.json --color=never 2>&1 | %FileCheck %s --implicit-check-not='warning:'
// Without the probe in the profile: the same findings, nothing numeric.
// RUN: %python %S/Inputs/host_profile_fixture.py --without-host-probes %S/../../../probes/profiles/h100.json %t.noprobe.json
// RUN: %not %warplint check %s --rules managed-memory-no-prefetch --profile %t.noprobe.json --color=never 2>&1 | %FileCheck %s --check-prefix=NOPROBE
// The bundled H100 profile quotes its own measurement.
// RUN: %not %warplint check %s --rules managed-memory-no-prefetch --color=never 2>&1 | %FileCheck %s --check-prefix=BUNDLED
// JSON carries the quoted values.
// RUN: %not %warplint check %s --rules managed-memory-no-prefetch --profile %t.json --format json 2>&1 | %FileCheck %s --check-prefix=JSON

#include <cuda_runtime.h>

__global__ void produce(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] = 0.5f * i;
}

// 64 MiB: a measured size.
double readBack64() {
  const int n = 1 << 24;
  float *r;
  cudaMallocManaged(&r, n * sizeof(float));
  produce<<<n / 256, 256>>>(r, n);
  cudaDeviceSynchronize();
  double s = 0;
  for (int i = 0; i < n; ++i)
    // CHECK: :[[@LINE+3]]:10: warning: the host touches managed memory 'r' that kernel 'produce' (line [[@LINE-4]]) used, with no cudaMemPrefetchAsync to the host in between: its pages migrate back by CPU page faults [managed-memory-no-prefetch]
    // CHECK: note: measured on FIXTURE-GPU (managed_host_touch, 64 MiB): after a kernel wrote the buffer, one host thread's first read of it took 48.00 ms with no prefetch and 32.00 ms with cudaMemPrefetchAsync to the host and a synchronize first, the prefetch included (1.50x); the same read takes 16.00 ms once the pages are on the host; a write of every element 96.00 against 64.00 ms (1.50x)
    // CHECK: :[[@LINE-6]]:3: note: kernel 'produce' uses 'r' here
    s += r[i];
  cudaFree(r);
  return s;
}

// 1 MiB: quoted at 4 MiB, the nearest measured size, and said so.
double readBack1() {
  const int n = 1 << 18;
  float *r;
  cudaMallocManaged(&r, n * sizeof(float));
  produce<<<n / 256, 256>>>(r, n);
  cudaDeviceSynchronize();
  double s = 0;
  for (int i = 0; i < n; ++i)
    // CHECK: :[[@LINE+2]]:10: warning: the host touches managed memory 'r'
    // CHECK: note: measured on FIXTURE-GPU (managed_host_touch, 4 MiB, the measured size nearest this buffer's 1.0 MiB): after a kernel wrote the buffer, one host thread's first read of it took 3.00 ms with no prefetch and 2.00 ms
    s += r[i];
  cudaFree(r);
  return s;
}

// A size known only at run time: the largest measured size, and said so.
double readBackUnknown(int n) {
  float *r;
  cudaMallocManaged(&r, n * sizeof(float));
  produce<<<(n + 255) / 256, 256>>>(r, n);
  cudaDeviceSynchronize();
  double s = 0;
  for (int i = 0; i < n; ++i)
    // CHECK: :[[@LINE+2]]:10: warning: the host touches managed memory 'r'
    // CHECK: note: measured on FIXTURE-GPU (managed_host_touch, 256 MiB, the largest size measured: this buffer's size is not known): after a kernel wrote the buffer, one host thread's first read of it took 192.00 ms with no prefetch and 128.00 ms
    s += r[i];
  cudaFree(r);
  return s;
}

// Prefetched back to the host before the read: silent.
double prefetchedBack() {
  const int n = 1 << 24;
  float *r;
  cudaMallocManaged(&r, n * sizeof(float));
  produce<<<n / 256, 256>>>(r, n);
  cudaMemLocation host{};
  host.type = cudaMemLocationTypeHost;
  cudaMemPrefetchAsync(r, n * sizeof(float), host, 0, 0);
  cudaDeviceSynchronize();
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += r[i];
  cudaFree(r);
  return s;
}

// ---- one element at a constant place ---------------------------------------

int printf(const char *, ...);

// One result printed after the kernel: one page fault, where a prefetch back
// would move the whole 64 MiB. Not reported.
void printOne() {
  const int n = 1 << 24;
  float *m;
  cudaMallocManaged(&m, n * sizeof(float));
  produce<<<n / 256, 256>>>(m, n);
  cudaDeviceSynchronize();
  printf("%f %f\n", m[0], m[1]);
  float last = *m;
  (void)last;
  cudaFree(m);
}

// The same, written with parentheses and a hexadecimal index: decided on the
// expression (one element at a constant place), not on its spelling.
void printOneParenthesized() {
  const int n = 1 << 24;
  float *m;
  cudaMallocManaged(&m, n * sizeof(float));
  produce<<<n / 256, 256>>>(m, n);
  cudaDeviceSynchronize();
  printf("%f %f\n", (m)[0x2], *(m));
  cudaFree(m);
}

// One element first, then the whole buffer: the whole read is reported
// against the kernel (the one element ends no pair).
double oneThenAll() {
  const int n = 1 << 24;
  float *m;
  cudaMallocManaged(&m, n * sizeof(float));
  produce<<<n / 256, 256>>>(m, n);
  cudaDeviceSynchronize();
  double s = m[0];
  for (int i = 0; i < n; ++i)
    // CHECK: :[[@LINE+1]]:10: warning: the host touches managed memory 'm' that kernel 'produce' (line [[@LINE-4]]) used
    s += m[i];
  cudaFree(m);
  return s;
}

// A constant index and a varying one on one line (here before a kernel):
// the line is the varying one's.
void mixedLine() {
  const int n = 1 << 24;
  float *m;
  cudaMallocManaged(&m, n * sizeof(float));
  for (int i = 0; i < n; ++i)
    m[0] = m[i] = 1.0f;
  // CHECK: :[[@LINE+2]]:3: warning: kernel 'produce' uses managed memory 'm' that the host touched at line [[@LINE-1]]
  // CHECK: :[[@LINE-2]]:12: note: the host touches 'm' here: m[i]
  produce<<<n / 256, 256>>>(m, n);
  cudaDeviceSynchronize();
  cudaFree(m);
}

// One element larger than a page (a 64 KiB record written and read whole):
// reported both ways, and the text says the element's size.
struct Record {
  float v[16384];
};
__global__ void fill(Record *r) { r[blockIdx.x].v[threadIdx.x] = 1.0f; }
float bigElement() {
  Record *r;
  cudaMallocManaged(&r, 256 * sizeof(Record));
  r[0] = Record{};
  // CHECK: :[[@LINE+2]]:3: warning: kernel 'fill' uses managed memory 'r' that the host touched at line [[@LINE-1]]
  // CHECK: note: the host touches 'r' here: r[0] (an element of 65536 bytes)
  fill<<<256, 256>>>(r);
  cudaDeviceSynchronize();
  // CHECK: :[[@LINE+1]]:16: warning: the host touches managed memory 'r' that kernel 'fill' (line [[@LINE-2]]) used
  Record one = r[0];
  cudaFree(r);
  return one.v[1];
}

// ---- a constant loop over a few elements ------------------------------------

// The first ten results printed after the kernel (40 bytes, one page): not
// reported, as one element is not.
void printFirstTen() {
  const int n = 1 << 24;
  float *m;
  cudaMallocManaged(&m, n * sizeof(float));
  produce<<<n / 256, 256>>>(m, n);
  cudaDeviceSynchronize();
  for (int i = 0; i < 10; ++i)
    printf("%f\n", m[i]);
  cudaFree(m);
}

// A few elements set on the host before the kernel (16 bytes): not reported.
void setFewBefore() {
  const int n = 1 << 24;
  float *m;
  cudaMallocManaged(&m, n * sizeof(float));
  int i;
  for (i = 0; i < 4; i++)
    m[i] = 0.0f;
  produce<<<n / 256, 256>>>(m, n);
  cudaDeviceSynchronize();
  cudaFree(m);
}

// Constant loops that reach more than a page, or whose index is not the
// bare counter: reported. 2,048 floats (8 KiB):
double constantButLarge() {
  const int n = 1 << 24;
  float *m;
  cudaMallocManaged(&m, n * sizeof(float));
  produce<<<n / 256, 256>>>(m, n);
  cudaDeviceSynchronize();
  double s = 0;
  for (int i = 0; i < 2048; ++i)
    // CHECK: :[[@LINE+1]]:10: warning: the host touches managed memory 'm' that kernel 'produce' (line [[@LINE-4]]) used
    s += m[i];
  cudaFree(m);
  return s;
}

// Four elements a page apart (a stride of 1,024 floats):
double constantButStrided() {
  const int n = 1 << 24;
  float *m;
  cudaMallocManaged(&m, n * sizeof(float));
  produce<<<n / 256, 256>>>(m, n);
  cudaDeviceSynchronize();
  double s = 0;
  for (int i = 0; i < 4096; i += 1024)
    // CHECK: :[[@LINE+1]]:10: warning: the host touches managed memory 'm' that kernel 'produce' (line [[@LINE-4]]) used
    s += m[i];
  cudaFree(m);
  return s;
}

// Eight elements at multiples of 1,024: not the bare counter.
double constantButScaled() {
  const int n = 1 << 24;
  float *m;
  cudaMallocManaged(&m, n * sizeof(float));
  produce<<<n / 256, 256>>>(m, n);
  cudaDeviceSynchronize();
  double s = 0;
  for (int i = 0; i < 8; ++i)
    // CHECK: :[[@LINE+1]]:10: warning: the host touches managed memory 'm' that kernel 'produce' (line [[@LINE-4]]) used
    s += m[i * 1024];
  cudaFree(m);
  return s;
}

// Four iterations whose counter the body moves on.
double constantButMoved() {
  const int n = 1 << 24;
  float *m;
  cudaMallocManaged(&m, n * sizeof(float));
  produce<<<n / 256, 256>>>(m, n);
  cudaDeviceSynchronize();
  double s = 0;
  for (int i = 0; i < 4; ++i) {
    // CHECK: :[[@LINE+1]]:10: warning: the host touches managed memory 'm' that kernel 'produce' (line [[@LINE-4]]) used
    s += m[i];
    i += 1000;
  }
  cudaFree(m);
  return s;
}

// A few elements a row, but the rows move the base over the whole buffer.
double rowsOfFour() {
  const int n = 1 << 24;
  float *m;
  cudaMallocManaged(&m, n * sizeof(float));
  produce<<<n / 256, 256>>>(m, n);
  cudaDeviceSynchronize();
  double s = 0;
  float *p = m;
  for (int row = 0; row < n / 4; ++row, p += 4)
    for (int i = 0; i < 4; ++i)
      // CHECK: :[[@LINE+1]]:12: warning: the host touches managed memory 'm' that kernel 'produce' (line [[@LINE-6]]) used
      s += p[i];
  cudaFree(m);
  return s;
}

// NOPROBE: warning: the host touches managed memory 'r'
// NOPROBE-NOT: managed_host_touch
// NOPROBE-NOT: measured on
// The bundled H100 profile measured the prefetch back below 1.3x: a note.
// BUNDLED: note: the host touches managed memory 'r'
// BUNDLED: note: measured on NVIDIA H100 80GB HBM3 (managed_host_touch, 64 MiB): after a kernel wrote the buffer, one host thread's first read of it took
// BUNDLED: note: a note only: the measured prefetch back buys {{[0-9.]+}}x on the host's read (below 1.3x)
// JSON: "direction": "device to host"
// JSON: "measured": {
// JSON-NEXT: "bytes": 67108864
// JSON-NEXT: "host_read_ms_none": 48.0
// JSON-NEXT: "host_read_ms_prefetch": 32.0
// JSON-NEXT: "host_read_ms_resident": 16.0
// JSON-NEXT: "host_write_ms_none": 96.0
// JSON-NEXT: "host_write_ms_prefetch": 64.0
// JSON-NEXT: "probe": "managed_host_touch"
