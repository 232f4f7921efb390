/* warplint bundled CUDA declarations.
 *
 * Used when no CUDA toolkit is available (or with --no-cuda-toolkit): the
 * source is parsed with `-nocudainc -nocudalib -include cuda_minimal.h`.
 * Only what is needed to *parse* typical CUDA code is here: execution-space
 * keywords, built-in variables, vector types and dim3, the common device
 * intrinsics (synchronization, atomics, warp shuffles and votes, bit tricks,
 * fast math, caching loads), device-side printf/malloc/assert, math functions
 * for device code and the common runtime API. Functions are declarations, or
 * definitions over clang builtins where a body is cheap; nothing here is meant
 * to be code-generated.
 */
#ifndef WARPLINT_CUDA_MINIMAL_H
#define WARPLINT_CUDA_MINIMAL_H
// Declarations, not the user's code: the analyzer skips system headers.
#pragma clang system_header

#define WARPLINT_MINIMAL_CUDA 1
#ifndef __CUDACC__
#define __CUDACC__ 1
#endif

/* ---- Execution spaces and other keywords ------------------------------ */
#define __host__ __attribute__((host))
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __managed__ __attribute__((managed))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#define __forceinline__ __inline__ __attribute__((always_inline))
#if !(defined(__has_feature) && __has_feature(cuda_noinline_keyword))
#define __noinline__ __attribute__((noinline))
#endif
#define __align__(n) __attribute__((aligned(n)))
#define __builtin_align__(n) __attribute__((aligned(n)))
#define __device_builtin__
#define __cudart_builtin__
#define __grid_constant__ __attribute__((grid_constant))
#define __inline_hint__
#define CUDART_CB
#define CUDARTAPI
#define CUDART_INF_F __builtin_huge_valf()
#define CUDART_INF __builtin_huge_val()
#define CUDART_NAN_F __builtin_nanf("")
#define CUDART_NAN __builtin_nan("")
#define CUDART_PI_F 3.141592654f
#define CUDART_PI 3.1415926535897931e+0

/* Host C library, as nvcc's implicit includes provide it. */
#include <stddef.h>
#include <stdint.h>
#include <limits.h>
#include <float.h>
#include <string.h>
#include <stdio.h>
#include <stdlib.h>
#include <assert.h>
#include <time.h>

#define __WL_D static __inline__ __attribute__((always_inline)) __device__
#define __WL_HD static __inline__ __attribute__((always_inline)) __host__ __device__

/* ---- Vector types ------------------------------------------------------ */
#define __WL_VEC1(T, N, A) struct __attribute__((aligned(A))) N##1 { T x; }; typedef struct N##1 N##1;
#define __WL_VEC2(T, N, A) struct __attribute__((aligned(A))) N##2 { T x, y; }; typedef struct N##2 N##2;
#define __WL_VEC3(T, N) struct N##3 { T x, y, z; }; typedef struct N##3 N##3;
#define __WL_VEC4(T, N, A) struct __attribute__((aligned(A))) N##4 { T x, y, z, w; }; typedef struct N##4 N##4;
#define __WL_VECS(T, N, S)                                                     \
  __WL_VEC1(T, N, S) __WL_VEC2(T, N, 2 * S) __WL_VEC3(T, N) __WL_VEC4(T, N, 4 * S)
__WL_VECS(signed char, char, 1)
__WL_VECS(unsigned char, uchar, 1)
__WL_VECS(short, short, 2)
__WL_VECS(unsigned short, ushort, 2)
__WL_VECS(int, int, 4)
__WL_VECS(unsigned int, uint, 4)
__WL_VECS(float, float, 4)
__WL_VEC1(long, long, 8) __WL_VEC2(long, long, 16) __WL_VEC3(long, long) __WL_VEC4(long, long, 16)
__WL_VEC1(unsigned long, ulong, 8) __WL_VEC2(unsigned long, ulong, 16) __WL_VEC3(unsigned long, ulong)
__WL_VEC4(unsigned long, ulong, 16)
__WL_VEC1(long long, longlong, 8) __WL_VEC2(long long, longlong, 16) __WL_VEC3(long long, longlong)
__WL_VEC4(long long, longlong, 16)
__WL_VEC1(unsigned long long, ulonglong, 8) __WL_VEC2(unsigned long long, ulonglong, 16)
__WL_VEC3(unsigned long long, ulonglong) __WL_VEC4(unsigned long long, ulonglong, 16)
__WL_VEC1(double, double, 8) __WL_VEC2(double, double, 16) __WL_VEC3(double, double)
__WL_VEC4(double, double, 16)

struct dim3 {
  unsigned int x, y, z;
  __host__ __device__ constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1)
      : x(vx), y(vy), z(vz) {}
  __host__ __device__ constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
  __host__ __device__ constexpr operator uint3() const { return uint3{x, y, z}; }
};
typedef struct dim3 dim3;

#define __WL_MAKE1(T, N) __WL_HD N##1 make_##N##1(T x) { N##1 r; r.x = x; return r; }
#define __WL_MAKE2(T, N) __WL_HD N##2 make_##N##2(T x, T y) { N##2 r; r.x = x; r.y = y; return r; }
#define __WL_MAKE3(T, N)                                                       \
  __WL_HD N##3 make_##N##3(T x, T y, T z) { N##3 r; r.x = x; r.y = y; r.z = z; return r; }
