// Rodinia-style cfd (euler3d): an explicit finite-volume solver of the 3D Euler
// equations on an unstructured mesh of elements with 4 faces each; variables are
// density, momentum (x, y, z) and energy density, stored variable-major
// (v[var * nelr + i]). One iteration: copy the variables (Rodinia's
// cudaMemcpy), the local step factor, then 3 Runge-Kutta stages of compute_flux
// (the face fluxes: artificial viscosity plus the central flux average; face -1
// is a wall, -2 far field) and time_step.
// Every product that feeds an addition goes through mul() (an inline mul.rn.f32,
// which clang cannot contract into an fma under CUDA's fp-contract=fast), so each
// operation rounds once and the host can repeat the arithmetic bit for bit.

constexpr int kVars = 5, kFaces = 4, kRk = 3;
constexpr float kGamma = 1.4f, kSmoothing = 0.2f;
enum { kDensity = 0, kMomentum = 1, kEnergy = 4 };

static __device__ __forceinline__ float mul(float a, float b) {
  float product;
  asm("mul.rn.f32 %0, %1, %2;" : "=f"(product) : "f"(a), "f"(b));  // opaque to the contraction pass
  return product;
}

struct Float3 {
  float x, y, z;
};

struct State {  // one element's variables and what the fluxes need of them
  float density, energy, pressure, speed_of_sound, speed_sqd;
  Float3 momentum, velocity, flux_x, flux_y, flux_z, flux_energy;
};

static __device__ State load_state(const float* __restrict__ v, int i, int nelr) {
  State s;
  s.density = v[kDensity * nelr + i];
  s.momentum = {v[(kMomentum + 0) * nelr + i], v[(kMomentum + 1) * nelr + i], v[(kMomentum + 2) * nelr + i]};
  s.energy = v[kEnergy * nelr + i];
  s.velocity = {s.momentum.x / s.density, s.momentum.y / s.density, s.momentum.z / s.density};
  s.speed_sqd = mul(s.velocity.x, s.velocity.x) + mul(s.velocity.y, s.velocity.y) + mul(s.velocity.z, s.velocity.z);
  s.pressure = mul(kGamma - 1.0f, s.energy - mul(0.5f * s.density, s.speed_sqd));
  s.speed_of_sound = sqrtf(kGamma * s.pressure / s.density);
  const Float3 m = s.momentum, u = s.velocity;
  s.flux_x = {mul(u.x, m.x) + s.pressure, mul(u.x, m.y), mul(u.x, m.z)};
  s.flux_y = {s.flux_x.y, mul(u.y, m.y) + s.pressure, mul(u.y, m.z)};
  s.flux_z = {s.flux_x.z, s.flux_y.z, mul(u.z, m.z) + s.pressure};
  const float energy_pressure = s.energy + s.pressure;
  s.flux_energy = {mul(u.x, energy_pressure), mul(u.y, energy_pressure), mul(u.z, energy_pressure)};
  return s;
}

extern "C" __global__ void cuda_copy(const float* __restrict__ from, float* __restrict__ to, int count) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count) to[i] = from[i];
}

extern "C" __global__ void cuda_compute_step_factor(int nelr, const float* __restrict__ v,
                                                    const float* __restrict__ areas, float* __restrict__ step) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= nelr) return;
  const State s = load_state(v, i, nelr);
  step[i] = 0.5f / (sqrtf(areas[i]) * (sqrtf(s.speed_sqd) + s.speed_of_sound));
}

// Adds the central average of a face's flux (a's and b's flux contributions
// projected on the normal) to the element's fluxes.
static __device__ void add_average(float* f, const Float3& normal, float mass_a, float mass_b, const State& a,
                                   const Float3& mx, const Float3& my, const Float3& mz, const Float3& fe, int axis) {
  const float n = axis == 0 ? normal.x : (axis == 1 ? normal.y : normal.z);
  auto pick = [axis](const Float3& v) { return axis == 0 ? v.x : (axis == 1 ? v.y : v.z); };
  const float factor = 0.5f * n;
  f[kDensity] += mul(factor, mass_b + mass_a);
  f[kEnergy] += mul(factor, pick(fe) + pick(a.flux_energy));
  f[kMomentum + 0] += mul(factor, pick(mx) + pick(a.flux_x));
  f[kMomentum + 1] += mul(factor, pick(my) + pick(a.flux_y));
  f[kMomentum + 2] += mul(factor, pick(mz) + pick(a.flux_z));
}

