// Open defect (bench/README.md, "Fuzzing and sanitizers", row 6): the byte after
// 'threadId' below is not UTF-8; `warplint check --dump-model` ends with
// "internal error: [json.exception.type_error.316] invalid UTF-8 byte" (exit 2),
// check_fuzzer with std::terminate. Found by check_fuzzer (a mutant of tests/lit/fixes/nvcc-verify.cu, cut to the kernel).
__global__ void transpose(float *out) {
  __shared__ float tile[32][32];
  tile[threadIdî.y][threadIdx.x] = threadIdx.x;
}