#define __WL_MAKE4(T, N)                                                       \
  __WL_HD N##4 make_##N##4(T x, T y, T z, T w) {                               \
    N##4 r; r.x = x; r.y = y; r.z = z; r.w = w; return r;                      \
  }
#define __WL_MAKES(T, N) __WL_MAKE1(T, N) __WL_MAKE2(T, N) __WL_MAKE3(T, N) __WL_MAKE4(T, N)
__WL_MAKES(signed char, char)
__WL_MAKES(unsigned char, uchar)
__WL_MAKES(short, short)
__WL_MAKES(unsigned short, ushort)
__WL_MAKES(int, int)
__WL_MAKES(unsigned int, uint)
__WL_MAKES(float, float)
__WL_MAKES(long, long)
__WL_MAKES(unsigned long, ulong)
__WL_MAKES(long long, longlong)
__WL_MAKES(unsigned long long, ulonglong)
__WL_MAKES(double, double)

/* ---- Built-in variables -------------------------------------------------
 * clang's own header gives threadIdx/blockIdx/blockDim/gridDim the same
 * representation as with a full toolkit (property accessors over the PTX
 * special registers) and declares warpSize. */
#include <__clang_cuda_builtin_vars.h>
__device__ inline __cuda_builtin_threadIdx_t::operator dim3() const { return dim3(x, y, z); }
__device__ inline __cuda_builtin_threadIdx_t::operator uint3() const { return uint3{x, y, z}; }
__device__ inline __cuda_builtin_blockIdx_t::operator dim3() const { return dim3(x, y, z); }
__device__ inline __cuda_builtin_blockIdx_t::operator uint3() const { return uint3{x, y, z}; }
__device__ inline __cuda_builtin_blockDim_t::operator dim3() const { return dim3(x, y, z); }
__device__ inline __cuda_builtin_blockDim_t::operator uint3() const { return uint3{x, y, z}; }
__device__ inline __cuda_builtin_gridDim_t::operator dim3() const { return dim3(x, y, z); }
__device__ inline __cuda_builtin_gridDim_t::operator uint3() const { return uint3{x, y, z}; }

/* ---- Device-side C library ---------------------------------------------- */
extern "C" {
__device__ int printf(const char *, ...);
__device__ int vprintf(const char *, const char *);
__device__ void *malloc(size_t) __attribute__((nothrow));
__device__ void free(void *) __attribute__((nothrow));
__device__ void *memcpy(void *, const void *, size_t);
__device__ void *memset(void *, int, size_t);
__device__ void __assertfail(const char *, const char *, unsigned, const char *, size_t);
__device__ clock_t clock(void);
}
__device__ inline void __assert_fail(const char *msg, const char *file, unsigned line,
                                     const char *fn) {
  __assertfail(msg, file, line, fn, sizeof(char));
}
__WL_D long long clock64() { return 0; }
__WL_D void __nanosleep(unsigned) {}
__device__ void __trap(void);
__device__ void __brkpt(void);

/* ---- Synchronization ---------------------------------------------------- */
__device__ void __syncthreads(void);
__device__ int __syncthreads_count(int);
__device__ int __syncthreads_and(int);
__device__ int __syncthreads_or(int);
__device__ void __syncwarp(unsigned mask = 0xffffffffu);
__device__ void __threadfence(void);
__device__ void __threadfence_block(void);
__device__ void __threadfence_system(void);

