// Where a kernel's block shape comes from (KernelInfo::blockShapeOrigin):
// launches through function pointers and tables, dim3 values built member by
// member, constants of every spelling, launches under a `case` of a switch on
// the block size, partial shapes, __launch_bounds__, and the plausible shapes
// tried when nothing is known.
// RUN: %warplint check %s --dump-model | %python %S/Inputs/kernel_origins.py | %FileCheck %s
// RUN: %warplint check %s --no-cuda-toolkit --dump-model | %python %S/Inputs/kernel_origins.py | %FileCheck %s

// ---- function pointers: every kernel a launch may start gets its shape ----

__global__ void scalePadded(float *a, int n) { a[threadIdx.x] *= 2.f; }
__global__ void scalePlain(float *a, int n) { a[threadIdx.x] *= 3.f; }
// CHECK: scalePadded: pointer (128, 1, 1)
// CHECK: scalePlain: pointer (128, 1, 1)

void launchChosen(float *a, int n, bool padded) {
  void (*k)(float *, int) = padded ? scalePadded : scalePlain;
  k<<<n / 128, 128>>>(a, n);
}

__global__ void stepA(float *a, int n) { a[threadIdx.x] += 1.f; }
__global__ void stepB(float *a, int n) { a[threadIdx.x] -= 1.f; }
__global__ void stepC(float *a, int n) { a[threadIdx.x] = 0.f; }
// CHECK: stepA: pointer (64, 1, 1)
// CHECK: stepB: pointer (64, 1, 1)
// CHECK: stepC: pointer (64, 1, 1)

void launchFromTable(float *a, int n, int which) {
  static void (*const steps[])(float *, int) = {stepA, &stepB, stepC};
  steps[which]<<<n / 64, dim3(64)>>>(a, n);
}

__global__ void modeOne(float *a, int n) { a[threadIdx.y * 16 + threadIdx.x] = 1.f; }
__global__ void modeTwo(float *a, int n) { a[threadIdx.y * 16 + threadIdx.x] = 2.f; }
// CHECK: modeOne: pointer (16, 16, 1)
// CHECK: modeTwo: pointer (16, 16, 1)

void launchAssignedInBranches(float *a, int n, int mode) {
  void (*kernel)(float *, int);
  if (mode == 1)
    kernel = &modeOne;
  else
    kernel = modeTwo;
  dim3 threads(16, 16);
  (*kernel)<<<1, threads>>>(a, n);
}

// A pointer handed in by the caller: its values are not visible here.
__global__ void handedIn(float *a, int n) { a[threadIdx.x] = 5.f; }
// CHECK: handedIn: default (128, 1, 1) (256, 1, 1) (512, 1, 1) (1024, 1, 1)

void launchParameter(void (*k)(float *, int), float *a, int n) { k<<<1, 32>>>(a, n); }

// ---- dim3 built by member assignment ----

__global__ void tiled(float *a, int n) { a[threadIdx.y * 16 + threadIdx.x] = 0.f; }
// CHECK: tiled: member assignment (16, 16, 1)

void launchMembers(float *a, int n) {
  dim3 block;
  block.x = 16;
  block.y = 16;
  tiled<<<n / 256, block>>>(a, n);
}

// One member known, one a runtime value: the known one holds the warp's
// lanes, the other is tried over plausible sizes.
__global__ void columns(float *a, int n) { a[threadIdx.y * n] = 0.f; }
// CHECK: columns: partial launch (1, 32, 1) (1, 64, 1) (1, 128, 1) (1, 256, 1)

void launchColumn(float *a, int n, int h) {
  dim3 block(1);
  block.y = h;
  columns<<<1, block>>>(a, n);
}

// A member set to different values on different paths is unknown.
__global__ void twoWidths(float *a, int n) { a[threadIdx.x] = 0.f; }
// CHECK: twoWidths: partial launch (32, 1, 1) (64, 1, 1) (128, 1, 1) (256, 1, 1)

void launchTwoWidths(float *a, int n, bool wide) {
  dim3 block;
  if (wide)
    block.x = 256;
  else
    block.x = 64;
  twoWidths<<<1, block>>>(a, n);
}

// A dim3 that a callee may set is not known at all.
void chooseBlock(dim3 &b);
__global__ void calleeChosen(float *a, int n) { a[threadIdx.x] = 0.f; }
// CHECK: calleeChosen: default (128, 1, 1) (256, 1, 1) (512, 1, 1) (1024, 1, 1)

void launchCalleeChosen(float *a, int n) {
  dim3 block(128);
  chooseBlock(block);
  calleeChosen<<<1, block>>>(a, n);
}

// A whole assignment after a default construction.
__global__ void assignedOnce(float *a, int n) { a[threadIdx.x] = 0.f; }
// CHECK: assignedOnce: launch (96, 1, 1)

void launchAssignedOnce(float *a, int n) {
  dim3 threads, blocks;
  threads = dim3(96, 1, 1);
  blocks = dim3(n / 96);
  assignedOnce<<<blocks, threads>>>(a, n);
}

