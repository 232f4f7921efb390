// Which block shapes a kernel's accesses are evaluated under, and why: the
// launches of its own unit, then launches in other units of the compile
// database, then launches whose block size is chosen on different paths
// (every shape that may reach them), then launches that fix only some
// components (each unknown one tried over plausible sizes), then __launch_bounds__, then a set of
// plausible shapes. The rules treat every route but a whole launch shape as
// an assumption (KernelInfo::blockShapeAssumed) and report only what holds
// for all the shapes tried.
#pragma once

#include "analyzer/model/KernelWalker.h"
#include "analyzer/results/AnalysisResults.h"

#include <optional>
#include <string>
#include <vector>

namespace warplint {

// The shapes tried when no launch tells anything, by the number of threadIdx
// dimensions the kernel uses.
struct PlausibleShapes {
  std::vector<BlockShape> oneD{{128, 1, 1}, {256, 1, 1}, {512, 1, 1}, {1024, 1, 1}};
  std::vector<BlockShape> twoD{{16, 16, 1}, {32, 8, 1}, {32, 32, 1}};
  std::vector<BlockShape> threeD{{32, 4, 2}};
};

struct ShapeChoice {
  std::vector<BlockShape> shapes;
  std::optional<BlockShape> grid;
  std::string origin; // KernelInfo::blockShapeOrigin
  std::string source; // KernelInfo::blockShapeSource
  bool assumed = false;
};

// `own`: the launches of the kernel in its unit; `foreign`: launches of a
// kernel of the same key (LaunchSite::externalKernelKeys) in other units.
ShapeChoice chooseBlockShapes(const ModeledKernel &k, const std::vector<const LaunchSite *> &own,
                              const std::vector<const LaunchSite *> &foreign, const PlausibleShapes &plausible);

// The sizes tried for a component a launch leaves unknown, given the known
// ones (each unknown x or y: 32, 64, 128, 256; z: 1, 2, 4; at most 1024
// threads in all).
std::vector<BlockShape> completePartialShape(const std::array<std::optional<int64_t>, 3> &dims);

} // namespace warplint
