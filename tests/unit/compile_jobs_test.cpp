// Compile command translation, CUDA location and the clang command line.
#include "analyzer/frontend/CompileJobs.h"

#include <clang/Basic/Diagnostic.h>
#include <clang/Basic/DiagnosticOptions.h>
#include <clang/Basic/FileManager.h>
#include <clang/Frontend/FrontendActions.h>
#include <clang/Frontend/TextDiagnosticBuffer.h>
#include <clang/Tooling/Tooling.h>
#include <llvm/ADT/SmallString.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/raw_ostream.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <map>
#include <optional>

using namespace warplint;

namespace {

bool has(const std::vector<std::string> &v, const std::string &s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

// `a` immediately followed by `b`.
bool hasPair(const std::vector<std::string> &v, const std::string &a, const std::string &b) {
  for (size_t i = 0; i + 1 < v.size(); ++i)
    if (v[i] == a && v[i + 1] == b)
      return true;
  return false;
}

bool anyContains(const std::vector<std::string> &v, const std::string &s) {
  return std::any_of(v.begin(), v.end(),
                     [&](const std::string &x) { return x.find(s) != std::string::npos; });
}

std::string joined(const std::vector<std::string> &v) {
  std::string s;
  for (const auto &x : v)
    s += (s.empty() ? "" : " ") + x;
  return s;
}

class TempDir {
public:
  TempDir() {
    llvm::SmallString<128> p;
    llvm::sys::fs::createUniqueDirectory("warplint-cj", p);
    llvm::SmallString<256> real;
    llvm::sys::fs::real_path(p, real);
    path_ = std::string(real.str());
  }
  ~TempDir() { llvm::sys::fs::remove_directories(path_); }
  const std::string &path() const { return path_; }
  std::string operator/(const std::string &rel) const { return path_ + "/" + rel; }
  std::string write(const std::string &rel, const std::string &text) const {
    std::string full = *this / rel;
    llvm::sys::fs::create_directories(llvm::sys::path::parent_path(full));
    std::ofstream(full) << text;
    return full;
  }
  void mkdir(const std::string &rel) const { llvm::sys::fs::create_directories(*this / rel); }

private:
  std::string path_;
};

// Saves and restores the environment variables the locator reads.
class EnvGuard {
public:
  EnvGuard() {
    for (const char *n : {"CUDA_PATH", "WARPLINT_CUDA_SEARCH", "PATH"}) {
      const char *v = std::getenv(n);
      saved_[n] = v ? std::optional<std::string>(v) : std::nullopt;
    }
  }
  ~EnvGuard() {
    for (auto &[n, v] : saved_) {
      if (v)
        setenv(n.c_str(), v->c_str(), 1);
      else
        unsetenv(n.c_str());
    }
  }

private:
  std::map<std::string, std::optional<std::string>> saved_;
};

std::vector<std::string> translate(const std::vector<std::string> &cmd,
                                   const std::string &dir = "/build",
                                   std::vector<std::string> *notes = nullptr) {
  return translateCompileCommand(cmd, dir, notes);
}

const char *kSampleKernel = R"(
#include <cstdio>
#include <cmath>
#include <cuda_runtime.h>
#define TILE 32
__constant__ float coeff[8];
template <int BS>
__global__ void __launch_bounds__(BS) reduce(const float *__restrict__ in, float *out, int n) {
  __shared__ float s[BS];
  unsigned tid = threadIdx.x, i = blockIdx.x * blockDim.x + tid;
  s[tid] = i < n ? __ldg(&in[i]) : 0.f;
  __syncthreads();
  for (int st = blockDim.x / 2; st > 32; st >>= 1) {
    if (tid < st) s[tid] += s[tid + st];
    __syncthreads();
  }
  float v = s[tid];
  for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffffu, v, o);
  unsigned b = __ballot_sync(0xffffffffu, v > 0.f);
  if (tid == 0) atomicAdd(out, v + __popc(b) + __expf(v) + sqrtf(fabsf(v)) + coeff[0]);
  if (__any_sync(0xffffffffu, v < 0.f)) printf("negative at %u\n", tid);
}
__global__ void transpose(float *out, const float *in, int n) {
  __shared__ float tile[TILE][TILE];
  int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = in[y * n + x];
  __syncthreads();
  out[x * n + y] = tile[threadIdx.x][threadIdx.y];
  atomicCAS((int *)out, 0, 1);
  atomicMax((unsigned *)out, 2u);
  dim3 t = threadIdx; (void)t;
  float4 f = make_float4(1.f, 2.f, 3.f, (float)warpSize); (void)f;
}
int main() {
  float *d = nullptr;
  if (cudaMalloc(&d, 1 << 20) != cudaSuccess) return 1;
  cudaStream_t s; cudaStreamCreate(&s);
  dim3 block(32, 32), grid(8, 8);
  transpose<<<grid, block>>>(d, d, 256);
  reduce<256><<<64, 256, 0, s>>>(d, d, 1 << 14);
  float h[8] = {}; cudaMemcpyToSymbol(coeff, h, sizeof(h));
  cudaMemcpyAsync(h, d, sizeof(h), cudaMemcpyDeviceToHost, s);
  cudaDeviceProp p; cudaGetDeviceProperties(&p, 0);
  cudaDeviceSynchronize();
  printf("%s %d\n", cudaGetErrorString(cudaGetLastError()), p.multiProcessorCount);
  cudaFree(d);
}
)";

