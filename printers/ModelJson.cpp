#include "printers/ModelJson.h"
#include "printers/CostJson.h"
#include "analyzer/results/PrivateMemory.h"
#include "analyzer/results/WarpExchange.h"
#include "analyzer/host/HostFacts.h"

namespace warplint {

namespace {

nlohmann::json loc(const SourceLocation &l) { return {{"file", l.file}, {"line", l.line}, {"column", l.column}}; }
nlohmann::json shape(const BlockShape &b) { return {b.x, b.y, b.z}; }

nlohmann::json evalJson(const WarpAccessEval &e) {
  nlohmann::json j{{"block", shape(e.block)},   {"warp", e.warpInBlock},
                   {"active_lanes", e.activeLanes}, {"uniform", e.uniform},
                   {"degree", e.bankConflictDegree}, {"wavefronts", e.wavefronts},
                   {"ideal_wavefronts", e.idealWavefronts}, {"sectors", e.sectors},
                   {"ideal_sectors", e.idealSectors}};
  if (!e.iteration.empty())
    j["iteration"] = e.iteration;
  if (e.laneStrideKnown)
    j["lane_stride_bytes"] = e.laneStrideBytes;
  j["distinct_addresses"] = e.distinctAddresses;
  return j;
}

// analyzer/facts/PrivateArrays.cpp's facts and what ptxas said.
nlohmann::json privateMemoryJson(const PrivateMemoryFacts &m) {
  nlohmann::json j{{"arrays", nlohmann::json::array()}};
  for (const PrivateArray &a : m.arrays) {
    nlohmann::json aj{{"name", a.name}, {"loc", loc(a.loc)}, {"element_type", a.elementType},
                      {"dims", a.dims}, {"bytes", a.bytes}, {"declared_in", a.declaredIn},
                      {"subscripts", a.subscripts}, {"undetermined_subscripts", a.undeterminedSubscripts},
                      {"nested_loop_subscript", a.nestedLoopSubscript}, {"shuffled_by_data", a.shuffledByData}};
    if (!a.undeterminedReason.empty())
      aj["undetermined_because"] = a.undeterminedReason;
    if (!a.escape.empty())
      aj["escape"] = a.escape;
    for (const DynamicSubscript &d : a.dynamicSubscripts)
      aj["dynamic_subscripts"].push_back({{"loc", loc(d.loc)}, {"text", d.text}, {"write", d.isWrite},
                                          {"cause", d.cause}, {"why", d.why}, {"in_loop", d.inLoop},
                                          {"in_rolled_loop", d.inRolledLoop}});
    for (const SourceSpan &p : a.rollingPragmas)
      aj["rolling_pragmas"].push_back({{"file", p.file}, {"offset", p.offset}, {"text", p.text}});
    j["arrays"].push_back(aj);
  }
  if (m.ptxas.ran)
    j["ptxas"] = {{"tool", m.ptxas.tool}, {"stack_frame_bytes", m.ptxas.stackFrameBytes},
                  {"spill_store_bytes", m.ptxas.spillStoreBytes}, {"spill_load_bytes", m.ptxas.spillLoadBytes}};
  else if (!m.ptxas.error.empty())
    j["ptxas"] = {{"error", m.ptxas.error}};
  return j;
}

nlohmann::ordered_json sharingJson(const BlockSharing &s) {
  nlohmann::ordered_json j{{"block", {s.block.x, s.block.y, s.block.z}},
                   {"complete", s.complete},
                   {"steps", s.steps},
                   {"lane_reads", s.laneReads},
                   {"lane_writes", s.laneWrites},
                   {"distinct_read", s.distinctRead},
                   {"thread_element_reads", s.threadElementReads},
                   {"warp_requests", s.warpRequests},
                   {"max_threads_per_element", s.maxThreadsPerElement},
                   {"footprint_bytes", s.footprintBytes},
                   {"tile_steps", s.tileSteps},
                   {"tile_bytes", s.tileBytes},
                   {"cross_thread_reads", s.crossThreadReads},
                   {"unwritten_reads", s.unwrittenReads},
                   {"distinct_written", s.distinctWritten},
                   {"max_written_per_thread", s.maxWrittenPerThread},
                   {"uniform_reads_skipped", s.uniformReadsSkipped}};
  if (!s.window.empty())
    j["window"] = s.window;
  if (s.distinctRead > 0) {
    j["reuse_factor"] = static_cast<double>(s.laneReads) / s.distinctRead;
    j["threads_per_element"] = static_cast<double>(s.threadElementReads) / s.distinctRead;
    j["requests_per_element"] = static_cast<double>(s.warpRequests) / s.distinctRead;
  }
  return j;
}

} // namespace

nlohmann::ordered_json dataObjectJson(const KernelInfo &k, const DataObject &o) {
  nlohmann::ordered_json j{{"name", o.name},   {"space", addressSpaceName(o.space)}, {"kind", o.kind},
                   {"class", o.dataClass}, {"evidence", o.evidence},       {"reads", o.reads},
                   {"writes", o.writes}, {"evaluated", o.evaluated},       {"uniform_reads", o.uniformReads},
                   {"only_read", o.onlyRead}};
  if (o.loc.valid())
    j["loc"] = {{"file", o.loc.file}, {"line", o.loc.line}, {"column", o.loc.column}};
  if (o.worstTrafficRatio > 0)
    j["worst_traffic_ratio"] = o.worstTrafficRatio;
  j["accesses"] = nlohmann::ordered_json::array();
  for (size_t i : o.accesses)
    if (i < k.accesses.size()) {
      const SourceLocation &l = k.accesses[i].loc;
      j["accesses"].push_back({{"file", l.file}, {"line", l.line}, {"column", l.column}});
    }
  if (o.sharing.computed)
    j["block_sharing"] = sharingJson(o.sharing);
  return j;
}

namespace {

nlohmann::json kernelJson(const KernelInfo &k, const KernelCostReport *cost) {
  nlohmann::json j{{"name", k.name}, {"loc", loc(k.loc)}, {"global", k.isGlobal},
                   {"template_pattern", k.isTemplatePattern}, {"block_source", k.blockShapeSource},
                   {"block_origin", k.blockShapeOrigin}, {"block_assumed", k.blockShapeAssumed}};
  if (!k.templateArgs.empty())
    j["template_args"] = k.templateArgs;
  if (k.launchBoundsMaxThreads)
    j["launch_bounds"] = *k.launchBoundsMaxThreads;
  for (auto &p : k.params) {
    nlohmann::json pj{{"name", p.name}, {"type", p.type}, {"pointer", p.isPointer},
                      {"const", p.pointeeConst}, {"restrict", p.isRestrict},
                      {"element_type", p.elementType}, {"element_size", p.elementSize}};
    if (p.isPointer) { // the rewrite facts of analyzer/ParamUses.cpp
      pj["only_read"] = p.onlyRead;
      if (!p.notReadOnlyReason.empty())
        pj["written_because"] = p.notReadOnlyReason;
    }
    j["params"].push_back(pj);
  }
  for (auto &a : k.arrays) {
    nlohmann::json aj{{"name", a.name}, {"space", addressSpaceName(a.space)}, {"element_type", a.elementType},
                      {"element_size", a.elementSize}, {"dims", a.dims}, {"extern", a.isExtern}};
    if (!a.layoutEscapes.empty())
      aj["layout_escapes"] = a.layoutEscapes;
    for (auto &t : a.paddingTrials)
      aj["padding_trials"].push_back({{"pad", t.padElements}, {"worst_degree", t.worstDegree},
                                      {"excess_wavefronts", t.excessWavefronts}});
    j["arrays"].push_back(aj);
  }
  for (auto &w : k.bytePackWindows) {
    nlohmann::json wj{{"vector_index", w.vectorIndex}};
    for (auto &g : w.groups)
      wj["pointers"].push_back({{"name", g.pointer}, {"reads", g.reads}, {"writes", g.writes}, {"loc", loc(g.loc)}});
    if (!w.unsafeReason.empty())
      wj["unsafe_because"] = w.unsafeReason;
    j["byte_pack_windows"].push_back(wj);
  }
  for (auto &g : k.narrowGroups) { // analyzer/warp/NarrowAccessGroups.cpp
    nlohmann::json gj{{"pointer", g.pointer}, {"accesses", g.accesses}, {"width", g.widthBytes},
                      {"lane_stride_bytes", g.laneStrideBytes}, {"thread_bytes", g.threadBytes},
                      {"warp_bytes", g.warpBytes}, {"active_lanes", g.activeLanes},
                      {"warp_contiguous", g.warpContiguous}, {"evaluations", g.evaluations}};
    for (auto &m : g.members)
      gj["members"].push_back({{"access", m.access}, {"offset_bytes", m.offsetBytes}});
    if (!g.loopVar.empty())
      gj["unrolled_loop"] = g.loopVar;
    if (!g.notContiguousReason.empty())
      gj["not_contiguous_because"] = g.notContiguousReason;
    j["narrow_groups"].push_back(gj);
  }
  for (auto &l : k.loops) {
    nlohmann::json lj{{"var", l.inductionVar}, {"init", l.init}, {"bound", l.bound}, {"step", l.step},
                      {"loc", loc(l.loc)}};
    if (l.tripCount)
      lj["trip_count"] = *l.tripCount;
    j["loops"].push_back(lj);
  }
  j["constant_symbols"] = k.constantSymbols;
  if (k.privateMemory)
    j["private_memory"] = privateMemoryJson(*k.privateMemory);
  for (auto &s : k.blockShapes)
    j["block_shapes"].push_back(shape(s));
  if (k.warpExchanges) {
    // What warp-shuffle-candidate judges: exchanges found, arrays not followed.
    nlohmann::json wj{{"gaps", k.warpExchanges->gaps}, {"exchanges", nlohmann::json::array()}};
    for (const WarpExchange &x : k.warpExchanges->exchanges) {
      nlohmann::json xj{{"array", x.array}, {"warps", x.warps}, {"warp_stores", x.warpStores},
                        {"warp_loads", x.warpLoads}, {"warp_syncs", x.warpSyncs}};
      for (const WarpExchangeRead &r : x.reads)
        xj["loads"].push_back({{"loc", loc(k.accesses[r.access].loc)}, {"sync", r.sync}, {"deltas", r.laneDeltas},
                               {"exchanged", r.exchanged}, {"own", r.own}, {"before_barrier", r.beforeBarrier},
                               {"unwritten", r.unwritten}});
      wj["exchanges"].push_back(xj);
    }
    // Unrolled warp tails the AST shows (the rewrite's facts).
    for (const WarpTail &t : k.warpExchanges->tails) {
      nlohmann::json tj{{"loc", loc(t.loc)}, {"lines", {t.firstLine, t.lastLine}}, {"array", t.array},
                        {"element_type", t.elementType}, {"tid", t.tidText}, {"syncwarps", t.syncwarps},
                        {"refusal", t.refusal}, {"steps", nlohmann::json::array()}};
      for (const WarpTailStep &s : t.steps)
        tj["steps"].push_back({{"line", s.line}, {"offset", s.offset}, {"combine", s.combine}});
      wj["tails"].push_back(tj);
    }
    j["warp_exchanges"] = wj;
  }
  for (auto &o : k.dataObjects)
    j["data_objects"].push_back(nlohmann::json(dataObjectJson(k, o)));
  for (auto &a : k.accesses) {
    nlohmann::json aj{{"loc", loc(a.loc)}, {"base", a.base}, {"text", a.text},
                      {"space", addressSpaceName(a.space)}, {"read", a.isRead}, {"write", a.isWrite},
                      {"element_size", a.elementSize}, {"width", a.widthBytes},
                      {"byte_offset", a.indexText}, {"index_known", a.indexKnown},
                      {"assumptions", a.assumptions}, {"worst", a.worstEval}};
    for (auto &e : a.evals)
      aj["evals"].push_back(evalJson(e));
    if (a.uniformSweep) {
      const UniformSweep &u = *a.uniformSweep;
      nlohmann::json uj{{"symbols", u.symbols}, {"samples", u.samples.size()}, {"conditions", u.conditions}};
      if (!u.laneStride.empty())
        uj["lane_stride_bytes"] = u.laneStride;
      aj["uniform_sweep"] = uj;
    }
    if (!a.unevaluatedClass.empty())
      aj["unevaluated"] = {{"class", a.unevaluatedClass}, {"reason", a.unevaluatedReason}};
    j["accesses"].push_back(aj);
  }
  if (k.work)
    j["work"] = nlohmann::json(kernelWorkJson(k, *k.work));
  if (cost)
    j["cost"] = nlohmann::json(kernelCostJson(*cost));
  return j;
}

nlohmann::json originJson(const BufferOrigin &o) {
  nlohmann::json j{{"memory", memoryOriginName(o.kind)}};
  if (!o.allocator.empty())
    j["allocator"] = o.allocator;
  if (!o.variable.empty())
    j["variable"] = o.variable;
  if (o.allocLoc.valid())
    j["allocation"] = loc(o.allocLoc);
  if (!o.unknownReason.empty())
    j["unknown_reason"] = o.unknownReason;
  if (o.allocBytes)
    j["allocation_bytes"] = *o.allocBytes;
  if (o.scalar)
    j["scalar"] = true;
  return j;
}

nlohmann::json loopsJson(const std::vector<HostLoop> &loops) {
  nlohmann::json a = nlohmann::json::array();
  for (const HostLoop &l : loops) {
    nlohmann::json j{{"loc", loc(l.loc)}, {"kind", l.kind}};
    if (!l.inductionVar.empty())
      j["var"] = l.inductionVar;
    if (l.tripCount)
      j["trip_count"] = *l.tripCount;
    a.push_back(j);
  }
  return a;
}

nlohmann::json streamJson(const StreamUse &s) {
  nlohmann::json j{{"default", s.isDefault}};
  if (!s.text.empty())
    j["text"] = s.text;
  if (s.variesInLoop)
    j["varies_in_loop"] = true;
  return j;
}

// The host facts (analyzer/host/HostFacts.h), in source order.
nlohmann::json hostJson(const HostFacts &h) {
  nlohmann::json j = nlohmann::json::object();
  j["transfers"] = nlohmann::json::array();
  for (const HostTransfer &t : h.transfers) {
    nlohmann::json tj{{"loc", loc(t.loc)}, {"api", t.api}, {"function", t.function},
                      {"direction", copyDirectionName(t.direction)}, {"args_parsed", t.argsParsed},
                      {"dst", originJson(t.dst)}, {"src", originJson(t.src)}, {"size", t.sizeText},
                      {"stream", streamJson(t.stream)}, {"loops", loopsJson(t.loops)}, {"order", t.order}};
    if (t.sizeBytes)
      tj["size_bytes"] = *t.sizeBytes;
    if (t.twoD)
      tj["height"] = t.heightText;
    if (t.dstVariesInLoop)
      tj["dst_varies_in_loop"] = true;
    if (t.srcVariesInLoop)
      tj["src_varies_in_loop"] = true;
    if (t.memberOperand)
      tj["member_operand"] = true;
    if (t.outerPiece)
      tj["outer_piece"] = true;
    if (t.sizeVariesInLoop)
      tj["size_varies_in_loop"] = true;
    j["transfers"].push_back(tj);
  }
  j["launches"] = nlohmann::json::array();
  for (const HostLaunch &l : h.launches) {
    nlohmann::json lj{{"loc", loc(l.loc)}, {"kernel", l.kernel}, {"function", l.function},
                      {"stream", streamJson(l.stream)}, {"loops", loopsJson(l.loops)}, {"order", l.order}};
    if (l.bodyUnseen)
      lj["body_unseen"] = true; // a call that may launch: its body is not in this unit
    for (size_t i = 0; i < l.argOrigins.size(); ++i)
      if (l.argOrigins[i].kind != MemoryOrigin::Unknown)
        lj["buffers"].push_back({{"arg", i}, {"text", l.argTexts[i]}, {"origin", originJson(l.argOrigins[i])}});
    j["launches"].push_back(lj);
  }
  j["managed"] = nlohmann::json::array();
  static const char *kinds[] = {"host_touch", "prefetch", "advise", "launch", "sync", "escape"};
  for (const ManagedEvent &e : h.managed) {
    nlohmann::json ej{{"loc", loc(e.loc)}, {"kind", kinds[e.kind]}, {"function", e.function}, {"text", e.text},
                      {"order", e.order}};
    if (!e.variable.empty())
      ej["variable"] = e.variable;
    if (e.kind == ManagedEvent::Prefetch)
      ej["to_host"] = e.toHost;
    if (e.touchBytesAtMost)
      ej["touch_bytes_at_most"] = *e.touchBytesAtMost;
    j["managed"].push_back(ej);
  }
  return j;
}

} // namespace

nlohmann::json modelToJson(const AnalysisResults &results, const GainsResult *gains) {
  nlohmann::json out = nlohmann::json::array();
  for (size_t ui = 0; ui < results.units.size(); ++ui) {
    const TranslationUnitResult &u = results.units[ui];
    nlohmann::json uj{{"file", u.file}, {"parsed", u.parsed}};
    if (!u.fatalError.empty())
      uj["fatal_error"] = u.fatalError;
    for (auto &n : u.frontendNotes)
      uj["frontend_notes"].push_back({{"loc", loc(n.loc)}, {"message", n.message}});
    for (size_t ki = 0; ki < u.kernels.size(); ++ki)
      uj["kernels"].push_back(kernelJson(u.kernels[ki], gains ? gains->forKernel(ui, ki) : nullptr));
    for (auto &l : u.launches) {
      nlohmann::json lj{{"kernel", l.kernel}, {"loc", loc(l.loc)}, {"block_text", l.blockText},
                        {"grid_text", l.gridText}};
      if (l.block)
        lj["block"] = shape(*l.block);
      if (l.grid)
        lj["grid"] = shape(*l.grid);
      if (!l.block && (l.blockDims[0] || l.blockDims[1] || l.blockDims[2])) {
        nlohmann::json dims = nlohmann::json::array();
        for (auto &d : l.blockDims)
          dims.push_back(d ? nlohmann::json(*d) : nlohmann::json(nullptr));
        lj["block_partial"] = dims;
      }
      for (auto &b : l.blockChoices)
        lj["block_choices"].push_back(shape(b));
      if (!l.blockChoicesAssumption.empty())
        lj["block_choices_assumption"] = l.blockChoicesAssumption;
      if (l.viaPointer)
        lj["via_pointer"] = true;
      if (l.viaRuntimeCall)
        lj["via_runtime_call"] = true;
      if (!l.externalKernelKeys.empty())
        lj["external_kernels"] = l.externalKernelKeys;
      lj["arg_allocations"] = l.argAllocations;
      uj["launches"].push_back(lj);
    }
    if (u.host)
      uj["host"] = hostJson(*u.host);
    out.push_back(uj);
  }
  return out;
}

} // namespace warplint