// ff: far-field density, momentum (3), energy, then its flux contributions
// (momentum x, y, z and energy, 3 components each).
extern "C" __global__ void cuda_compute_flux(int nelr, const int* __restrict__ neighbours,
                                             const float* __restrict__ normals, const float* __restrict__ v,
                                             const float* __restrict__ ff, float* __restrict__ fluxes) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= nelr) return;
  const State a = load_state(v, i, nelr);
  const float speed = sqrtf(a.speed_sqd);
  float f[kVars] = {0.0f, 0.0f, 0.0f, 0.0f, 0.0f};
  for (int j = 0; j < kFaces; ++j) {
    const int nb = neighbours[j * nelr + i];
    const Float3 normal = {normals[(j + 0 * kFaces) * nelr + i], normals[(j + 1 * kFaces) * nelr + i],
                           normals[(j + 2 * kFaces) * nelr + i]};
    if (nb >= 0) {
      const State b = load_state(v, nb, nelr);
      const float normal_len = sqrtf(mul(normal.x, normal.x) + mul(normal.y, normal.y) + mul(normal.z, normal.z));
      const float factor = -normal_len * kSmoothing * 0.5f *
                           (speed + sqrtf(b.speed_sqd) + a.speed_of_sound + b.speed_of_sound);
      f[kDensity] += mul(factor, a.density - b.density);
      f[kEnergy] += mul(factor, a.energy - b.energy);
      f[kMomentum + 0] += mul(factor, a.momentum.x - b.momentum.x);
      f[kMomentum + 1] += mul(factor, a.momentum.y - b.momentum.y);
      f[kMomentum + 2] += mul(factor, a.momentum.z - b.momentum.z);
      for (int axis = 0; axis < 3; ++axis) {
        const float mass_b = axis == 0 ? b.momentum.x : (axis == 1 ? b.momentum.y : b.momentum.z);
        const float mass_a = axis == 0 ? a.momentum.x : (axis == 1 ? a.momentum.y : a.momentum.z);
        add_average(f, normal, mass_a, mass_b, a, b.flux_x, b.flux_y, b.flux_z, b.flux_energy, axis);
      }
    } else if (nb == -1) {  // wall: pressure only
      f[kMomentum + 0] += mul(normal.x, a.pressure);
      f[kMomentum + 1] += mul(normal.y, a.pressure);
      f[kMomentum + 2] += mul(normal.z, a.pressure);
    } else if (nb == -2) {  // far field
      const Float3 ff_m = {ff[1], ff[2], ff[3]}, ff_mx = {ff[5], ff[6], ff[7]}, ff_my = {ff[8], ff[9], ff[10]},
                   ff_mz = {ff[11], ff[12], ff[13]}, ff_e = {ff[14], ff[15], ff[16]};
      for (int axis = 0; axis < 3; ++axis) {
        const float mass_b = axis == 0 ? ff_m.x : (axis == 1 ? ff_m.y : ff_m.z);
        const float mass_a = axis == 0 ? a.momentum.x : (axis == 1 ? a.momentum.y : a.momentum.z);
        add_average(f, normal, mass_a, mass_b, a, ff_mx, ff_my, ff_mz, ff_e, axis);
      }
    }
  }
  for (int k = 0; k < kVars; ++k) fluxes[k * nelr + i] = f[k];
}

extern "C" __global__ void cuda_time_step(int stage, int nelr, const float* __restrict__ old_v,
                                          float* __restrict__ v, const float* __restrict__ step,
                                          const float* __restrict__ fluxes) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= nelr) return;
  const float factor = step[i] / float(kRk + 1 - stage);
  for (int k = 0; k < kVars; ++k) v[k * nelr + i] = old_v[k * nelr + i] + mul(factor, fluxes[k * nelr + i]);
}