// Runs the clang command through libclang's tooling, as the analyzer does,
// and returns the error messages.
std::vector<std::string> parseErrors(const ClangCommand &cmd) {
  llvm::IntrusiveRefCntPtr<clang::FileManager> files(
      new clang::FileManager(clang::FileSystemOptions()));
  clang::TextDiagnosticBuffer diags;
  clang::tooling::ToolInvocation inv(cmd.argv, std::make_unique<clang::SyntaxOnlyAction>(),
                                     files.get());
  inv.setDiagnosticConsumer(&diags);
  bool ok = inv.run();
  std::vector<std::string> errors;
  for (auto it = diags.err_begin(); it != diags.err_end(); ++it)
    errors.push_back(it->second);
  if (!ok && errors.empty())
    errors.push_back("clang tooling failed without diagnostics");
  return errors;
}

} // namespace

// ---- translateCompileCommand ---------------------------------------------

TEST(CompileJobs, CMake325NvccLine) {
  TempDir tmp;
  tmp.mkdir("build/CMakeFiles/k.dir");
  tmp.write("build/CMakeFiles/k.dir/includes_CUDA.rsp",
            "-I" + tmp.path() + "/src/include -isystem=/opt/sys/include\n");
  // As CMake 3.25 writes it for a CUDA target (POSITION_INDEPENDENT_CODE,
  // CUDA_ARCHITECTURES 90, CUDA_STANDARD 17).
  std::vector<std::string> cmd = {"/usr/local/cuda/bin/nvcc",
                                  "-forward-unknown-to-host-compiler",
                                  "-DTILE=32",
                                  "--options-file",
                                  "CMakeFiles/k.dir/includes_CUDA.rsp",
                                  "--generate-code=arch=compute_90,code=[compute_90,sm_90]",
                                  "-Xcompiler=-fPIC",
                                  "--expt-relaxed-constexpr",
                                  "-std=c++17",
                                  "-x",
                                  "cu",
                                  "-c",
                                  tmp.path() + "/src/k.cu",
                                  "-o",
                                  "CMakeFiles/k.dir/k.cu.o"};
  std::vector<std::string> notes;
  auto flags = translate(cmd, tmp / "build", &notes);
  EXPECT_TRUE(has(flags, "-DTILE=32")) << joined(flags);
  EXPECT_TRUE(has(flags, "-I" + tmp.path() + "/src/include")) << joined(flags);
  EXPECT_TRUE(hasPair(flags, "-isystem", "/opt/sys/include")) << joined(flags);
  EXPECT_TRUE(has(flags, "-std=c++17"));
  EXPECT_TRUE(hasPair(flags, "-x", "cuda"));
  EXPECT_TRUE(has(flags, "--cuda-gpu-arch=sm_90"));
  EXPECT_FALSE(anyContains(flags, "fPIC"));
  EXPECT_FALSE(anyContains(flags, "k.cu"));
  EXPECT_FALSE(has(flags, "-c"));
  EXPECT_FALSE(has(flags, "-o"));
  EXPECT_TRUE(notes.empty()) << joined(notes);
}

TEST(CompileJobs, CMakeCommandStringFromDatabase) {
  TempDir tmp;
  tmp.write("src/k.cu", "__global__ void k() {}\n");
  tmp.write("build/CMakeFiles/k.dir/includes_CUDA.rsp", "-I" + tmp.path() + "/src/include");
  tmp.write("build/compile_commands.json", R"([
{
  "directory": ")" + tmp.path() + R"(/build",
  "command": "/usr/local/cuda/bin/nvcc -forward-unknown-to-host-compiler -DTILE=32 -DMSG=\"\\\"hi there\\\"\" --options-file CMakeFiles/k.dir/includes_CUDA.rsp  --generate-code=arch=compute_90,code=[compute_90,sm_90] -Xcompiler=-fPIC --expt-relaxed-constexpr -std=c++17 -x cu -c )" +
                                           tmp.path() + R"(/src/k.cu -o CMakeFiles/k.dir/k.cu.o",
  "file": ")" + tmp.path() + R"(/src/k.cu"
}
])");
  std::vector<CompileJob> jobs;
  std::string error;
  ASSERT_TRUE(loadCompileJobs(tmp / "build", {}, jobs, error)) << error;
  ASSERT_EQ(jobs.size(), 1u);
  EXPECT_EQ(jobs[0].file, tmp / "src/k.cu");
  EXPECT_EQ(jobs[0].directory, tmp / "build");
  EXPECT_TRUE(jobs[0].fromDatabase);
  EXPECT_TRUE(has(jobs[0].flags, "-DMSG=\"hi there\"")) << joined(jobs[0].flags);
  EXPECT_TRUE(has(jobs[0].flags, "-I" + tmp.path() + "/src/include")) << joined(jobs[0].flags);
  EXPECT_TRUE(has(jobs[0].flags, "--cuda-gpu-arch=sm_90"));
}

