// Where a kernel's block shape comes from (KernelInfo::blockShapeOrigin):
// launches through function pointers and tables, dim3 values built member by
// member, constants of every spelling, launches under a `case` of a switch on
// the block size, partial shapes, the runtime's launch calls, launches inside
// templates, __launch_bounds__, and the plausible shapes tried when nothing is
// known.
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

// A member set to different values on different paths: each value that may
// reach the launch is a shape to try (not the default-constructed 1: both
// paths overwrite it).
__global__ void twoWidths(float *a, int n) { a[threadIdx.x] = 0.f; }
// CHECK: twoWidths: branch-chosen launch (64, 1, 1) (256, 1, 1)

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
// later one; a write on one path only gives two shapes, the old value and
// the new one.
__global__ void firstPass(float *a) { a[threadIdx.x] = 0.f; }
__global__ void secondPass(float *a) { a[threadIdx.x] = 1.f; }
__global__ void maybeWide(float *a) { a[threadIdx.x] = 2.f; }
// CHECK: firstPass: launch (128, 1, 1)
// CHECK: secondPass: member assignment (64, 1, 1)
// CHECK: maybeWide: branch-chosen launch (128, 1, 1) (256, 1, 1)

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

// ---- block sizes chosen on different paths ----

// An integer assigned in both branches, through else-if chains and ?:.
__global__ void pickedSize(float *a) { a[threadIdx.x] = 0.f; }
__global__ void pickedChain(float *a) { a[threadIdx.x] = 1.f; }
__global__ void pickedTernary(float *a) { a[threadIdx.x] = 2.f; }
// CHECK: pickedSize: branch-chosen launch (128, 1, 1) (256, 1, 1)
// CHECK: pickedChain: branch-chosen launch (64, 1, 1) (256, 1, 1) (512, 1, 1)
// CHECK: pickedTernary: branch-chosen launch (32, 1, 1) (96, 1, 1)

void launchPicked(float *a, int n, bool small) {
  int threads;
  if (small)
    threads = 128;
  else
    threads = 256;
  pickedSize<<<n / threads, threads>>>(a);
  unsigned chain = 512;
  if (n < 1000)
    chain = 64;
  else if (n < 100000)
    chain = 256;
  pickedChain<<<1, chain>>>(a);
  int t = small ? 32 : 96;
  pickedTernary<<<1, dim3(t, 1)>>>(a);
}

// A dim3 whose members are set in both branches, the other member common;
// a path that returns first does not reach the launch.
__global__ void pickedRows(float *a) { a[threadIdx.y * 64 + threadIdx.x] = 0.f; }
// CHECK: pickedRows: branch-chosen launch (32, 4, 1) (32, 8, 1)

bool pickedRowsFails(int mode);
void launchPickedRows(float *a, int mode) {
  dim3 threads;
  threads.x = 32;
  if (pickedRowsFails(mode)) {
    threads.y = 16;
    return;
  }
  if (mode == 0) {
    threads.y = 4;
  } else {
    threads.y = 8;
  }
  pickedRows<<<1, threads>>>(a);
}

// Both paths give the same size: one shape, as good as a constant.
__global__ void sameEitherWay(float *a) { a[threadIdx.x] = 0.f; }
// CHECK: sameEitherWay: launch (192, 1, 1)

void launchSameEitherWay(float *a, bool b) {
  int threads;
  if (b)
    threads = 192;
  else
    threads = 3 * 64;
  sameEitherWay<<<1, threads>>>(a);
}

// Not followed: a path where the size is a runtime value, a size changed in
// a loop from its own value, one whose address escapes, a function with a
// goto. An integer block size leaves y and z 1: x is tried over plausible
// sizes, as before.
__global__ void runtimeOnOnePath(float *a) { a[threadIdx.x] = 0.f; }
__global__ void doubledInLoop(float *a) { a[threadIdx.x] = 1.f; }
__global__ void escapedSize(float *a) { a[threadIdx.x] = 2.f; }
__global__ void gotoSize(float *a) { a[threadIdx.x] = 3.f; }
// CHECK: runtimeOnOnePath: partial launch (32, 1, 1) (64, 1, 1) (128, 1, 1) (256, 1, 1)
// CHECK: doubledInLoop: partial launch (32, 1, 1) (64, 1, 1) (128, 1, 1) (256, 1, 1)
// CHECK: escapedSize: partial launch (32, 1, 1) (64, 1, 1) (128, 1, 1) (256, 1, 1)
// CHECK: gotoSize: partial launch (32, 1, 1) (64, 1, 1) (128, 1, 1) (256, 1, 1)