/* ---- Atomics ------------------------------------------------------------ */
#define __WL_ATOMIC2(NAME, T) __device__ T NAME(T *address, T val);
#define __WL_ATOMIC_SCOPES(NAME, T)                                            \
  __WL_ATOMIC2(NAME, T) __WL_ATOMIC2(NAME##_block, T) __WL_ATOMIC2(NAME##_system, T)
#define __WL_ATOMIC_INTS(NAME)                                                 \
  __WL_ATOMIC_SCOPES(NAME, int) __WL_ATOMIC_SCOPES(NAME, unsigned int)         \
  __WL_ATOMIC_SCOPES(NAME, unsigned long long int)
__WL_ATOMIC_INTS(atomicAdd)
__WL_ATOMIC_SCOPES(atomicAdd, float)
__WL_ATOMIC_SCOPES(atomicAdd, double)
__WL_ATOMIC_SCOPES(atomicAdd, float2)
__WL_ATOMIC_SCOPES(atomicAdd, float4)
__WL_ATOMIC_SCOPES(atomicSub, int)
__WL_ATOMIC_SCOPES(atomicSub, unsigned int)
__WL_ATOMIC_INTS(atomicExch)
__WL_ATOMIC_SCOPES(atomicExch, float)
__WL_ATOMIC_INTS(atomicMin)
__WL_ATOMIC_SCOPES(atomicMin, long long int)
__WL_ATOMIC_INTS(atomicMax)
__WL_ATOMIC_SCOPES(atomicMax, long long int)
__WL_ATOMIC_INTS(atomicAnd)
__WL_ATOMIC_INTS(atomicOr)
__WL_ATOMIC_INTS(atomicXor)
__WL_ATOMIC_SCOPES(atomicInc, unsigned int)
__WL_ATOMIC_SCOPES(atomicDec, unsigned int)
#define __WL_CAS(NAME, T) __device__ T NAME(T *address, T compare, T val);
#define __WL_CAS_SCOPES(T) __WL_CAS(atomicCAS, T) __WL_CAS(atomicCAS_block, T) __WL_CAS(atomicCAS_system, T)
__WL_CAS_SCOPES(int)
__WL_CAS_SCOPES(unsigned int)
__WL_CAS_SCOPES(unsigned long long int)
__WL_CAS_SCOPES(unsigned short int)

/* ---- Warp shuffles, votes, matches -------------------------------------- */
#define __WL_SHFL(T)                                                           \
  __device__ T __shfl_sync(unsigned mask, T var, int srcLane, int width = 32); \
  __device__ T __shfl_up_sync(unsigned mask, T var, unsigned delta, int width = 32); \
  __device__ T __shfl_down_sync(unsigned mask, T var, unsigned delta, int width = 32); \
  __device__ T __shfl_xor_sync(unsigned mask, T var, int laneMask, int width = 32);
__WL_SHFL(int)
__WL_SHFL(unsigned int)
__WL_SHFL(long)
__WL_SHFL(unsigned long)
__WL_SHFL(long long)
__WL_SHFL(unsigned long long)
__WL_SHFL(float)
__WL_SHFL(double)
__device__ unsigned __ballot_sync(unsigned mask, int predicate);
__device__ int __any_sync(unsigned mask, int predicate);
__device__ int __all_sync(unsigned mask, int predicate);
__device__ int __uni_sync(unsigned mask, int predicate);
__device__ unsigned __activemask(void);
__device__ unsigned __match_any_sync(unsigned mask, int value);
__device__ unsigned __match_any_sync(unsigned mask, unsigned value);
__device__ unsigned __match_any_sync(unsigned mask, long long value);
__device__ unsigned __match_any_sync(unsigned mask, unsigned long long value);
__device__ unsigned __match_any_sync(unsigned mask, float value);
__device__ unsigned __match_all_sync(unsigned mask, int value, int *pred);
__device__ unsigned __match_all_sync(unsigned mask, unsigned value, int *pred);
__device__ int __reduce_add_sync(unsigned mask, int value);
__device__ unsigned __reduce_add_sync(unsigned mask, unsigned value);
__device__ int __reduce_min_sync(unsigned mask, int value);
__device__ unsigned __reduce_min_sync(unsigned mask, unsigned value);
__device__ int __reduce_max_sync(unsigned mask, int value);
__device__ unsigned __reduce_max_sync(unsigned mask, unsigned value);
__device__ unsigned __reduce_and_sync(unsigned mask, unsigned value);
__device__ unsigned __reduce_or_sync(unsigned mask, unsigned value);
__device__ unsigned __reduce_xor_sync(unsigned mask, unsigned value);
__device__ unsigned __lanemask_lt(void);
__device__ unsigned __lanemask_le(void);
__device__ unsigned __lanemask_eq(void);
__device__ unsigned __lanemask_ge(void);
__device__ unsigned __lanemask_gt(void);

/* ---- Integer intrinsics ------------------------------------------------- */
__device__ int __popc(unsigned int);
__device__ int __popcll(unsigned long long);
__device__ int __clz(int);
__device__ int __clzll(long long);
__device__ int __ffs(int);
__device__ int __ffsll(long long);
__device__ unsigned __brev(unsigned);
__device__ unsigned long long __brevll(unsigned long long);
__device__ unsigned __byte_perm(unsigned, unsigned, unsigned);
__device__ unsigned __funnelshift_l(unsigned, unsigned, unsigned);
__device__ unsigned __funnelshift_lc(unsigned, unsigned, unsigned);
__device__ unsigned __funnelshift_r(unsigned, unsigned, unsigned);
__device__ unsigned __funnelshift_rc(unsigned, unsigned, unsigned);
__device__ int __mul24(int, int);
__device__ unsigned __umul24(unsigned, unsigned);
__device__ int __mulhi(int, int);
__device__ unsigned __umulhi(unsigned, unsigned);
__device__ long long __mul64hi(long long, long long);
__device__ unsigned long long __umul64hi(unsigned long long, unsigned long long);
__device__ unsigned __sad(int, int, unsigned);
__device__ unsigned __usad(unsigned, unsigned, unsigned);
__device__ int __hadd(int, int);
__device__ int __rhadd(int, int);
__device__ unsigned __uhadd(unsigned, unsigned);
__device__ int __dp4a(int, int, int);
__device__ unsigned __dp4a(unsigned, unsigned, unsigned);
__device__ unsigned __fns(unsigned, unsigned, int);

/* ---- Caching loads and stores ------------------------------------------- */
#define __WL_LOAD(NAME, T) __device__ T NAME(const T *ptr);
#define __WL_STORE(NAME, T) __device__ void NAME(T *ptr, T value);
#define __WL_MEMTYPES(M, NAME)                                                 \
  M(NAME, char) M(NAME, signed char) M(NAME, unsigned char) M(NAME, short)     \
  M(NAME, unsigned short) M(NAME, int) M(NAME, unsigned int) M(NAME, long)     \
  M(NAME, unsigned long) M(NAME, long long) M(NAME, unsigned long long)        \
  M(NAME, float) M(NAME, double) M(NAME, char2) M(NAME, char4) M(NAME, uchar2) \
  M(NAME, uchar4) M(NAME, short2) M(NAME, short4) M(NAME, ushort2)             \
  M(NAME, ushort4) M(NAME, int2) M(NAME, int4) M(NAME, uint2) M(NAME, uint4)   \
  M(NAME, longlong2) M(NAME, ulonglong2) M(NAME, float2) M(NAME, float4)       \
  M(NAME, double2)
__WL_MEMTYPES(__WL_LOAD, __ldg)
__WL_MEMTYPES(__WL_LOAD, __ldcg)
__WL_MEMTYPES(__WL_LOAD, __ldca)
__WL_MEMTYPES(__WL_LOAD, __ldcs)
__WL_MEMTYPES(__WL_LOAD, __ldlu)
__WL_MEMTYPES(__WL_LOAD, __ldcv)
__WL_MEMTYPES(__WL_STORE, __stwb)
__WL_MEMTYPES(__WL_STORE, __stcg)
__WL_MEMTYPES(__WL_STORE, __stcs)
__WL_MEMTYPES(__WL_STORE, __stwt)

/* ---- Float intrinsics and conversions ----------------------------------- */
__device__ float __expf(float);
__device__ float __exp10f(float);
__device__ float __logf(float);
__device__ float __log2f(float);
__device__ float __log10f(float);
__device__ float __sinf(float);
__device__ float __cosf(float);
__device__ float __tanf(float);
__device__ void __sincosf(float, float *, float *);
__device__ float __powf(float, float);
__device__ float __fdividef(float, float);
__device__ double __fdividef(double, double);
__device__ float __saturatef(float);
#define __WL_ROUNDED_F(OP)                                                     \
  __device__ float OP##_rn(float, float); __device__ float OP##_rz(float, float); \
  __device__ float OP##_ru(float, float); __device__ float OP##_rd(float, float); \
  __device__ double __d##OP##_rn(double, double);
__device__ float __fadd_rn(float, float);
__device__ float __fadd_rz(float, float);
__device__ float __fsub_rn(float, float);
__device__ float __fmul_rn(float, float);
__device__ float __fmul_rz(float, float);
__device__ float __fdiv_rn(float, float);
__device__ float __fmaf_rn(float, float, float);
__device__ float __fmaf_rz(float, float, float);
__device__ float __frcp_rn(float);
__device__ float __fsqrt_rn(float);
__device__ float __frsqrt_rn(float);
__device__ double __dadd_rn(double, double);
__device__ double __dmul_rn(double, double);
__device__ double __fma_rn(double, double, double);
__device__ double __drcp_rn(double);
__device__ double __dsqrt_rn(double);
__device__ int __float2int_rn(float);
__device__ int __float2int_rz(float);
__device__ int __float2int_rd(float);
__device__ int __float2int_ru(float);
__device__ unsigned __float2uint_rn(float);
__device__ unsigned __float2uint_rz(float);
__device__ long long __float2ll_rn(float);
__device__ long long __float2ll_rz(float);
__device__ float __int2float_rn(int);
__device__ float __uint2float_rn(unsigned);
__device__ float __ll2float_rn(long long);
__device__ int __double2int_rn(double);
__device__ int __double2int_rz(double);
__device__ float __double2float_rn(double);
__device__ double __int2double_rn(int);
__device__ int __float_as_int(float);
__device__ unsigned __float_as_uint(float);
__device__ float __int_as_float(int);
__device__ float __uint_as_float(unsigned);
__device__ long long __double_as_longlong(double);
__device__ double __longlong_as_double(long long);
__device__ int __double2hiint(double);
__device__ int __double2loint(double);
__device__ double __hiloint2double(int, int);
__device__ int __isnan(double);
__device__ int __isinf(double);
__device__ int __finitef(float);

/* ---- Math for device code ------------------------------------------------
 * Device overloads (internal linkage) beside the host C library's functions,
 * declared before <cmath> so that `using ::sqrt;` in namespace std sees them. */
#define __WL_M1(NAME)                                                          \
  __WL_D double NAME(double x) { return __builtin_##NAME(x); }                 \
  __WL_D float NAME##f(float x) { return __builtin_##NAME##f(x); }             \
  __WL_D float NAME(float x) { return __builtin_##NAME##f(x); }
#define __WL_M2(NAME)                                                          \
  __WL_D double NAME(double x, double y) { return __builtin_##NAME(x, y); }    \
  __WL_D float NAME##f(float x, float y) { return __builtin_##NAME##f(x, y); } \
  __WL_D float NAME(float x, float y) { return __builtin_##NAME##f(x, y); }
__WL_M1(sqrt) __WL_M1(cbrt) __WL_M1(exp) __WL_M1(exp2) __WL_M1(expm1) __WL_M1(log)
__WL_M1(log2) __WL_M1(log10) __WL_M1(log1p) __WL_M1(logb) __WL_M1(sin) __WL_M1(cos)
__WL_M1(tan) __WL_M1(asin) __WL_M1(acos) __WL_M1(atan) __WL_M1(sinh) __WL_M1(cosh)
__WL_M1(tanh) __WL_M1(asinh) __WL_M1(acosh) __WL_M1(atanh) __WL_M1(fabs) __WL_M1(floor)
__WL_M1(ceil) __WL_M1(trunc) __WL_M1(round) __WL_M1(rint) __WL_M1(nearbyint) __WL_M1(erf)
__WL_M1(erfc) __WL_M1(tgamma) __WL_M1(lgamma)
__WL_M2(pow) __WL_M2(fmin) __WL_M2(fmax) __WL_M2(fmod) __WL_M2(atan2) __WL_M2(hypot)
__WL_M2(copysign) __WL_M2(fdim) __WL_M2(remainder) __WL_M2(nextafter)
__WL_D double fma(double x, double y, double z) { return __builtin_fma(x, y, z); }
__WL_D float fmaf(float x, float y, float z) { return __builtin_fmaf(x, y, z); }
__WL_D float fma(float x, float y, float z) { return __builtin_fmaf(x, y, z); }
__WL_D double ldexp(double x, int e) { return __builtin_ldexp(x, e); }
__WL_D float ldexpf(float x, int e) { return __builtin_ldexpf(x, e); }
__WL_D double frexp(double x, int *e) { return __builtin_frexp(x, e); }
__WL_D float frexpf(float x, int *e) { return __builtin_frexpf(x, e); }
__WL_D long lround(double x) { return __builtin_lround(x); }
__WL_D long lroundf(float x) { return __builtin_lroundf(x); }
__WL_D long long llround(double x) { return __builtin_llround(x); }
__WL_D long long llroundf(float x) { return __builtin_llroundf(x); }
__WL_D long lrint(double x) { return __builtin_lrint(x); }
__WL_D long lrintf(float x) { return __builtin_lrintf(x); }
__WL_D int abs(int x) { return x < 0 ? -x : x; }
__WL_D long labs(long x) { return x < 0 ? -x : x; }
__WL_D long long llabs(long long x) { return x < 0 ? -x : x; }
__WL_D long abs(long x) { return x < 0 ? -x : x; }
__WL_D long long abs(long long x) { return x < 0 ? -x : x; }
__WL_D double abs(double x) { return __builtin_fabs(x); }
__WL_D float abs(float x) { return __builtin_fabsf(x); }
__WL_D int isnan(double x) { return __builtin_isnan(x); }
__WL_D int isnan(float x) { return __builtin_isnan(x); }
__WL_D int isinf(double x) { return __builtin_isinf(x); }
__WL_D int isinf(float x) { return __builtin_isinf(x); }
__WL_D int isfinite(double x) { return __builtin_isfinite(x); }
__WL_D int isfinite(float x) { return __builtin_isfinite(x); }
__WL_D int signbit(double x) { return __builtin_signbit(x); }
__WL_D int signbit(float x) { return __builtin_signbit(x); }
__device__ float rsqrtf(float);
__device__ double rsqrt(double);
__device__ float rcbrtf(float);
__device__ double rcbrt(double);
__device__ float exp10f(float);
__device__ double exp10(double);
__device__ float sinpif(float);
__device__ double sinpi(double);
__device__ float cospif(float);
__device__ double cospi(double);
__device__ void sincosf(float, float *, float *);
__device__ void sincos(double, double *, double *);
__device__ void sincospif(float, float *, float *);
__device__ float normcdff(float);
__device__ double normcdf(double);
__device__ float erfinvf(float);
__device__ double erfinv(double);
__device__ float norm3df(float, float, float);
__device__ float rnorm3df(float, float, float);
__device__ float normf(int, const float *);

/* nvcc's min/max for integers and floating point, host and device. */
#define __WL_MINMAX(T)                                                         \
  __WL_HD T min(T a, T b) { return a < b ? a : b; }                            \
  __WL_HD T max(T a, T b) { return a < b ? b : a; }
__WL_MINMAX(int)
__WL_MINMAX(unsigned int)
__WL_MINMAX(long)
__WL_MINMAX(unsigned long)
__WL_MINMAX(long long)
__WL_MINMAX(unsigned long long)
__WL_MINMAX(float)
__WL_MINMAX(double)
__WL_HD unsigned int umin(unsigned int a, unsigned int b) { return a < b ? a : b; }
__WL_HD unsigned int umax(unsigned int a, unsigned int b) { return a < b ? b : a; }
__WL_HD long long llmin(long long a, long long b) { return a < b ? a : b; }
__WL_HD long long llmax(long long a, long long b) { return a < b ? b : a; }

/* ---- Runtime API ---------------------------------------------------------- */
enum cudaError {
  cudaSuccess = 0,
  cudaErrorInvalidValue = 1,
  cudaErrorMemoryAllocation = 2,
  cudaErrorInitializationError = 3,
  cudaErrorCudartUnloading = 4,
  cudaErrorInvalidConfiguration = 9,
  cudaErrorInvalidDevice = 101,
  cudaErrorInvalidDeviceFunction = 98,
  cudaErrorNoDevice = 100,
  cudaErrorInvalidKernelImage = 200,
  cudaErrorNotReady = 600,
  cudaErrorIllegalAddress = 700,
  cudaErrorLaunchOutOfResources = 701,
  cudaErrorLaunchTimeout = 702,
  cudaErrorLaunchFailure = 719,
  cudaErrorNotSupported = 801,
  cudaErrorUnknown = 999
};
typedef enum cudaError cudaError_t;

enum cudaMemcpyKind {
  cudaMemcpyHostToHost = 0,
  cudaMemcpyHostToDevice = 1,
  cudaMemcpyDeviceToHost = 2,
  cudaMemcpyDeviceToDevice = 3,
  cudaMemcpyDefault = 4
};

enum cudaFuncAttribute {
  cudaFuncAttributeMaxDynamicSharedMemorySize = 8,
  cudaFuncAttributePreferredSharedMemoryCarveout = 9
};
enum cudaFuncCache {
  cudaFuncCachePreferNone = 0,
  cudaFuncCachePreferShared = 1,
  cudaFuncCachePreferL1 = 2,
  cudaFuncCachePreferEqual = 3
};
enum cudaSharedMemConfig {
  cudaSharedMemBankSizeDefault = 0,
  cudaSharedMemBankSizeFourByte = 1,
  cudaSharedMemBankSizeEightByte = 2
};
enum cudaDeviceAttr {
  cudaDevAttrMaxThreadsPerBlock = 1,
  cudaDevAttrMaxSharedMemoryPerBlock = 8,
  cudaDevAttrWarpSize = 10,
  cudaDevAttrMultiProcessorCount = 16,
  cudaDevAttrComputeCapabilityMajor = 75,
  cudaDevAttrComputeCapabilityMinor = 76,
  cudaDevAttrMaxSharedMemoryPerBlockOptin = 97
};
enum cudaMemoryAdvise {
  cudaMemAdviseSetReadMostly = 1,
  cudaMemAdviseUnsetReadMostly = 2,
  cudaMemAdviseSetPreferredLocation = 3,
  cudaMemAdviseUnsetPreferredLocation = 4,
  cudaMemAdviseSetAccessedBy = 5,
  cudaMemAdviseUnsetAccessedBy = 6
};

typedef struct CUstream_st *cudaStream_t;
typedef struct CUevent_st *cudaEvent_t;
typedef struct CUgraph_st *cudaGraph_t;
typedef struct CUgraphExec_st *cudaGraphExec_t;
typedef unsigned long long cudaTextureObject_t;
typedef unsigned long long cudaSurfaceObject_t;

#define cudaStreamDefault 0x00
#define cudaStreamNonBlocking 0x01
#define cudaStreamLegacy ((cudaStream_t)0x1)
#define cudaStreamPerThread ((cudaStream_t)0x2)
#define cudaEventDefault 0x00
#define cudaEventBlockingSync 0x01
#define cudaEventDisableTiming 0x02
#define cudaHostAllocDefault 0x00
#define cudaHostAllocPortable 0x01
#define cudaHostAllocMapped 0x02
#define cudaHostAllocWriteCombined 0x04
#define cudaMemAttachGlobal 0x01
#define cudaMemAttachHost 0x02
#define cudaCpuDeviceId ((int)-1)

struct cudaDeviceProp {
  char name[256];
  char uuid[16];
  size_t totalGlobalMem;
  size_t sharedMemPerBlock;
  int regsPerBlock;
  int warpSize;
  size_t memPitch;
  int maxThreadsPerBlock;
  int maxThreadsDim[3];
  int maxGridSize[3];
  int clockRate;
  size_t totalConstMem;
  int major;
  int minor;
  size_t textureAlignment;
  int deviceOverlap;
  int multiProcessorCount;
  int kernelExecTimeoutEnabled;
  int integrated;
  int canMapHostMemory;
  int computeMode;
  int concurrentKernels;
  int ECCEnabled;
  int pciBusID;
  int pciDeviceID;
  int pciDomainID;
  int asyncEngineCount;
  int unifiedAddressing;
  int memoryClockRate;
  int memoryBusWidth;
  int l2CacheSize;
  int persistingL2CacheMaxSize;
  int maxThreadsPerMultiProcessor;
  int streamPrioritiesSupported;
  int globalL1CacheSupported;
  int localL1CacheSupported;
  size_t sharedMemPerMultiprocessor;
  int regsPerMultiprocessor;
  int managedMemory;
  int isMultiGpuBoard;
  int multiGpuBoardGroupID;
  int concurrentManagedAccess;
  int pageableMemoryAccess;
  int cooperativeLaunch;
  size_t sharedMemPerBlockOptin;
  int maxBlocksPerMultiProcessor;
  int accessPolicyMaxWindowSize;
  size_t reservedSharedMemPerBlock;
};

struct cudaFuncAttributes {
  size_t sharedSizeBytes;
  size_t constSizeBytes;
  size_t localSizeBytes;
  int maxThreadsPerBlock;
  int numRegs;
  int ptxVersion;
  int binaryVersion;
  int cacheModeCA;
  int maxDynamicSharedSizeBytes;
  int preferredShmemCarveout;
};

struct cudaPitchedPtr { void *ptr; size_t pitch; size_t xsize; size_t ysize; };
struct cudaExtent { size_t width; size_t height; size_t depth; };

extern "C" {
/* Kernel launch plumbing: clang turns `k<<<g, b, s, st>>>(...)` into a call
 * to one of these, depending on the CUDA version it assumes. */
unsigned __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem = 0,
                                     void *stream = 0);
cudaError_t cudaConfigureCall(dim3 gridDim, dim3 blockDim, size_t sharedMem = 0,
                              cudaStream_t stream = 0);
cudaError_t cudaLaunchKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args,
                             size_t sharedMem, cudaStream_t stream);
cudaError_t cudaLaunchCooperativeKernel(const void *func, dim3 gridDim, dim3 blockDim,
                                        void **args, size_t sharedMem, cudaStream_t stream);

__host__ __device__ cudaError_t cudaMalloc(void **devPtr, size_t size);
cudaError_t cudaMallocManaged(void **devPtr, size_t size, unsigned flags = cudaMemAttachGlobal);
cudaError_t cudaMallocHost(void **ptr, size_t size);
cudaError_t cudaHostAlloc(void **ptr, size_t size, unsigned flags);
cudaError_t cudaMallocPitch(void **devPtr, size_t *pitch, size_t width, size_t height);
cudaError_t cudaMallocAsync(void **devPtr, size_t size, cudaStream_t stream);
__host__ __device__ cudaError_t cudaFree(void *devPtr);
cudaError_t cudaFreeHost(void *ptr);
cudaError_t cudaFreeAsync(void *devPtr, cudaStream_t stream);
cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind);
__host__ __device__ cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count,
                                                enum cudaMemcpyKind kind, cudaStream_t stream = 0);
cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                         size_t height, enum cudaMemcpyKind kind);
cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch,
                              size_t width, size_t height, enum cudaMemcpyKind kind,
                              cudaStream_t stream = 0);