TEST(CompileJobs, GencodeListsPickHighestRealArch) {
  std::vector<std::string> notes;
  auto flags = translate({"nvcc", "-gencode", "arch=compute_70,code=sm_70", "-gencode=arch=compute_80,code=[sm_80,compute_80]",
                          "--generate-code=arch=compute_75,code=[compute_75,sm_75]", "-c", "a.cu"},
                         "/b", &notes);
  EXPECT_TRUE(has(flags, "--cuda-gpu-arch=sm_80")) << joined(flags);
  EXPECT_EQ(std::count_if(flags.begin(), flags.end(),
                          [](auto &f) { return f.rfind("--cuda-gpu-arch", 0) == 0; }),
            1);
  EXPECT_TRUE(anyContains(notes, "parsing once for sm_80")) << joined(notes);

  flags = translate({"nvcc", "-gencode", "arch=compute_80,code=\"sm_80,sm_86\"", "a.cu"});
  EXPECT_TRUE(has(flags, "--cuda-gpu-arch=sm_86")) << joined(flags);
  // Only a virtual arch: use its number.
  flags = translate({"nvcc", "-gencode", "arch=compute_61,code=compute_61", "a.cu"});
  EXPECT_TRUE(has(flags, "--cuda-gpu-arch=sm_61")) << joined(flags);
}

TEST(CompileJobs, ArchSpellings) {
  EXPECT_TRUE(has(translate({"nvcc", "-arch=sm_86"}), "--cuda-gpu-arch=sm_86"));
  EXPECT_TRUE(has(translate({"nvcc", "-arch", "sm_70"}), "--cuda-gpu-arch=sm_70"));
  EXPECT_TRUE(has(translate({"nvcc", "--gpu-architecture=compute_80"}), "--cuda-gpu-arch=sm_80"));
  EXPECT_TRUE(has(translate({"nvcc", "--gpu-architecture", "sm_75"}), "--cuda-gpu-arch=sm_75"));
  EXPECT_TRUE(has(translate({"nvcc", "-arch=compute_80", "-code=sm_80,sm_89"}),
                  "--cuda-gpu-arch=sm_89"));
  EXPECT_TRUE(has(translate({"nvcc", "-gencode", "arch=compute_90a,code=sm_90a"}),
                  "--cuda-gpu-arch=sm_90a"));
  EXPECT_TRUE(has(translate({"clang++", "--cuda-gpu-arch=sm_80"}), "--cuda-gpu-arch=sm_80"));
  EXPECT_TRUE(has(translate({"clang++", "--offload-arch=sm_75"}), "--cuda-gpu-arch=sm_75"));

  // Newer than clang 19 knows: the highest it does, with a note.
  std::vector<std::string> notes;
  EXPECT_TRUE(has(translate({"nvcc", "-arch=sm_100a"}, "/b", &notes), "--cuda-gpu-arch=sm_90"));
  EXPECT_TRUE(anyContains(notes, "sm_100a")) << joined(notes);

  // native / all / all-major: no arch here, so the default applies, with a note.
  for (const char *special : {"-arch=native", "-arch=all", "-arch=all-major"}) {
    notes.clear();
    auto flags = translate({"nvcc", special}, "/b", &notes);
    EXPECT_FALSE(anyContains(flags, "--cuda-gpu-arch")) << special;
    EXPECT_TRUE(anyContains(notes, "default GPU architecture")) << special;
  }
}

TEST(CompileJobs, IncludeAndMacroSpellings) {
  auto flags = translate({"nvcc", "-I", "inc", "-Iinc2", "--include-path=inc3", "--include-path",
                          "/abs/inc4", "-isystem", "sys", "-isystem=sys2", "--system-include=/s3",
                          "-D", "A=1", "-DB", "--define-macro=C=3", "--define-macro", "D",
                          "-U", "E", "-UF", "--undefine-macro=G", "--std", "c++20",
                          "-include", "/abs/pre.h", "-iquote", "q"},
                         "/work/b");
  for (const char *f : {"-I/work/b/inc", "-I/work/b/inc2", "-I/work/b/inc3", "-I/abs/inc4",
                        "-DA=1", "-DB", "-DC=3", "-DD", "-UE", "-UF", "-UG", "-std=c++20"})
    EXPECT_TRUE(has(flags, f)) << f << " in " << joined(flags);
  EXPECT_TRUE(hasPair(flags, "-isystem", "/work/b/sys"));
  EXPECT_TRUE(hasPair(flags, "-isystem", "/work/b/sys2"));
  EXPECT_TRUE(hasPair(flags, "-isystem", "/s3"));
  EXPECT_TRUE(hasPair(flags, "-include", "/abs/pre.h"));
  EXPECT_TRUE(hasPair(flags, "-iquote", "/work/b/q"));
  // Relative ../ paths are normalized.
  EXPECT_TRUE(has(translate({"nvcc", "-I../include"}, "/work/b"), "-I/work/include"));
  EXPECT_TRUE(has(translate({"nvcc", "-std=c++14"}), "-std=c++14"));
}