void readSize(int *t);
void launchNotFollowed(float *a, int n) {
  int threads = 256;
  if (n < 256)
    threads = n;
  runtimeOnOnePath<<<1, threads>>>(a);
  int grow = 32;
  for (int i = 0; i < n; ++i)
    grow = grow * 2;
  doubledInLoop<<<1, grow>>>(a);
  int escaped = 128;
  if (n > 1)
    escaped = 256;
  readSize(&escaped);
  escapedSize<<<1, escaped>>>(a);
}
void launchWithGoto(float *a, int n) {
  int threads = 128;
  if (n > 5)
    threads = 256;
again:
  gotoSize<<<1, threads>>>(a);
  if (threads < 1024) {
    threads = 1024; // reaches the launch through the goto
    goto again;
  }
}

// ---- block sizes handed in by the launching function's callers ----

// The arguments of every call in the file, followed one more call up; even a
// single shape stays an assumption (callers in other files are not seen).
__global__ void sizedByCaller(float *a) { a[threadIdx.x] = 0.f; }
__global__ void tiledByCaller(float *a) { a[threadIdx.y * 16 + threadIdx.x] = 0.f; }
// CHECK: sizedByCaller: caller arguments (128, 1, 1) (512, 1, 1)
// CHECK: tiledByCaller: caller arguments (16, 16, 1)

void launchSized(float *a, int threads) { sizedByCaller<<<1, threads>>>(a); }
void forwardSized(float *a, int threads) { launchSized(a, threads); }
void runSized(float *a, bool big) {
  launchSized(a, 128);
  int t = big ? 512 : 128;
  forwardSized(a, t);
}
void launchTiled(float *a, dim3 block) { tiledByCaller<<<1, block>>>(a); }
void runTiled(float *a) { launchTiled(a, dim3(16, 16)); }

// Not followed: a launcher whose address is taken, a caller passing a
// runtime value, a parameter the launcher changes.
__global__ void sizedByPointer(float *a) { a[threadIdx.x] = 0.f; }
__global__ void sizedAtRuntime(float *a) { a[threadIdx.x] = 1.f; }
__global__ void sizedChanged(float *a) { a[threadIdx.x] = 2.f; }
// CHECK: sizedByPointer: partial launch (32, 1, 1) (64, 1, 1) (128, 1, 1) (256, 1, 1)
// CHECK: sizedAtRuntime: partial launch (32, 1, 1) (64, 1, 1) (128, 1, 1) (256, 1, 1)
// CHECK: sizedChanged: partial launch (32, 1, 1) (64, 1, 1) (128, 1, 1) (256, 1, 1)

void launchByPointer(float *a, int threads) { sizedByPointer<<<1, threads>>>(a); }
void (*launcher)(float *, int) = launchByPointer;
void runByPointer(float *a) { launchByPointer(a, 64); }
void launchAtRuntime(float *a, int threads) { sizedAtRuntime<<<1, threads>>>(a); }
void runAtRuntime(float *a, int n) {
  launchAtRuntime(a, 64);
  launchAtRuntime(a, n);
}
void launchChanged(float *a, int threads) {
  threads *= 2;
  sizedChanged<<<1, threads>>>(a);
}
void runChanged(float *a) { launchChanged(a, 64); }

// ---- block sizes in globals that are not const ----

// Nothing in the file writes them: their initializers, as an assumption
// (another file could). One that is written, or whose address is taken, is
// not followed.
unsigned gThreadsPerDim = 16;
unsigned gThreads = gThreadsPerDim * gThreadsPerDim;
unsigned gWritten = 128;
int gAddressTaken = 64;
int *gAlias = &gAddressTaken;
__global__ void globalSized(float *a) { a[threadIdx.x] = 0.f; }
__global__ void globalTiled(float *a) { a[threadIdx.y * 16 + threadIdx.x] = 0.f; }
__global__ void globalWrittenSize(float *a) { a[threadIdx.x] = 1.f; }
__global__ void globalAliasedSize(float *a) { a[threadIdx.x] = 2.f; }
// CHECK: globalSized: unwritten global (256, 1, 1)
// CHECK: globalTiled: unwritten global (16, 16, 1)
// CHECK: globalWrittenSize: partial launch (32, 1, 1) (64, 1, 1) (128, 1, 1) (256, 1, 1)
// CHECK: globalAliasedSize: partial launch (32, 1, 1) (64, 1, 1) (128, 1, 1) (256, 1, 1)

