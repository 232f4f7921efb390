// The nvcc command and cache of analyzer/native/NativeCompile.h, without a
// toolkit.
#include "analyzer/native/NativeCompile.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include <gtest/gtest.h>

#include <fstream>

using namespace warplint;

TEST(NativeCompile, NvccFlagsAreAbsoluteAndKeepTheArch) {
  CompileJob job;
  job.file = "/src/k.cu";
  job.directory = "/build";
  job.flags = {"-Iinc", "-I", "../third", "-isystem", "sys", "-isystem/abs", "-DN=4", "-U", "X",
               "-std=c++17", "--cuda-gpu-arch=sm_80", "-O3", "-Wall"};
  std::string arch;
  std::vector<std::string> flags = nvccDeviceFlags(job, arch);
  EXPECT_EQ(arch, "sm_80");
  std::vector<std::string> expected{"-I/build/inc", "-I", "/third", "-isystem", "/build/sys", "-isystem", "/abs",
                                    "-DN=4", "-U", "X", "-std=c++17", "-arch=sm_80"};
  EXPECT_EQ(flags, expected);
}

TEST(NativeCompile, ModesParseAndName) {
  for (PtxasMode m : {PtxasMode::Off, PtxasMode::Auto, PtxasMode::On, PtxasMode::CacheOnly}) {
    PtxasMode back = PtxasMode::Off;
    ASSERT_TRUE(parsePtxasMode(ptxasModeName(m), back));
    EXPECT_EQ(back, m);
  }
  PtxasMode m;
  EXPECT_FALSE(parsePtxasMode("sometimes", m));
}

// A miss when no nvcc may run, and a compile that finds no nvcc: neither
// leaves an entry (a hit is tested in tests/lit/native/ptxas-auto-cache.cu).
TEST(NativeCompile, CacheMissesAndAMissingNvccCacheNothing) {
  llvm::SmallString<128> dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("warplint-native-test", dir));
  CompileJob job;
  job.file = "/src/k.cu";
  CudaInstallation cuda;
  cuda.root = "/nonexistent-cuda";
  cuda.major = 13;
  PtxasCompileRequest r;
  r.job = &job;
  r.cuda = &cuda;
  r.inputsHash = "abc";
  r.cacheDir = std::string(dir);
  r.mayCompile = false;
  PtxasCompile miss = compileWithPtxasVerbose(r);
  EXPECT_FALSE(miss.ok);
  EXPECT_FALSE(miss.fromCache);
  // A compile that may run but finds no nvcc says so and caches nothing.
  r.mayCompile = true;
  PtxasCompile noNvcc = compileWithPtxasVerbose(r);
  EXPECT_FALSE(noNvcc.ok);
  EXPECT_NE(noNvcc.error.find("no nvcc"), std::string::npos);
  std::error_code ec;
  llvm::sys::fs::directory_iterator it(dir, ec);
  EXPECT_EQ(it, llvm::sys::fs::directory_iterator()) << "nothing cached";
  llvm::sys::fs::remove_directories(dir);
}