TEST(CompileJobs, XcompilerKeepsPreprocessorFlagsOnly) {
  std::vector<std::string> notes;
  auto flags = translate({"nvcc", "-Xcompiler=-fPIC,-Wall,-DHOSTDEF=1", "-Xcompiler", "-fopenmp",
                          "-Xcompiler", "-Wextra -I/abs/hinc", "--compiler-options", "-O2,-UX",
                          "-Xcompiler", "-isystem,/abs/hsys"},
                         "/b", &notes);
  EXPECT_TRUE(has(flags, "-DHOSTDEF=1")) << joined(flags);
  EXPECT_TRUE(has(flags, "-I/abs/hinc")) << joined(flags);
  EXPECT_TRUE(has(flags, "-UX")) << joined(flags);
  EXPECT_TRUE(hasPair(flags, "-isystem", "/abs/hsys")) << joined(flags);
  EXPECT_FALSE(anyContains(flags, "PIC"));
  EXPECT_FALSE(anyContains(flags, "openmp"));
  EXPECT_FALSE(anyContains(flags, "-W"));
  EXPECT_TRUE(notes.empty()) << joined(notes);
}

TEST(CompileJobs, NvccFlagsClangCannotUseAreDropped) {
  std::vector<std::string> notes;
  auto flags = translate(
      {"/usr/local/cuda/bin/nvcc", "-ccbin", "/usr/bin/g++-12", "--compiler-bindir=/usr/bin",
       "-Xptxas", "-v", "-Xptxas=-O3,-warn-spills", "-Xlinker", "--no-undefined", "-rdc=true",
       "--relocatable-device-code", "true", "-dc", "--expt-relaxed-constexpr",
       "--expt-extended-lambda", "--extended-lambda", "--use_fast_math", "-lineinfo", "-G", "-g",
       "-O3", "--keep", "-MD", "-MT", "obj.o", "-MF", "obj.d", "--diag-suppress", "177",
       "--diag-suppress=20012", "-Werror", "all-warnings", "-Werror=cross-execution-space-call",
       "-Wno-deprecated-gpu-targets", "--threads", "4", "-t", "0", "-maxrregcount=64",
       "-forward-unknown-to-host-compiler", "-fPIC", "-Wall", "-x", "cu", "-c", "a.cu", "-o",
       "a.o"},
      "/b", &notes);
  EXPECT_EQ(joined(flags), "-x cuda");
  EXPECT_TRUE(notes.empty()) << joined(notes);
}

TEST(CompileJobs, UnknownFlagsDroppedWithNote) {
  std::vector<std::string> notes;
  auto flags = translate({"nvcc", "--frobnicate", "-DOK", "a.cu"}, "/b", &notes);
  EXPECT_EQ(joined(flags), "-DOK");
  EXPECT_TRUE(anyContains(notes, "--frobnicate")) << joined(notes);
}

TEST(CompileJobs, ResponseAndOptionsFiles) {
  TempDir tmp;
  tmp.write("b/args.rsp", "-DMSG=\"hello world\" -Iinc @nested.rsp\n");
  tmp.write("b/nested.rsp", "-DNESTED\n");
  tmp.write("b/opts.txt", "-arch=sm_80 -DFROM_OPTF\n");
  tmp.write("b/opts2.txt", "-DSECOND\n");
  std::vector<std::string> notes;
  auto flags = translate({"nvcc", "@args.rsp", "-optf", "opts.txt", "--options-file=opts2.txt",
                          "--options-file", "missing.txt", "a.cu"},
                         tmp / "b", &notes);
  EXPECT_TRUE(has(flags, "-DMSG=hello world")) << joined(flags);
  EXPECT_TRUE(has(flags, "-I" + (tmp / "b/inc"))) << joined(flags);
  EXPECT_TRUE(has(flags, "-DNESTED"));
  EXPECT_TRUE(has(flags, "-DFROM_OPTF"));
  EXPECT_TRUE(has(flags, "-DSECOND"));
  EXPECT_TRUE(has(flags, "--cuda-gpu-arch=sm_80"));
  EXPECT_TRUE(anyContains(notes, "missing.txt")) << joined(notes);
}

