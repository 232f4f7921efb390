// host-transfer-batching (a run of small copies), before: a particle system
// whose forcing the host recomputes every time step (orbiting attractors,
// species whose charge and drag drift, the wind each puff of particles
// feels). Each step copies its six small parameter arrays to the device one
// cudaMemcpy each (16 B to 4 KiB, all pinned), then launches the step kernel.
// Each copy's time is its fixed latency, not its bytes.
#include "host_bench.h"

#include <cmath>

constexpr int kParticles = 1 << 16;
constexpr int kSpecies = 64;    // particle i is of species i % kSpecies
constexpr int kAttractors = 32;
constexpr int kPuffs = 1024;    // particle i was emitted in puff i / kSpecies
static_assert(kParticles == kSpecies * kPuffs, "one particle of each species per puff");
constexpr int kSteps = 200;

struct StepConstants {
  float dt, gravity, windScale, time;
};

// One particle's step: attraction to every attractor (softened), gravity,
// drag towards the wind its puff feels, then a semi-implicit Euler update.
// The host reference runs the same code.
__host__ __device__ inline void advance(float4 &p, float4 &v, int i, const StepConstants &c, const float *mass,
                                        const float *charge, const float *drag, const float4 *attractors,
                                        const float *wind) {
  int s = i % kSpecies;
  float fx = 0.0f, fy = -c.gravity * mass[s], fz = 0.0f;
  for (int a = 0; a < kAttractors; ++a) {
    float dx = attractors[a].x - p.x, dy = attractors[a].y - p.y, dz = attractors[a].z - p.z;
    float r2 = dx * dx + dy * dy + dz * dz + 0.25f;
    float k = attractors[a].w * charge[s] / (r2 * sqrtf(r2));
    fx += dx * k;
    fy += dy * k;
    fz += dz * k;
  }
  float w = wind[i / kSpecies] * c.windScale;
  fx += drag[s] * (w - v.x);
  fy -= drag[s] * v.y;
  fz -= drag[s] * v.z;
  float im = 1.0f / mass[s];
  v.x += c.dt * fx * im;
  v.y += c.dt * fy * im;
  v.z += c.dt * fz * im;
  p.x += c.dt * v.x;
  p.y += c.dt * v.y;
  p.z += c.dt * v.z;
}

__global__ void stepParticles(float4 *pos, float4 *vel, const StepConstants *c, const float *mass,
                              const float *charge, const float *drag, const float4 *attractors, const float *wind) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= kParticles)
    return;
  float4 p = pos[i], v = vel[i];
  advance(p, v, i, *c, mass, charge, drag, attractors, wind);
  pos[i] = p;
  vel[i] = v;
}

// The forcing of step `step`: a function of the step alone, so that every
// repeat (and the host reference) sees the same parameters.
void stepParameters(int step, StepConstants *c, float *mass, float *charge, float *drag, float4 *attractors,
                    float *wind) {
  float t = step * 0.01f;
  *c = {0.01f, 0.5f, 1.0f + 0.5f * std::sin(3.0f * t), t};
  for (int s = 0; s < kSpecies; ++s) {
    mass[s] = 1.0f + 0.05f * s;
    charge[s] = 0.2f * (1.0f + 0.5f * std::sin(t + 0.1f * s));
    drag[s] = 0.5f + 0.01f * s + 0.2f * std::cos(2.0f * t);
  }
  for (int a = 0; a < kAttractors; ++a) {
    float phase = t * (0.5f + 0.03f * a) + 0.2f * a;
    attractors[a] = make_float4(1.2f * std::cos(phase), 0.3f * std::sin(2.0f * phase), 1.2f * std::sin(phase),
                                a % 2 ? 0.5f : -0.25f);
  }
  float gust = std::sin(5.0f * t);
  for (int k = 0; k < kPuffs; ++k)
    wind[k] = 0.3f * ((k * 37) % 17 - 8) / 8.0f * gust;
}