void setWritten(unsigned n) { gWritten = n; }
void launchGlobals(float *a) {
  globalSized<<<1, gThreads>>>(a);
  globalTiled<<<1, dim3(gThreadsPerDim, gThreadsPerDim)>>>(a);
  globalWrittenSize<<<1, gWritten>>>(a);
  globalAliasedSize<<<1, gAddressTaken>>>(a);
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

// ---- the runtime's launch calls: cudaLaunchKernel, cudaLaunchCooperativeKernel ----

__global__ void viaRuntime(float *a, int n) { a[threadIdx.x] = 0.f; }
__global__ void viaCooperative(float *a, int n) { a[threadIdx.y * 32 + threadIdx.x] = 0.f; }
__global__ void viaRuntimePointer(float *a, int n) { a[threadIdx.x] = 1.f; }
// CHECK: viaRuntime: launch (160, 1, 1)
// CHECK: viaCooperative: member assignment (32, 4, 1)
// CHECK: viaRuntimePointer: pointer (64, 1, 1)

void launchThroughRuntime(float *a, int n) {
  void *args[] = {&a, &n};
  const int threads = 160;
  cudaLaunchKernel((const void *)viaRuntime, dim3(n / threads), dim3(threads), args, 0, 0);
  dim3 block;
  block.x = 32;
  block.y = 4;
  cudaLaunchCooperativeKernel((void *)&viaCooperative, dim3(n), block, args, 0, 0);
  void (*k)(float *, int) = viaRuntimePointer;
  cudaLaunchKernel((const void *)k, dim3(n / 64), dim3(64), args, 0, 0);
}

// A lambda between the shape's assignments and the launch: one that names no
// integer or dim3 local (a host check filling a vector) changes no shape and
// the walk goes on; one that captures the shape or a size by reference may
// change it whenever it is called, so its assignments are not followed.
__global__ void pastVectorLambda(float *a, int n) { a[threadIdx.y * 32 + threadIdx.x] = 0.f; }
__global__ void pastShapeLambda(float *a, int n) { a[threadIdx.y * 32 + threadIdx.x] = 1.f; }
__global__ void pastSizeLambda(float *a, int n) { a[threadIdx.y * 32 + threadIdx.x] = 2.f; }
// CHECK: pastVectorLambda: member assignment (32, 8, 1)
// CHECK: pastShapeLambda: partial launch (32, 32, 1)
// CHECK: pastSizeLambda: partial launch (32, 32, 1)

void launchPastLambdas(float *a, int n, float *want) {
  void *args[] = {&a, &n};
  dim3 coop;
  coop.x = 32;
  coop.y = 8;
  auto fill = [&]() { want[0] = 1.f; };
  fill();
  cudaLaunchCooperativeKernel((void *)pastVectorLambda, dim3(8), coop, args, 0, 0);
  dim3 wide;
  wide.x = 32;
  wide.y = 8;
  auto widen = [&]() { wide.y = 16; };
  widen();
  cudaLaunchCooperativeKernel((void *)pastShapeLambda, dim3(8), wide, args, 0, 0);
  int rows = 8;
  auto grow = [&rows]() { rows *= 2; };
  grow();
  pastSizeLambda<<<8, dim3(32, rows)>>>(a, n);
}

// ---- launches inside templates: the kernel's name resolves only when instantiated ----

template <typename T> __global__ void scaledInTemplate(T *a, int n) { a[threadIdx.x] *= 2; }
// CHECK: scaledInTemplate: launch (192, 1, 1) (96, 1, 1)

template <typename T> struct TemplatedRunner {
  void run(T *a, int n) { scaledInTemplate<T><<<n / 192, 192>>>(a, n); } // never instantiated
};
template <typename T> void templatedLaunch(T *a, int n) { scaledInTemplate<<<n / 96, 96>>>(a, n); }

template <typename T> __global__ void addedInTemplate(T *a) { a[threadIdx.x] += 1; }
// CHECK: addedInTemplate<float>: launch (64, 1, 1)

template <typename T> struct TemplatedAdder {
  void run(T *a, int n) { addedInTemplate<T><<<n / 64, 64>>>(a); }
};
void useAdder(float *a, int n) { TemplatedAdder<float>().run(a, n); }

// ---- nothing from a launch ----

__global__ void __launch_bounds__(384) bounded(float *a) { a[threadIdx.x] = 0.f; }
// CHECK: bounded: launch_bounds (384, 1, 1)

__global__ void plane(float *a) { a[threadIdx.y * 64 + threadIdx.x] = 0.f; }
// CHECK: plane: default (16, 16, 1) (32, 8, 1) (32, 32, 1)

__global__ void volume(float *a) { a[threadIdx.z * 64 + threadIdx.y * 16 + threadIdx.x] = 0.f; }
// CHECK: volume: default (32, 4, 2)