TEST(CompileJobs, ClangAndGccLines) {
  std::vector<std::string> notes;
  auto flags = translate({"/usr/bin/clang++", "--cuda-gpu-arch=sm_80", "-x", "cuda", "-Iinc",
                          "-DX", "-std=c++17", "-fno-exceptions", "-Xclang", "-fsomething",
                          "--cuda-path=/opt/cuda", "-fPIC", "-Wall", "-c", "a.cu", "-o", "a.o"},
                         "/w", &notes);
  EXPECT_TRUE(has(flags, "-I/w/inc"));
  EXPECT_TRUE(has(flags, "-DX"));
  EXPECT_TRUE(has(flags, "-std=c++17"));
  EXPECT_TRUE(has(flags, "-fno-exceptions"));
  EXPECT_TRUE(has(translate({"g++", "-ftemplate-depth=2048", "-fPIC"}), "-ftemplate-depth=2048"));
  EXPECT_TRUE(hasPair(flags, "-x", "cuda"));
  EXPECT_TRUE(has(flags, "--cuda-gpu-arch=sm_80"));
  EXPECT_FALSE(anyContains(flags, "cuda-path"));
  EXPECT_FALSE(anyContains(flags, "fsomething"));
  EXPECT_TRUE(anyContains(notes, "-Xclang")) << joined(notes);

  notes.clear();
  flags = translate({"g++", "-x", "c++", "-I/x", "-O2", "-c", "b.cpp"}, "/w", &notes);
  EXPECT_EQ(joined(flags), "-I/x");
  EXPECT_TRUE(anyContains(notes, "-x c++")) << joined(notes);

  // A launcher in front of the compiler.
  flags = translate({"/usr/bin/ccache", "/usr/local/cuda/bin/nvcc", "-DY", "a.cu"});
  EXPECT_EQ(joined(flags), "-DY");
}

// ---- loadCompileJobs / jobsForFiles ----------------------------------------

TEST(CompileJobs, LoadDatabaseSelectsCudaSources) {
  TempDir tmp;
  tmp.write("src/a.cu", "");
  tmp.write("src/b.cpp", "");
  tmp.write("src/c.cpp", "");
  tmp.write("build/compile_commands.json", R"([
  {"directory": ")" + tmp.path() + R"(/build", "file": "../src/a.cu",
   "arguments": ["nvcc", "-Iinc", "-arch=sm_80", "-c", "../src/a.cu", "-o", "a.o"]},
  {"directory": ")" + tmp.path() + R"(/build", "file": ")" + tmp.path() + R"(/src/b.cpp",
   "command": "/usr/bin/g++ -DHOST -c )" + tmp.path() + R"(/src/b.cpp -o b.o"},
  {"directory": ")" + tmp.path() + R"(/build", "file": ")" + tmp.path() + R"(/src/c.cpp",
   "command": "nvcc -x cu -DCU -c )" + tmp.path() + R"(/src/c.cpp -o c.o"}
])");
  std::vector<CompileJob> jobs;
  std::string error;
  ASSERT_TRUE(loadCompileJobs(tmp / "build", {}, jobs, error)) << error;
  ASSERT_EQ(jobs.size(), 2u);
  EXPECT_EQ(jobs[0].file, tmp / "src/a.cu");
  EXPECT_TRUE(has(jobs[0].flags, "-I" + (tmp / "build/inc")));
  EXPECT_TRUE(has(jobs[0].flags, "--cuda-gpu-arch=sm_80"));
  EXPECT_EQ(jobs[1].file, tmp / "src/c.cpp");
  EXPECT_TRUE(has(jobs[1].flags, "-DCU"));

  // A named file, even a host one, relative to the current directory.
  jobs.clear();
  llvm::SmallString<256> cwd;
  llvm::sys::fs::current_path(cwd);
  llvm::sys::fs::set_current_path(tmp.path());
  bool ok = loadCompileJobs("build", {"src/b.cpp"}, jobs, error);
  llvm::sys::fs::set_current_path(cwd);
  ASSERT_TRUE(ok) << error;
  ASSERT_EQ(jobs.size(), 1u);
  EXPECT_EQ(jobs[0].file, tmp / "src/b.cpp");
  EXPECT_TRUE(has(jobs[0].flags, "-DHOST"));

  // The json file itself may be named.
  jobs.clear();
  EXPECT_TRUE(loadCompileJobs(tmp / "build/compile_commands.json", {tmp / "src/a.cu"}, jobs, error))
      << error;
  EXPECT_EQ(jobs.size(), 1u);
}