int main(int argc, char **argv) {
  const size_t stateBytes = kParticles * sizeof(float4);
  float4 *hPos0, *hVel0, *hPos;
  CHECK_CUDA(cudaMallocHost(&hPos0, stateBytes));
  CHECK_CUDA(cudaMallocHost(&hVel0, stateBytes));
  CHECK_CUDA(cudaMallocHost(&hPos, stateBytes));
  std::vector<float> init(kParticles * 3);
  fillRandom(init.data(), init.size(), 11);
  for (int i = 0; i < kParticles; ++i) {
    hPos0[i] = make_float4(4.0f * init[3 * i] - 2.0f, 2.0f * init[3 * i + 1] - 1.0f, 4.0f * init[3 * i + 2] - 2.0f, 0.0f);
    hVel0[i] = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
  }
  // The step's parameters: six small pinned arrays, each with its own device buffer.
  StepConstants *hConst;
  float *hMass, *hCharge, *hDrag, *hWind;
  float4 *hAttractors;
  CHECK_CUDA(cudaMallocHost(&hConst, sizeof(StepConstants)));
  CHECK_CUDA(cudaMallocHost(&hMass, kSpecies * sizeof(float)));
  CHECK_CUDA(cudaMallocHost(&hCharge, kSpecies * sizeof(float)));
  CHECK_CUDA(cudaMallocHost(&hDrag, kSpecies * sizeof(float)));
  CHECK_CUDA(cudaMallocHost(&hAttractors, kAttractors * sizeof(float4)));
  CHECK_CUDA(cudaMallocHost(&hWind, kPuffs * sizeof(float)));
  float4 *dPos, *dVel, *dAttractors;
  StepConstants *dConst;
  float *dMass, *dCharge, *dDrag, *dWind;
  CHECK_CUDA(cudaMalloc(&dPos, stateBytes));
  CHECK_CUDA(cudaMalloc(&dVel, stateBytes));
  CHECK_CUDA(cudaMalloc(&dConst, sizeof(StepConstants)));
  CHECK_CUDA(cudaMalloc(&dMass, kSpecies * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&dCharge, kSpecies * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&dDrag, kSpecies * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&dAttractors, kAttractors * sizeof(float4)));
  CHECK_CUDA(cudaMalloc(&dWind, kPuffs * sizeof(float)));
  cudaEvent_t start, stop;
  CHECK_CUDA(cudaEventCreate(&start));
  CHECK_CUDA(cudaEventCreate(&stop));
  std::vector<float> gpu, wall;
  for (int rep = 0; rep < kRepeats + 2; ++rep) {
    // Every repeat starts from the same state (not timed).
    CHECK_CUDA(cudaMemcpy(dPos, hPos0, stateBytes, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(dVel, hVel0, stateBytes, cudaMemcpyHostToDevice));
    double t0 = nowMs();
    CHECK_CUDA(cudaEventRecord(start));
    for (int step = 0; step < kSteps; ++step) {
      stepParameters(step, hConst, hMass, hCharge, hDrag, hAttractors, hWind);
      CHECK_CUDA(cudaMemcpy(dConst, hConst, sizeof(StepConstants), cudaMemcpyHostToDevice));
      CHECK_CUDA(cudaMemcpy(dMass, hMass, kSpecies * sizeof(float), cudaMemcpyHostToDevice));
      CHECK_CUDA(cudaMemcpy(dCharge, hCharge, kSpecies * sizeof(float), cudaMemcpyHostToDevice));
      CHECK_CUDA(cudaMemcpy(dDrag, hDrag, kSpecies * sizeof(float), cudaMemcpyHostToDevice));
      CHECK_CUDA(cudaMemcpy(dAttractors, hAttractors, kAttractors * sizeof(float4), cudaMemcpyHostToDevice));
      CHECK_CUDA(cudaMemcpy(dWind, hWind, kPuffs * sizeof(float), cudaMemcpyHostToDevice));
      stepParticles<<<kParticles / 256, 256>>>(dPos, dVel, dConst, dMass, dCharge, dDrag, dAttractors, dWind);
    }
    CHECK_CUDA(cudaMemcpy(hPos, dPos, stateBytes, cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaEventRecord(stop));
    CHECK_CUDA(cudaEventSynchronize(stop));
    double t1 = nowMs();
    float ms = 0;
    CHECK_CUDA(cudaEventElapsedTime(&ms, start, stop));
    if (rep >= 2) {
      gpu.push_back(ms);
      wall.push_back(static_cast<float>(t1 - t0));
    }
  }
  // Replay every 61st particle on the host (the device contracts to FMAs: a tolerance, not equality).
  StepConstants c;
  float mass[kSpecies], charge[kSpecies], drag[kSpecies], wind[kPuffs];
  float4 attractors[kAttractors];
  std::vector<int> sample;
  for (int i = 0; i < kParticles; i += 61)
    sample.push_back(i);
  std::vector<float4> p(sample.size()), v(sample.size());
  for (size_t j = 0; j < sample.size(); ++j) {
    p[j] = hPos0[sample[j]];
    v[j] = hVel0[sample[j]];
  }
  for (int step = 0; step < kSteps; ++step) {
    stepParameters(step, &c, mass, charge, drag, attractors, wind);
    for (size_t j = 0; j < sample.size(); ++j)
      advance(p[j], v[j], sample[j], c, mass, charge, drag, attractors, wind);
  }
  for (size_t j = 0; j < sample.size(); ++j) {
    const float4 &d = hPos[sample[j]];
    float err = std::fabs(d.x - p[j].x) + std::fabs(d.y - p[j].y) + std::fabs(d.z - p[j].z);
    if (!(err <= 2e-3f)) {
      std::fprintf(stderr, "particle %d: device (%g, %g, %g), host (%g, %g, %g)\n", sample[j], d.x, d.y, d.z, p[j].x,
                   p[j].y, p[j].z);
      return 1;
    }
  }
  if (argc > 1)
    dumpOutput(argv[1], hPos, stateBytes);
  report(gpu, wall);
  return 0;
}