cudaError_t cudaMemcpyPeer(void *dst, int dstDevice, const void *src, int srcDevice,
                           size_t count);
cudaError_t cudaMemset(void *devPtr, int value, size_t count);
__host__ __device__ cudaError_t cudaMemsetAsync(void *devPtr, int value, size_t count,
                                                cudaStream_t stream = 0);
cudaError_t cudaMemset2D(void *devPtr, size_t pitch, int value, size_t width, size_t height);
cudaError_t cudaMemGetInfo(size_t *free, size_t *total);
cudaError_t cudaMemPrefetchAsync(const void *devPtr, size_t count, int dstDevice,
                                 cudaStream_t stream = 0);
cudaError_t cudaMemAdvise(const void *devPtr, size_t count, enum cudaMemoryAdvise advice,
                          int device);
cudaError_t cudaHostGetDevicePointer(void **pDevice, void *pHost, unsigned flags);
cudaError_t cudaHostRegister(void *ptr, size_t size, unsigned flags);
cudaError_t cudaHostUnregister(void *ptr);
cudaError_t cudaMemcpyToSymbol(const void *symbol, const void *src, size_t count,
                               size_t offset = 0,
                               enum cudaMemcpyKind kind = cudaMemcpyHostToDevice);
cudaError_t cudaMemcpyFromSymbol(void *dst, const void *symbol, size_t count, size_t offset = 0,
                                 enum cudaMemcpyKind kind = cudaMemcpyDeviceToHost);