TEST(CompileJobs, LoadDatabaseErrors) {
  TempDir tmp;
  std::vector<CompileJob> jobs;
  std::string error;
  tmp.mkdir("empty");
  EXPECT_FALSE(loadCompileJobs(tmp / "empty", {}, jobs, error));
  EXPECT_EQ(error, "no compile_commands.json in " + (tmp / "empty") +
                       ": configure with -DCMAKE_EXPORT_COMPILE_COMMANDS=ON");

  EXPECT_FALSE(loadCompileJobs(tmp / "nonexistent", {}, jobs, error));
  EXPECT_NE(error.find("does not exist"), std::string::npos) << error;

  tmp.write("bad/compile_commands.json", "[ {\"file\": \"a.cu\", ");
  EXPECT_FALSE(loadCompileJobs(tmp / "bad", {}, jobs, error));
  EXPECT_NE(error.find("malformed"), std::string::npos) << error;

  tmp.write("obj/compile_commands.json", "{\"file\": \"a.cu\"}");
  EXPECT_FALSE(loadCompileJobs(tmp / "obj", {}, jobs, error));
  EXPECT_NE(error.find("array"), std::string::npos) << error;

  tmp.write("noargs/compile_commands.json", "[{\"file\": \"a.cu\", \"directory\": \"/x\"}]");
  EXPECT_FALSE(loadCompileJobs(tmp / "noargs", {}, jobs, error));
  EXPECT_NE(error.find("neither"), std::string::npos) << error;

  tmp.write("ok/compile_commands.json",
            "[{\"file\": \"/x/a.cu\", \"directory\": \"/x\", \"arguments\": [\"nvcc\", \"-c\", "
            "\"/x/a.cu\"]}]");
  EXPECT_FALSE(loadCompileJobs(tmp / "ok", {"/x/other.cu"}, jobs, error));
  EXPECT_EQ(error, "/x/other.cu is not in " + (tmp / "ok/compile_commands.json"));

  tmp.write("host/compile_commands.json",
            "[{\"file\": \"/x/a.cpp\", \"directory\": \"/x\", \"command\": \"g++ -c /x/a.cpp\"}]");
  EXPECT_FALSE(loadCompileJobs(tmp / "host", {}, jobs, error));
  EXPECT_NE(error.find("no CUDA sources"), std::string::npos) << error;
  EXPECT_TRUE(jobs.empty());
}

TEST(CompileJobs, JobsForFilesTranslateExtraArgs) {
  llvm::SmallString<256> cwd;
  llvm::sys::fs::current_path(cwd);
  auto jobs = jobsForFiles({"k.cu", "/abs/j.cu"}, {"-Iinc", "-arch=sm_80", "-DX=1", "-O2",
                                                   "--expt-relaxed-constexpr", "-std=c++20"});
  ASSERT_EQ(jobs.size(), 2u);
  EXPECT_EQ(jobs[0].file, std::string(cwd) + "/k.cu");
  EXPECT_EQ(jobs[1].file, "/abs/j.cu");
  EXPECT_FALSE(jobs[0].fromDatabase);
  EXPECT_EQ(joined(jobs[0].flags),
            "-I" + std::string(cwd) + "/inc -DX=1 -std=c++20 --cuda-gpu-arch=sm_80");
}

// ---- locateCuda ---------------------------------------------------------------

namespace {
void makeFakeToolkit(const TempDir &tmp, const std::string &rel, const std::string &versionJson,
                     int cudaVersionMacro) {
  tmp.mkdir(rel + "/bin");
  tmp.write(rel + "/include/cuda.h",
            "#define CUDA_VERSION " + std::to_string(cudaVersionMacro) + "\n");
  tmp.write(rel + "/include/cuda_runtime.h", "\n");
  if (!versionJson.empty())
    tmp.write(rel + "/version.json", versionJson);
}
} // namespace

TEST(CudaLocator, FromCudaPathWithVersionSources) {
  EnvGuard env;
  unsetenv("WARPLINT_CUDA_SEARCH");
  TempDir tmp;
  makeFakeToolkit(tmp, "cuda-12.4", "", 12040);
  setenv("CUDA_PATH", (tmp / "cuda-12.4").c_str(), 1);
  auto c = locateCuda("");
  ASSERT_TRUE(c);
  EXPECT_EQ(c->root, tmp / "cuda-12.4");
  EXPECT_EQ(c->foundBy, "CUDA_PATH");
  EXPECT_EQ(c->major, 12);
  EXPECT_EQ(c->minor, 4);

  makeFakeToolkit(tmp, "cuda-13", R"({"cuda": {"name": "CUDA SDK", "version": "13.0.88"}})", 12000);
  setenv("CUDA_PATH", (tmp / "cuda-13/").c_str(), 1);
  c = locateCuda("");
  ASSERT_TRUE(c);
  EXPECT_EQ(c->root, tmp / "cuda-13");
  EXPECT_EQ(c->major, 13);
  EXPECT_EQ(c->minor, 0);

  // Explicit path wins over $CUDA_PATH.
  c = locateCuda(tmp / "cuda-12.4");
  ASSERT_TRUE(c);
  EXPECT_EQ(c->foundBy, "--cuda-path");
  EXPECT_EQ(c->major, 12);
}

TEST(CudaLocator, ExplicitBadPathIsAnError) {
  EnvGuard env;
  TempDir tmp;
  tmp.mkdir("notcuda/include");
  std::string why;
  EXPECT_FALSE(locateCuda(tmp / "notcuda", why));
  EXPECT_NE(why.find("--cuda-path"), std::string::npos) << why;
  EXPECT_NE(why.find("cuda.h"), std::string::npos) << why;
  EXPECT_FALSE(locateCuda(tmp / "does-not-exist"));
}

