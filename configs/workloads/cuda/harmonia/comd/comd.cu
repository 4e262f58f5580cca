// CoMD (exascale proxy, Lennard-Jones): velocity-Verlet molecular dynamics of
// an FCC crystal in reduced units (sigma = epsilon = mass = 1), link cells of
// one unit cell (4 atoms each), periodic box. Per timestep, as CoMD's:
//   comd_advance_velocity (half step), comd_advance_position, comd_force
//   (a thread per atom over the 27 neighbour cells' atoms within the cutoff),
//   comd_advance_velocity (half step).
// Atoms stay in their initial cells (CoMD redistributes them every step; over
// these few steps none moves a cell). Positions are SoA: x[0..n), y[n..2n), z[2n..3n).
// Multiply-adds are explicit fmaf, so the host repeats the run bit for bit.
constexpr int kAtomsPerCell = 4;

extern "C" __global__ void comd_force(const float* __restrict__ pos, float* __restrict__ force,
                                      float* __restrict__ energy, int cells_per_side, float box, float cutoff2) {
  int n = cells_per_side * cells_per_side * cells_per_side * kAtomsPerCell;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int cell = i / kAtomsPerCell;
  int cx = cell % cells_per_side, cy = (cell / cells_per_side) % cells_per_side,
      cz = cell / (cells_per_side * cells_per_side);
  float xi = pos[i], yi = pos[n + i], zi = pos[2 * n + i];
  float fx = 0.0f, fy = 0.0f, fz = 0.0f, e = 0.0f;
  for (int dz = -1; dz <= 1; ++dz)
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx) {
        int nx = cx + dx, ny = cy + dy, nz = cz + dz;
        // periodic images: a neighbour cell across the boundary is shifted by the box
        float sx = nx < 0 ? -box : (nx >= cells_per_side ? box : 0.0f);
        float sy = ny < 0 ? -box : (ny >= cells_per_side ? box : 0.0f);
        float sz = nz < 0 ? -box : (nz >= cells_per_side ? box : 0.0f);
        nx = (nx + cells_per_side) % cells_per_side;
        ny = (ny + cells_per_side) % cells_per_side;
        nz = (nz + cells_per_side) % cells_per_side;
        int first = ((nz * cells_per_side + ny) * cells_per_side + nx) * kAtomsPerCell;
        for (int j = first; j < first + kAtomsPerCell; ++j) {
          if (j == i) continue;
          float rx = xi - (pos[j] + sx), ry = yi - (pos[n + j] + sy), rz = zi - (pos[2 * n + j] + sz);
          float r2 = fmaf(rz, rz, fmaf(ry, ry, rx * rx));
          if (r2 >= cutoff2) continue;
          float ir2 = 1.0f / r2;
          float ir6 = ir2 * ir2 * ir2;
          float scale = 24.0f * ir2 * ir6 * fmaf(2.0f, ir6, -1.0f);  // |F| / r
          fx = fmaf(scale, rx, fx);
          fy = fmaf(scale, ry, fy);
          fz = fmaf(scale, rz, fz);
          // half of 4 (r^-12 - r^-6), each pair being seen twice; ir6 - 1 as one fmaf (clang would fuse it anyway)
          e = fmaf(2.0f * ir6, fmaf(ir2 * ir2, ir2, -1.0f), e);
        }
      }
  force[i] = fx;
  force[n + i] = fy;
  force[2 * n + i] = fz;
  energy[i] = e;
}

extern "C" __global__ void comd_advance_velocity(float* __restrict__ vel, const float* __restrict__ force, int count,
                                                 float dt) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count) vel[i] = fmaf(dt, force[i], vel[i]);
}

extern "C" __global__ void comd_advance_position(float* __restrict__ pos, const float* __restrict__ vel, int count,
                                                 float dt) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count) pos[i] = fmaf(dt, vel[i], pos[i]);
}