cudaError_t cudaMemcpyToSymbolAsync(const void *symbol, const void *src, size_t count,
                                    size_t offset, enum cudaMemcpyKind kind,
                                    cudaStream_t stream = 0);
cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const void *symbol, size_t count,
                                      size_t offset, enum cudaMemcpyKind kind,
                                      cudaStream_t stream = 0);
cudaError_t cudaGetSymbolAddress(void **devPtr, const void *symbol);

__host__ __device__ cudaError_t cudaDeviceSynchronize(void);
cudaError_t cudaDeviceReset(void);
__host__ __device__ cudaError_t cudaGetLastError(void);
__host__ __device__ cudaError_t cudaPeekAtLastError(void);
__host__ __device__ const char *cudaGetErrorString(cudaError_t error);
__host__ __device__ const char *cudaGetErrorName(cudaError_t error);
cudaError_t cudaSetDevice(int device);
__host__ __device__ cudaError_t cudaGetDevice(int *device);
__host__ __device__ cudaError_t cudaGetDeviceCount(int *count);
cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device);
__host__ __device__ cudaError_t cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr attr,
                                                       int device);
cudaError_t cudaDeviceSetCacheConfig(enum cudaFuncCache cacheConfig);
cudaError_t cudaDeviceSetSharedMemConfig(enum cudaSharedMemConfig config);
cudaError_t cudaDeviceCanAccessPeer(int *canAccessPeer, int device, int peerDevice);
cudaError_t cudaDeviceEnablePeerAccess(int peerDevice, unsigned flags);
cudaError_t cudaDriverGetVersion(int *driverVersion);
cudaError_t cudaRuntimeGetVersion(int *runtimeVersion);

