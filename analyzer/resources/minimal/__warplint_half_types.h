/* warplint minimal-CUDA mode: one macro declares a 16-bit float type, its
 * pair type and their functions (used by cuda_fp16.h and cuda_bf16.h). */
#pragma once
// Declarations, not the user's code: the analyzer skips system headers.
#pragma clang system_header
#define WARPLINT_HALF_TYPE(H, H2, SUF, SUF2, F2H, H2F, F22H2, H22F2)              \
  struct __attribute__((aligned(2))) H {                                       \
    unsigned short __x;                                                        \
    H() = default;                                                             \
    __host__ __device__ H(float f);                                            \
    __host__ __device__ H(double f);                                           \
    __host__ __device__ H(int i);                                              \
    __host__ __device__ H(unsigned i);                                         \
    __host__ __device__ operator float() const;                                \
    __host__ __device__ H &operator=(float f);                                 \
    __device__ H &operator+=(const H &o);                                      \
    __device__ H &operator-=(const H &o);                                      \
    __device__ H &operator*=(const H &o);                                      \
    __device__ H &operator/=(const H &o);                                      \
  };                                                                           \
  struct __attribute__((aligned(4))) H2 {                                      \
    H x, y;                                                                    \
    H2() = default;                                                            \
    __host__ __device__ H2(const H &a, const H &b) : x(a), y(b) {}             \
    __device__ H2 &operator+=(const H2 &o);                                    \
    __device__ H2 &operator*=(const H2 &o);                                    \
  };                                                                           \
  __device__ H operator+(const H &a, const H &b);                              \
  __device__ H operator-(const H &a, const H &b);                              \
  __device__ H operator*(const H &a, const H &b);                              \
  __device__ H operator/(const H &a, const H &b);                              \
  __device__ H operator-(const H &a);                                          \
  __device__ bool operator<(const H &a, const H &b);                           \
  __device__ bool operator>(const H &a, const H &b);                           \
  __device__ bool operator==(const H &a, const H &b);                          \
  __device__ H2 operator+(const H2 &a, const H2 &b);                           \
  __device__ H2 operator*(const H2 &a, const H2 &b);                           \
  __host__ __device__ H __##F2H(float f);                                      \
  __host__ __device__ H __##F2H##_rn(float f);                                 \
  __host__ __device__ float __##H2F(H h);                                      \
  __host__ __device__ H2 __float2##F22H2##2_rn(float2 f);                      \
  __host__ __device__ H2 __float##F22H2##2_rn(float f);                        \
  __host__ __device__ H2 __floats##F22H2##2_rn(float a, float b);              \
  __host__ __device__ float2 __##H22F2(H2 h);                                  \
  __host__ __device__ H2 __##SUF##2##SUF2(H h);                                \
  __host__ __device__ H2 make_##SUF2(H a, H b);                                \
  __device__ H __low2##SUF(H2 h);                                              \
  __device__ H __high2##SUF(H2 h);                                             \
  __device__ H2 __halves2##SUF2(H a, H b);                                     \
  __device__ H __hadd(H a, H b);                                               \
  __device__ H __hsub(H a, H b);                                               \
  __device__ H __hmul(H a, H b);                                               \
  __device__ H __hdiv(H a, H b);                                               \
  __device__ H __hfma(H a, H b, H c);                                          \
  __device__ H __hmax(H a, H b);                                               \
  __device__ H __hmin(H a, H b);                                               \
  __device__ H __hneg(H a);                                                    \
  __device__ H hexp(H a);                                                      \
  __device__ H hsqrt(H a);                                                     \
  __device__ H hrsqrt(H a);                                                    \
  __device__ H2 __hadd2(H2 a, H2 b);                                           \
  __device__ H2 __hmul2(H2 a, H2 b);                                           \
  __device__ H2 __hfma2(H2 a, H2 b, H2 c);                                     \
  __device__ H2 __hmax2(H2 a, H2 b);                                           \
  __device__ H __ldg(const H *p);                                              \
  __device__ H2 __ldg(const H2 *p);                                            \
  __device__ H __shfl_sync(unsigned mask, H var, int srcLane, int width = 32); \
  __device__ H __shfl_down_sync(unsigned mask, H var, unsigned d, int width = 32); \
  __device__ H __shfl_xor_sync(unsigned mask, H var, int m, int width = 32);   \
  __device__ H2 __shfl_down_sync(unsigned mask, H2 var, unsigned d, int width = 32); \
  __device__ H2 __shfl_xor_sync(unsigned mask, H2 var, int m, int width = 32); \
  __device__ H atomicAdd(H *address, H val);                                   \
  __device__ H2 atomicAdd(H2 *address, H2 val);