TEST(CudaLocator, SearchOverride) {
  EnvGuard env;
  TempDir tmp;
  makeFakeToolkit(tmp, "tk", "", 11080);
  setenv("WARPLINT_CUDA_SEARCH", "none", 1);
  std::string why;
  EXPECT_FALSE(locateCuda("", why));
  EXPECT_NE(why.find("WARPLINT_CUDA_SEARCH"), std::string::npos) << why;
  // An explicit path still works.
  EXPECT_TRUE(locateCuda(tmp / "tk"));

  setenv("WARPLINT_CUDA_SEARCH", ((tmp / "nothing") + ":" + (tmp / "tk")).c_str(), 1);
  auto c = locateCuda("");
  ASSERT_TRUE(c);
  EXPECT_EQ(c->root, tmp / "tk");
  EXPECT_EQ(c->major, 11);
  EXPECT_EQ(c->minor, 8);
}

TEST(CudaLocator, NvccOnPath) {
  EnvGuard env;
  // Only PATH is searched ("nvcc"), so that an installed /usr/local/cuda
  // does not get in the way.
  setenv("WARPLINT_CUDA_SEARCH", "nvcc", 1);
  TempDir tmp;
  makeFakeToolkit(tmp, "opt/cuda", "", 12020);
  tmp.write("opt/cuda/bin/nvcc", "#!/bin/sh\n");
  llvm::sys::fs::setPermissions(tmp / "opt/cuda/bin/nvcc", llvm::sys::fs::all_exe |
                                                               llvm::sys::fs::owner_all);
  tmp.mkdir("usr/bin");
  llvm::sys::fs::create_link(tmp / "opt/cuda/bin/nvcc", tmp / "usr/bin/nvcc");
  setenv("PATH", (tmp / "usr/bin").c_str(), 1);
  auto c = locateCuda("");
  ASSERT_TRUE(c);
  EXPECT_EQ(c->root, tmp / "opt/cuda");
  EXPECT_EQ(c->foundBy, "nvcc on PATH");
}

// ---- buildClangCommand ----------------------------------------------------------

TEST(ClangCommand, WithToolkit) {
  EnvGuard env;
  TempDir tmp;
  makeFakeToolkit(tmp, "cuda", R"({"cuda": {"version": "13.0.88"}})", 13000);
  tmp.mkdir("cuda/include/cccl");
  CompileJob job;
  job.file = "/src/k.cu";
  job.directory = "/build";
  job.flags = {"-DX", "-I/inc"};
  FrontendOptions opts;
  opts.cudaPath = tmp / "cuda";
  ClangCommand cmd = buildClangCommand(job, opts);
  ASSERT_TRUE(cmd.cuda);
  EXPECT_FALSE(cmd.usesMinimalCuda);
  EXPECT_EQ(cmd.directory, "/build");
  const auto &a = cmd.argv;
  EXPECT_EQ(a.front(), "clang++");
  EXPECT_EQ(a.back(), "/src/k.cu");
  EXPECT_TRUE(has(a, "-fsyntax-only"));
  EXPECT_TRUE(has(a, "--cuda-device-only"));
  EXPECT_TRUE(hasPair(a, "-x", "cuda"));
  EXPECT_TRUE(has(a, "--cuda-gpu-arch=sm_90"));
  EXPECT_TRUE(has(a, "-std=c++17"));
  EXPECT_TRUE(has(a, "--cuda-path=" + (tmp / "cuda")));
  EXPECT_TRUE(hasPair(a, "-Xclang", "-target-sdk-version=12.5"));
  EXPECT_TRUE(hasPair(a, "-isystem", tmp / "cuda/include/cccl"));
  EXPECT_TRUE(hasPair(a, "-idirafter", shareDir() + "/compat"));
  EXPECT_TRUE(hasPair(a, "-resource-dir", WARPLINT_CLANG_RESOURCE_DIR));
  EXPECT_TRUE(has(a, "-ferror-limit=0"));
  EXPECT_TRUE(has(a, "-w"));
  EXPECT_TRUE(has(a, "-nocudalib"));
  EXPECT_FALSE(has(a, "-nocudainc"));
  EXPECT_TRUE(has(a, "-DX"));
  // User flags come after ours, so they can override.
  EXPECT_LT(std::find(a.begin(), a.end(), "-w"), std::find(a.begin(), a.end(), "-DX"));

  // The user's arch and standard replace the defaults.
  job.flags = {"--cuda-gpu-arch=sm_80", "-std=c++20", "-x", "cuda"};
  cmd = buildClangCommand(job, opts);
  EXPECT_FALSE(has(cmd.argv, "--cuda-gpu-arch=sm_90"));
  EXPECT_FALSE(has(cmd.argv, "-std=c++17"));
  EXPECT_EQ(std::count(cmd.argv.begin(), cmd.argv.end(), "-x"), 1);

  // A bad explicit path falls back to the bundled header, with a note.
  opts.cudaPath = tmp / "nope";
  cmd = buildClangCommand(job, opts);
  EXPECT_TRUE(cmd.usesMinimalCuda);
  EXPECT_TRUE(anyContains(cmd.notes, "--cuda-path")) << joined(cmd.notes);
}