cudaError_t cudaStreamCreate(cudaStream_t *stream);
cudaError_t cudaStreamCreateWithFlags(cudaStream_t *stream, unsigned flags);
cudaError_t cudaStreamCreateWithPriority(cudaStream_t *stream, unsigned flags, int priority);
__host__ __device__ cudaError_t cudaStreamDestroy(cudaStream_t stream);
cudaError_t cudaStreamSynchronize(cudaStream_t stream);
cudaError_t cudaStreamQuery(cudaStream_t stream);
__host__ __device__ cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event,
                                                    unsigned flags = 0);
cudaError_t cudaEventCreate(cudaEvent_t *event);
__host__ __device__ cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned flags);
__host__ __device__ cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream = 0);
cudaError_t cudaEventSynchronize(cudaEvent_t event);
cudaError_t cudaEventQuery(cudaEvent_t event);
cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end);
__host__ __device__ cudaError_t cudaEventDestroy(cudaEvent_t event);

cudaError_t cudaFuncSetAttribute(const void *func, enum cudaFuncAttribute attr, int value);
cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr, const void *func);
cudaError_t cudaFuncSetCacheConfig(const void *func, enum cudaFuncCache cacheConfig);
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, const void *func,
                                                          int blockSize,
                                                          size_t dynamicSMemSize);
