#include "analyzer/warp/WarpSimulator.h"

#include <algorithm>
#include <array>
#include <climits>
#include <vector>
#include <map>
#include <set>

namespace warplint {

int LaneAddresses::activeCount() const {
  return static_cast<int>(std::count(active.begin(), active.end(), true));
}

bool LaneAddresses::uniform() const {
  bool seen = false;
  int64_t first = 0;
  for (int l = 0; l < kWarpSize; ++l) {
    if (!active[l])
      continue;
    if (!seen) {
      first = address[l];
      seen = true;
    } else if (address[l] != first) {
      return false;
    }
  }
  return true;
}

static int64_t floorDiv(int64_t a, int64_t b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }

static int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

// No instruction moves more than 16 bytes a thread: a wider access (a 32-byte
// struct copied whole) is several instructions of at most 16 bytes, each
// served on its own; their wavefronts add up. 16-byte pieces are the widest
// the alignment may allow, and the fewest conflicts: narrower ones (a struct
// of doubles copied 8 bytes at a time) can only be worse.
static BankConflictDegree widePieces(const LaneAddresses &lanes) {
  BankConflictDegree total;
  total.degree = 0;
  total.wavefronts = total.idealWavefronts = 0;
  for (int64_t offset = 0; offset < lanes.widthBytes; offset += 16) {
    LaneAddresses piece = lanes;
    piece.widthBytes = std::min<int64_t>(16, lanes.widthBytes - offset);
    for (auto &a : piece.address)
      a += offset;
    BankConflictDegree r = sharedBankConflicts(piece);
    if (r.degree > total.degree) {
      total.degree = r.degree;
      total.bank = r.bank;
      total.lanes = r.lanes;
    }
    total.wavefronts += r.wavefronts;
    total.idealWavefronts += r.idealWavefronts;
  }
  return total;
}

// Whether every quad of lanes (4 neighbours) in [from, to) reads at most two
// distinct addresses: then an 8-byte load's whole warp, or a 16-byte load's
// half-warp, is served as one phase.
static bool quadsShareAddresses(const LaneAddresses &lanes, int from, int to) {
  for (int q = from; q < to; q += 4) {
    int64_t first = 0, second = 0;
    int distinct = 0;
    for (int l = q; l < q + 4; ++l) {
      if (!lanes.active[l])
        continue;
      int64_t a = lanes.address[l];
      if (distinct >= 1 && a == first)
        continue;
      if (distinct >= 2 && a == second)
        continue;
      if (++distinct > 2)
        return false;
      (distinct == 1 ? first : second) = a;
    }
  }
  return true;
}

BankConflictDegree sharedBankConflicts(const LaneAddresses &lanes) {
  // Accesses wider than a bank are served in phases of 128 bytes: 8-byte
  // accesses in two half-warps, 16-byte accesses in four quarter-warps, each
  // phase taking its worst bank's number of distinct words.
  // Loads whose lanes share addresses take fewer phases. Measured on an H100
  // (tests/gpu/shared_wide/results.csv, 197 patterns): where every quad of
  // lanes reads at most two distinct addresses, an 8-byte load's whole warp
  // is one phase (a broadcast LDS.64: 1 wavefront, not 2), and a 16-byte
  // load's half-warp is one (a broadcast LDS.128: 2, not 4); the two halves
  // of a 16-byte load are never served together, nor are the phases of
  // stores. Lanes of different phases reading the same words are not merged
  // otherwise (every half-warp reading the same four doubles: 2 wavefronts).
  if (lanes.widthBytes > 16)
    return widePieces(lanes);
  int64_t width = std::max<int64_t>(1, lanes.widthBytes);
  int lanesPerPhase = width <= 4 ? 32 : width <= 8 ? 16 : 8;
  // The phases as lane ranges [first, first + size).
  std::array<std::pair<int, int>, kWarpSize> phases;
  int phaseCount = 0;
  bool mayMerge = !lanes.store && (width == 8 || width == 16);
  int unit = mayMerge ? (width == 8 ? 32 : 16) : lanesPerPhase;
  for (int u = 0; u < kWarpSize; u += unit) {
    if (mayMerge && quadsShareAddresses(lanes, u, u + unit)) {
      phases[phaseCount++] = {u, unit};
      continue;
    }
    for (int p = u; p < u + unit; p += lanesPerPhase)
      phases[phaseCount++] = {p, lanesPerPhase};
  }
  BankConflictDegree result;
  result.degree = 0;
  result.wavefronts = 0;
  int servedPhases = 0;
  // Fixed arrays, sorted, instead of maps and sets: this runs for every
  // distinct lane pattern of every swept access (issue 19). A lane of at most
  // 16 bytes touches at most 5 words.
  struct Touch {
    int bank;
    int64_t word;
    int lane;
    bool operator<(const Touch &o) const {
      return bank != o.bank ? bank < o.bank : word != o.word ? word < o.word : lane < o.lane;
    }
  };
  constexpr int kMaxWordsPerLane = 5;
  std::array<Touch, kWarpSize * kMaxWordsPerLane> touches;
  std::array<int64_t, kWarpSize * kMaxWordsPerLane> allWords;
  size_t wordCount = 0;
  for (int ph = 0; ph < phaseCount; ++ph) {
    auto [phaseStart, phaseLanes] = phases[ph];
    // bank -> distinct words, and the first lane that reached each word
    // (lanes are visited in order: the first is the least)
    size_t n = 0;
    bool any = false;
    for (int l = phaseStart; l < phaseStart + phaseLanes; ++l) {
      if (!lanes.active[l])
        continue;
      any = true;
      int64_t firstWord = floorDiv(lanes.address[l], kBankWidthBytes);
      int64_t lastWord = floorDiv(lanes.address[l] + width - 1, kBankWidthBytes);
      for (int64_t w = firstWord; w <= lastWord; ++w) {
        int bank = static_cast<int>(((w % kBanks) + kBanks) % kBanks);
        touches[n++] = {bank, w, l};
        allWords[wordCount++] = w;
      }
    }
    if (!any)
      continue;
    ++servedPhases;
    std::sort(touches.begin(), touches.begin() + n);
    int phaseDegree = 0;
    for (size_t i = 0; i < n;) {
      size_t j = i;
      int d = 0;
      while (j < n && touches[j].bank == touches[i].bank) {
        if (j == i || touches[j].word != touches[j - 1].word)
          ++d;
        ++j;
      }
      if (d > phaseDegree)
        phaseDegree = d;
      if (d > result.degree) {
        result.degree = d;
        result.bank = touches[i].bank;
        result.lanes.clear();
        for (size_t k = i; k < j; ++k)
          if (k == i || touches[k].word != touches[k - 1].word)
            result.lanes.push_back(touches[k].lane);
        std::sort(result.lanes.begin(), result.lanes.end());
      }
      i = j;
    }
    result.wavefronts += phaseDegree;
  }
  if (result.wavefronts == 0) { // no active lane
    result.degree = 1;
    result.wavefronts = 1;
    servedPhases = 1;
  }
  // The fewest passes that could move the same distinct words: one a phase
  // (what ncu counts as no conflict: its bank conflicts were the wavefronts
  // over one a phase on every measured pattern), and no fewer than their
  // bytes need.
  std::sort(allWords.begin(), allWords.begin() + wordCount);
  int64_t distinctWords = std::unique(allWords.begin(), allWords.begin() + wordCount) - allWords.begin();
  int64_t distinctBytes = distinctWords * kBankWidthBytes;
  result.idealWavefronts = static_cast<int>(
      std::max<int64_t>(servedPhases, ceilDiv(distinctBytes, kBanks * kBankWidthBytes)));
  if (result.degree == 1) // no conflict: the phases themselves are not a loss
    result.idealWavefronts = result.wavefronts;
  return result;
}

namespace {

// Sectors the active lanes touch, with every address moved down by `shift`,
// the number of distinct bytes and the lowest byte, in one pass over the
// lanes in address order (all lanes have one width): a lane's sectors past
// the highest one counted so far are new, and so are its bytes past the
// highest byte covered. Most requests (forward strides, repeats,
// broadcasts) come in that order; others are sorted first. This runs for
// every warp of every binding.
int sectorsTouched(const LaneAddresses &lanes, int64_t shift, int64_t *distinctBytes, int64_t *firstByte) {
  int64_t width = std::max<int64_t>(1, lanes.widthBytes);
  std::array<int64_t, kWarpSize> begins;
  size_t n = 0;
  bool inOrder = true;
  for (int l = 0; l < kWarpSize; ++l)
    if (lanes.active[l]) {
      begins[n] = lanes.address[l] - shift;
      inOrder = inOrder && (n == 0 || begins[n] >= begins[n - 1]);
      ++n;
    }
  if (!inOrder)
    std::sort(begins.begin(), begins.begin() + static_cast<std::ptrdiff_t>(n));
  int count = 0;
  int64_t total = 0, covered = INT64_MIN, lastSector = 0;
  for (size_t i = 0; i < n; ++i) {
    int64_t begin = begins[i], end = begin + width;
    total += std::max<int64_t>(0, end - std::max(begin, covered));
    covered = std::max(covered, end);
    int64_t lo = floorDiv(begin, kSectorBytes), hi = floorDiv(end - 1, kSectorBytes);
    if (i > 0)
      lo = std::max(lo, lastSector + 1);
    if (hi >= lo) {
      count += static_cast<int>(hi - lo + 1);
      lastSector = hi;
    }
  }
  if (distinctBytes) {
    *distinctBytes = total;
    *firstByte = n > 0 ? begins[0] : 0;
  }
  return count;
}

} // namespace

SectorsPerRequest globalSectors(const LaneAddresses &lanes) {
  int64_t bytes = 0, first = 0;
  SectorsPerRequest r;
  r.sectors = sectorsTouched(lanes, 0, &bytes, &first);
  if (bytes == 0)
    return r;
  // Alignment is not what G_3 asks to fix: the sectors a misaligned warp
  // spends only because of where its first byte falls are part of the ideal.
  int64_t misalignment = ((first % kSectorBytes) + kSectorBytes) % kSectorBytes;
  int shifted = sectorsTouched(lanes, misalignment, nullptr, nullptr);
  int aligned = static_cast<int>(ceilDiv(bytes, kSectorBytes));
  r.idealSectors = aligned + std::max(0, r.sectors - shifted);
  return r;
}

} // namespace warplint
