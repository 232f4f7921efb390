/* warplint minimal-CUDA mode: declarations of the common cooperative groups
 * API, enough to parse kernels that use it. */
#pragma once
// Declarations, not the user's code: the analyzer skips system headers.
#pragma clang system_header

namespace cooperative_groups {

struct thread_group {
  __device__ void sync() const;
  __device__ unsigned long long thread_rank() const;
  __device__ unsigned long long num_threads() const;
  __device__ unsigned long long size() const;
};

struct thread_block : thread_group {
  __device__ dim3 group_index() const;
  __device__ dim3 thread_index() const;
  __device__ dim3 group_dim() const;
  __device__ dim3 dim_threads() const;
};

struct grid_group : thread_group {
  __device__ bool is_valid() const;
  __device__ dim3 group_dim() const;
  __device__ dim3 block_index() const;
  __device__ unsigned long long block_rank() const;
  __device__ unsigned long long num_blocks() const;
};

struct coalesced_group : thread_group {
  __device__ unsigned meta_group_rank() const;
  __device__ unsigned meta_group_size() const;
  template <class T> __device__ T shfl(T var, unsigned srcRank) const;
  template <class T> __device__ T shfl_down(T var, unsigned delta) const;
  template <class T> __device__ T shfl_up(T var, unsigned delta) const;
  __device__ int any(int predicate) const;
  __device__ int all(int predicate) const;
  __device__ unsigned ballot(int predicate) const;
};

template <unsigned Size, class ParentT = void> struct thread_block_tile : thread_group {
  static constexpr unsigned num_threads() { return Size; }
  static constexpr unsigned size() { return Size; }
  __device__ unsigned meta_group_rank() const;
  __device__ unsigned meta_group_size() const;
  template <class T> __device__ T shfl(T var, int srcRank) const;
  template <class T> __device__ T shfl_down(T var, unsigned delta) const;
  template <class T> __device__ T shfl_up(T var, unsigned delta) const;
  template <class T> __device__ T shfl_xor(T var, unsigned laneMask) const;
  __device__ int any(int predicate) const;
  __device__ int all(int predicate) const;
  __device__ unsigned ballot(int predicate) const;
  template <class T> __device__ unsigned match_any(T value) const;
  __device__ operator thread_block_tile<Size, void>() const;
};

__device__ thread_block this_thread_block();
__device__ grid_group this_grid();
__device__ coalesced_group coalesced_threads();
template <unsigned Size, class ParentT>
__device__ thread_block_tile<Size, ParentT> tiled_partition(const ParentT &parent);
__device__ thread_group tiled_partition(const thread_group &parent, unsigned tileSize);
template <class Group> __device__ void sync(const Group &g) { g.sync(); }

template <class T> struct plus { __device__ T operator()(T a, T b) const { return a + b; } };
template <class T> struct less { __device__ T operator()(T a, T b) const { return a < b ? a : b; } };
template <class T> struct greater { __device__ T operator()(T a, T b) const { return a < b ? b : a; } };
template <class T> struct bit_and { __device__ T operator()(T a, T b) const { return a & b; } };
template <class T> struct bit_or { __device__ T operator()(T a, T b) const { return a | b; } };
template <class T> struct bit_xor { __device__ T operator()(T a, T b) const { return a ^ b; } };
template <class Group, class T, class Op> __device__ T reduce(const Group &g, T value, Op op);
template <class Group, class T, class Op> __device__ T inclusive_scan(const Group &g, T value, Op op);
template <class Group, class T, class Op> __device__ T exclusive_scan(const Group &g, T value, Op op);

} // namespace cooperative_groups