cudaError_t cudaOccupancyMaxPotentialBlockSize(int *minGridSize, int *blockSize,
                                               const void *func, size_t dynamicSMemSize = 0,
                                               int blockSizeLimit = 0);
} // extern "C"

/* The C++ conveniences of cuda_runtime.h. */
template <class T> inline cudaError_t cudaMalloc(T **devPtr, size_t size) {
  return cudaMalloc((void **)(void *)devPtr, size);
}
template <class T>
inline cudaError_t cudaMallocManaged(T **devPtr, size_t size,
                                     unsigned flags = cudaMemAttachGlobal) {
  return cudaMallocManaged((void **)(void *)devPtr, size, flags);
}
template <class T> inline cudaError_t cudaMallocHost(T **ptr, size_t size, unsigned flags = 0) {
  return cudaHostAlloc((void **)(void *)ptr, size, flags);
}
template <class T> inline cudaError_t cudaHostAlloc(T **ptr, size_t size, unsigned flags) {
  return cudaHostAlloc((void **)(void *)ptr, size, flags);
}
template <class T>
inline cudaError_t cudaMallocPitch(T **devPtr, size_t *pitch, size_t width, size_t height) {
  return cudaMallocPitch((void **)(void *)devPtr, pitch, width, height);
}
template <class T>
inline cudaError_t cudaMallocAsync(T **devPtr, size_t size, cudaStream_t stream) {
  return cudaMallocAsync((void **)(void *)devPtr, size, stream);
}
template <class T>
inline cudaError_t cudaMemcpyToSymbol(const T &symbol, const void *src, size_t count,
                                      size_t offset = 0,
                                      enum cudaMemcpyKind kind = cudaMemcpyHostToDevice) {
  return cudaMemcpyToSymbol((const void *)&symbol, src, count, offset, kind);
}
template <class T>
inline cudaError_t cudaMemcpyFromSymbol(void *dst, const T &symbol, size_t count,
                                        size_t offset = 0,
                                        enum cudaMemcpyKind kind = cudaMemcpyDeviceToHost) {
  return cudaMemcpyFromSymbol(dst, (const void *)&symbol, count, offset, kind);
}
template <class T>
inline cudaError_t cudaMemcpyToSymbolAsync(const T &symbol, const void *src, size_t count,
                                           size_t offset = 0,
                                           enum cudaMemcpyKind kind = cudaMemcpyHostToDevice,
                                           cudaStream_t stream = 0) {
  return cudaMemcpyToSymbolAsync((const void *)&symbol, src, count, offset, kind, stream);
}
template <class T>
inline cudaError_t cudaGetSymbolAddress(void **devPtr, const T &symbol) {
  return cudaGetSymbolAddress(devPtr, (const void *)&symbol);
}
template <class T>
inline cudaError_t cudaFuncSetAttribute(T *entry, enum cudaFuncAttribute attr, int value) {
  return cudaFuncSetAttribute((const void *)entry, attr, value);
}
template <class T>
inline cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr, T *entry) {
  return cudaFuncGetAttributes(attr, (const void *)entry);
}
template <class T>
inline cudaError_t cudaFuncSetCacheConfig(T *func, enum cudaFuncCache cacheConfig) {
  return cudaFuncSetCacheConfig((const void *)func, cacheConfig);
}
template <class T>
inline cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, T func,
                                                                 int blockSize,
                                                                 size_t dynamicSMemSize) {
  return cudaOccupancyMaxActiveBlocksPerMultiprocessor(numBlocks, (const void *)func, blockSize,
                                                       dynamicSMemSize);
}
template <class T>
inline cudaError_t cudaOccupancyMaxPotentialBlockSize(int *minGridSize, int *blockSize, T func,
                                                      size_t dynamicSMemSize = 0,
                                                      int blockSizeLimit = 0) {
  return cudaOccupancyMaxPotentialBlockSize(minGridSize, blockSize, (const void *)func,
                                            dynamicSMemSize, blockSizeLimit);
}
template <class T>
inline cudaError_t cudaLaunchKernel(T *func, dim3 gridDim, dim3 blockDim, void **args,
                                    size_t sharedMem = 0, cudaStream_t stream = 0) {
  return cudaLaunchKernel((const void *)func, gridDim, blockDim, args, sharedMem, stream);
}

#undef __WL_VEC1
#undef __WL_VEC2
#undef __WL_VEC3
#undef __WL_VEC4
#undef __WL_VECS
#undef __WL_MAKE1
#undef __WL_MAKE2
#undef __WL_MAKE3
#undef __WL_MAKE4
#undef __WL_MAKES
#undef __WL_ATOMIC2
#undef __WL_ATOMIC_SCOPES
#undef __WL_ATOMIC_INTS
#undef __WL_CAS
#undef __WL_CAS_SCOPES
#undef __WL_SHFL
#undef __WL_LOAD
#undef __WL_STORE
#undef __WL_MEMTYPES
#undef __WL_ROUNDED_F
#undef __WL_M1
#undef __WL_M2
#undef __WL_MINMAX

#endif /* WARPLINT_CUDA_MINIMAL_H */