// Writes are read in order: a member set after one launch changes only the
// later one; a write on one path only leaves the member unknown.
__global__ void firstPass(float *a) { a[threadIdx.x] = 0.f; }
__global__ void secondPass(float *a) { a[threadIdx.x] = 1.f; }
__global__ void maybeWide(float *a) { a[threadIdx.x] = 2.f; }
// CHECK: firstPass: launch (128, 1, 1)
// CHECK: secondPass: member assignment (64, 1, 1)
// CHECK: maybeWide: partial launch (32, 1, 1) (64, 1, 1) (128, 1, 1) (256, 1, 1)

void launchReassigned(float *a, bool wide) {
  dim3 threads(128, 1);
  firstPass<<<1, threads>>>(a);
  threads.x = 64;
  secondPass<<<1, threads>>>(a);
  dim3 maybe(128);
  if (wide)
    maybe.x = 256;
  maybeWide<<<1, maybe>>>(a);
}

// ---- block sizes spelled as constants ----

#define ROWS_PER_BLOCK 8
enum { kWarpWidth = 32 };
constexpr int kBlock = 192;
struct Config {
  static const int threads = 320;
  static constexpr int wide = 512;
};

__global__ void fromLocal(float *a) { a[threadIdx.x] = 0.f; }
__global__ void fromConst(float *a) { a[threadIdx.x] = 0.f; }
__global__ void fromMacroEnum(float *a) { a[threadIdx.y * 32 + threadIdx.x] = 0.f; }
__global__ void fromStatic(float *a) { a[threadIdx.x] = 0.f; }
__global__ void fromStaticConstexpr(float *a) { a[threadIdx.x] = 0.f; }
// CHECK: fromLocal: launch (224, 1, 1)
// CHECK: fromConst: launch (192, 1, 1)
// CHECK: fromMacroEnum: launch (32, 8, 1)
// CHECK: fromStatic: launch (320, 1, 1)
// CHECK: fromStaticConstexpr: launch (512, 1, 1)

void launchConstants(float *a) {
  int local = 7 * 32;
  const int k = kBlock;
  fromLocal<<<1, local>>>(a);
  fromConst<<<1, k>>>(a);
  fromMacroEnum<<<1, dim3(kWarpWidth, ROWS_PER_BLOCK)>>>(a);
  fromStatic<<<1, Config::threads>>>(a);
  fromStaticConstexpr<<<1, Config::wide>>>(a);
}

// A launch inside a function template instantiated with constants.
template <int BS> __global__ void templated(float *a) { a[threadIdx.x] = 0.f; }
// CHECK: templated<64>: launch (64, 1, 1)
// CHECK: templated<128>: launch (128, 1, 1)

template <int BS> void launchTemplated(float *a) { templated<BS><<<1, BS>>>(a); }
void launchBoth(float *a) {
  launchTemplated<64>(a);
  launchTemplated<128>(a);
}

// The block size switched on: under `case N:` it is N.
template <unsigned BS> __global__ void reduceBy(float *a) { a[threadIdx.x] += a[threadIdx.x + BS / 2]; }
// CHECK: reduceBy<256U>: launch (256, 1, 1)
// CHECK: reduceBy<128U>: launch (128, 1, 1)
// CHECK: reduceBy<64U>: partial launch (32, 1, 1) (64, 1, 1) (128, 1, 1) (256, 1, 1)

void launchSwitched(float *a, int threads) {
  dim3 block(threads, 1, 1);
  switch (threads) {
  case 256:
    reduceBy<256><<<1, block>>>(a);
    break;
  case 128:
    a = a + 1;
    reduceBy<128><<<1, block>>>(a);
    break;
  case 32:
  case 64:
    reduceBy<64><<<1, block>>>(a); // two labels: not one value, so partial
    break;
  }
}

// The block size tested in an if: in its then-branch it is that value.
__global__ void squareOf16(float *a) { a[threadIdx.y * 16 + threadIdx.x] = 0.f; }
__global__ void squareOther(float *a) { a[threadIdx.y * 16 + threadIdx.x] = 1.f; }
// CHECK: squareOf16: launch (16, 16, 1)
// CHECK: squareOther: default (16, 16, 1) (32, 8, 1) (32, 32, 1)

void launchTested(float *a, int blockSize) {
  dim3 threads(blockSize, blockSize);
  if (blockSize == 16)
    squareOf16<<<1, threads>>>(a);
  else
    squareOther<<<1, threads>>>(a);
}

// ---- nothing from a launch ----

__global__ void __launch_bounds__(384) bounded(float *a) { a[threadIdx.x] = 0.f; }
// CHECK: bounded: launch_bounds (384, 1, 1)

__global__ void plane(float *a) { a[threadIdx.y * 64 + threadIdx.x] = 0.f; }
// CHECK: plane: default (16, 16, 1) (32, 8, 1) (32, 32, 1)

__global__ void volume(float *a) { a[threadIdx.z * 64 + threadIdx.y * 16 + threadIdx.x] = 0.f; }
// CHECK: volume: default (32, 4, 2)
