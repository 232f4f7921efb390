#include "analyzer/model/BlockShapes.h"

#include <algorithm>

namespace warplint {

namespace {

constexpr int64_t kMaxThreads = 1024;

bool usable(const BlockShape &b) { return b.x > 0 && b.y > 0 && b.z > 0 && b.threads() <= kMaxThreads; }

void addShape(std::vector<BlockShape> &shapes, const BlockShape &b) {
  if (usable(b) && std::find(shapes.begin(), shapes.end(), b) == shapes.end())
    shapes.push_back(b);
}

std::string where(const LaunchSite &l, const ModeledKernel &k) {
  return l.loc.file == k.info.loc.file ? "line " + std::to_string(l.loc.line)
                                       : l.loc.file + ":" + std::to_string(l.loc.line);
}

// "(?, 16, 1)"
std::string dimsText(const std::array<std::optional<int64_t>, 3> &d) {
  std::string s = "(";
  for (int i = 0; i < 3; ++i)
    s += (i ? ", " : "") + (d[i] ? std::to_string(*d[i]) : std::string("?"));
  return s + ")";
}

// The launches whose block shape evaluated whole.
ShapeChoice wholeShapes(const ModeledKernel &k, const std::vector<const LaunchSite *> &launches, bool foreign) {
  ShapeChoice c;
  bool pointer = false, members = false;
  for (const LaunchSite *l : launches) {
    if (!l->block || !usable(*l->block))
      continue;
    addShape(c.shapes, *l->block);
    if (l->grid)
      c.grid = l->grid;
    if (c.source.empty())
      c.source = std::string(l->viaPointer       ? "launch through a function pointer at "
                             : l->viaRuntimeCall ? "runtime launch call at "
                                                 : "launch at ") +
                 where(*l, k);
    pointer = pointer || l->viaPointer;
    members = members || l->blockByMemberAssignment;
  }
  c.origin = foreign ? "launch in other file" : pointer ? "pointer" : members ? "member assignment" : "launch";
  return c;
}

// The launches whose block size is chosen on different paths: every shape
// that may reach them is tried, and the verdict must hold for all.
ShapeChoice chosenShapes(const ModeledKernel &k, const std::vector<const LaunchSite *> &launches) {
  ShapeChoice c;
  std::string assumption;
  for (const LaunchSite *l : launches) {
    if (l->block)
      continue;
    for (const BlockShape &b : l->blockChoices)
      addShape(c.shapes, b);
    if (assumption.empty())
      assumption = l->blockChoicesAssumption;
    if (c.source.empty() && !l->blockChoices.empty()) {
      const std::string &why = l->blockChoicesAssumption;
      c.source = "launch at " + where(*l, k) + " with block '" + l->blockText + "' " +
                 (why == "caller arguments"   ? "from the arguments of the launching function's callers in this file: "
                  : why == "unwritten global" ? "from a global that nothing in this file writes: "
                                              : "chosen on different paths: ") +
                 shapeList(l->blockChoices);
    }
  }
  c.origin = assumption.empty() ? "branch-chosen launch" : assumption;
  c.assumed = true;
  return c;
}

// The launches that fix some components of the block shape but not all.
ShapeChoice partialShapes(const ModeledKernel &k, const std::vector<const LaunchSite *> &launches) {
  ShapeChoice c;
  for (const LaunchSite *l : launches) {
    const auto &d = l->blockDims;
    // z alone (dim3(w, h) leaves it 1) says nothing of how lanes fall.
    if (l->block || !(d[0] || d[1]))
      continue;
    for (const BlockShape &b : completePartialShape(d))
      addShape(c.shapes, b);
    if (c.source.empty())
      c.source = "launch at " + where(*l, k) + " with block " + dimsText(d) + ", each ? tried over plausible sizes";
  }
  c.origin = "partial launch";
  c.assumed = true;
  return c;
}

} // namespace

std::vector<BlockShape> completePartialShape(const std::array<std::optional<int64_t>, 3> &dims) {
  std::vector<int64_t> options[3];
  int64_t known = 1;
  for (int i = 0; i < 3; ++i) {
    if (dims[i])
      options[i] = {*dims[i]}, known *= *dims[i];
    else
      options[i] = i < 2 ? std::vector<int64_t>{32, 64, 128, 256} : std::vector<int64_t>{1, 2, 4};
  }
  std::vector<BlockShape> out;
  for (int64_t x : options[0])
    for (int64_t y : options[1])
      for (int64_t z : options[2])
        addShape(out, BlockShape{x, y, z});
  if (out.empty() && known > 0 && known <= kMaxThreads) {
    // The known components leave room for fewer threads than tried: the
    // first unknown one takes what fits.
    BlockShape b{dims[0].value_or(1), dims[1].value_or(1), dims[2].value_or(1)};
    int64_t room = 1;
    while (room * 2 * known <= kMaxThreads)
      room *= 2;
    int64_t *first = !dims[0] ? &b.x : !dims[1] ? &b.y : &b.z;
    *first = room;
    addShape(out, b);
  }
  return out;
}

ShapeChoice chooseBlockShapes(const ModeledKernel &k, const std::vector<const LaunchSite *> &own,
                              const std::vector<const LaunchSite *> &foreign, const PlausibleShapes &plausible) {
  // Launches in other files: those in the kernel's own directory first (a
  // compile database may hold several programs with kernels of one name).
  std::vector<const LaunchSite *> near;
  auto dir = [](const std::string &f) { return f.substr(0, f.find_last_of('/') + 1); };
  for (const LaunchSite *l : foreign)
    if (dir(l->loc.file) == dir(k.info.loc.file))
      near.push_back(l);
  const std::vector<const LaunchSite *> &other = near.empty() ? foreign : near;

  for (bool isForeign : {false, true}) {
    ShapeChoice c = wholeShapes(k, isForeign ? other : own, isForeign);
    if (!c.shapes.empty())
      return c;
  }
  for (const auto *launches : {&own, &other}) {
    ShapeChoice c = chosenShapes(k, *launches);
    if (!c.shapes.empty())
      return c;
  }
  for (const auto *launches : {&own, &other}) {
    ShapeChoice c = partialShapes(k, *launches);
    if (!c.shapes.empty())
      return c;
  }
  ShapeChoice c;
  c.assumed = true;
  const auto &bounds = k.info.launchBoundsMaxThreads;
  if (k.threadDims < 2 && bounds && *bounds >= 32 && *bounds <= kMaxThreads) {
    c.shapes.push_back(BlockShape{*bounds, 1, 1});
    c.origin = "launch_bounds";
    c.source = "__launch_bounds__(" + std::to_string(*bounds) + "): 1-D blocks of that many threads";
    return c;
  }
  c.shapes = k.threadDims >= 3 ? plausible.threeD : k.threadDims == 2 ? plausible.twoD : plausible.oneD;
  c.origin = "default";
  c.source = "no launch site with a constant block shape is visible; plausible shapes " + shapeList(c.shapes);
  return c;
}

} // namespace warplint
