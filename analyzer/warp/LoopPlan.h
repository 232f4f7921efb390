// A loop an address or its guards depend on, with the iterations at which
// it is evaluated: shared by the warp evaluator and the block enumeration.
#pragma once

#include "analyzer/model/IndexExpr.h"

#include <memory>
#include <string>
#include <vector>

namespace warplint {

struct LoopPlan {
  std::shared_ptr<const LoopRecurrence> loop;
  std::vector<int64_t> iterations;
};

// Each loop's id and iterations, appended to a memo key: what was kept for
// one set of loop iterations is reused only for the same set.
inline void appendIterations(std::string &key, const std::vector<LoopPlan> &plans) {
  for (auto &p : plans) {
    key += '|' + std::to_string(p.loop->loopId) + ':';
    for (int64_t v : p.iterations)
      key += std::to_string(v) + ',';
  }
}

} // namespace warplint