TEST(ClangCommand, MinimalMode) {
  CompileJob job;
  job.file = "/src/k.cu";
  job.directory = "/build";
  FrontendOptions opts;
  opts.forceMinimalCuda = true;
  opts.defaultGpuArch = "sm_80";
  ClangCommand cmd = buildClangCommand(job, opts);
  EXPECT_TRUE(cmd.usesMinimalCuda);
  EXPECT_FALSE(cmd.cuda);
  const auto &a = cmd.argv;
  EXPECT_TRUE(has(a, "-nocudainc"));
  EXPECT_TRUE(has(a, "-nocudalib"));
  ASSERT_FALSE(shareDir().empty());
  EXPECT_TRUE(hasPair(a, "-include", shareDir() + "/cuda_minimal.h"));
  EXPECT_TRUE(has(a, "-I" + shareDir() + "/minimal"));
  EXPECT_TRUE(has(a, "--cuda-gpu-arch=sm_80"));
  EXPECT_FALSE(anyContains(a, "--cuda-path"));
  EXPECT_TRUE(anyContains(cmd.notes, "--no-cuda-toolkit"));

  // Also when nothing is found.
  EnvGuard env;
  setenv("WARPLINT_CUDA_SEARCH", "none", 1);
  opts.forceMinimalCuda = false;
  cmd = buildClangCommand(job, opts);
  EXPECT_TRUE(cmd.usesMinimalCuda);
  EXPECT_TRUE(has(cmd.argv, "-nocudainc"));
}

TEST(ClangCommand, DatabaseJobsGetExtraArgs) {
  CompileJob job;
  job.file = "/src/k.cu";
  job.directory = "/build";
  job.fromDatabase = true;
  job.flags = {"-DA"};
  FrontendOptions opts;
  opts.forceMinimalCuda = true;
  opts.extraArgs = {"-DB", "-Xcompiler", "-fPIC"};
  auto cmd = buildClangCommand(job, opts);
  EXPECT_TRUE(has(cmd.argv, "-DA"));
  EXPECT_TRUE(has(cmd.argv, "-DB"));
  EXPECT_FALSE(anyContains(cmd.argv, "PIC"));
}

// ---- Parsing with the built command ---------------------------------------------

TEST(ClangCommand, MinimalHeaderParsesSampleKernel) {
  TempDir tmp;
  std::string file = tmp.write("sample.cu", kSampleKernel);
  CompileJob job;
  job.file = file;
  job.directory = tmp.path();
  FrontendOptions opts;
  opts.forceMinimalCuda = true;
  auto errors = parseErrors(buildClangCommand(job, opts));
  EXPECT_TRUE(errors.empty()) << joined(errors);

  // The harness does see errors.
  std::string bad = tmp.write("bad.cu", "__global__ void k() { undeclared_thing(); }\n");
  job.file = bad;
  EXPECT_EQ(parseErrors(buildClangCommand(job, opts)).size(), 1u);
}

TEST(ClangCommand, MinimalModeCooperativeGroupsAndHalf) {
  TempDir tmp;
  std::string file = tmp.write("cg.cu", R"(
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
namespace cg = cooperative_groups;
__global__ void k(float *out, const __half *in, const __nv_bfloat16 *b) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  float v = __half2float(in[block.thread_rank()]) + __bfloat162float(b[0]);
  for (int o = warp.size() / 2; o > 0; o /= 2) v += warp.shfl_down(v, o);
  v = cg::reduce(warp, v, cg::plus<float>());
  block.sync();
  __half h = __hadd(__float2half(v), in[0]) * in[1];
  if (warp.thread_rank() == 0) atomicAdd(out, v + __half2float(h));
}
)");
  CompileJob job;
  job.file = file;
  job.directory = tmp.path();
  FrontendOptions opts;
  opts.forceMinimalCuda = true;
  for (const char *std : {"c++14", "c++17", "c++20"}) {
    opts.defaultStd = std;
    auto errors = parseErrors(buildClangCommand(job, opts));
    EXPECT_TRUE(errors.empty()) << std << ": " << joined(errors);
  }
}

TEST(ClangCommand, ToolkitParsesSampleKernel) {
  EnvGuard env;
  unsetenv("WARPLINT_CUDA_SEARCH");
  auto cuda = locateCuda("");
  if (!cuda)
    GTEST_SKIP() << "no CUDA toolkit installed";
  TempDir tmp;
  std::string file = tmp.write("sample.cu", kSampleKernel);
  CompileJob job;
  job.file = file;
  job.directory = tmp.path();
  FrontendOptions opts;
  auto cmd = buildClangCommand(job, opts);
  ASSERT_FALSE(cmd.usesMinimalCuda);
  auto errors = parseErrors(cmd);
  EXPECT_TRUE(errors.empty()) << joined(errors);
}
