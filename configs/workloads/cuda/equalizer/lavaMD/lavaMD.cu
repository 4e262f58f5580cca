// Rodinia-style lavaMD: particle potentials and forces from the particles of the
// home box and of its (up to 26) neighbouring boxes in a 3D grid of boxes. A block
// per home box stages its particles in shared memory, then each neighbour box's
// positions and charges in turn; thread i < kPerBox accumulates, for its home
// particle, over every particle j of the staged box:
//   r2 = v_i + v_j - (x_i x_j + y_i y_j + z_i z_j),  vij = exp(-a2 r2),
//   f_i.v += q_j vij,  f_i.{x,y,z} += q_j * 2 vij * (pos_i - pos_j)
// (Rodinia's formulas; its v is a per-particle value, not |pos|^2).
constexpr int kPerBox = 100;  // Rodinia's NUMBER_PAR_PER_BOX

extern "C" __global__ void kernel_gpu_cuda(const float4* __restrict__ rv, const float* __restrict__ qv,
                                           float4* __restrict__ fv, int boxes_x, int boxes_y, int boxes_z,
                                           float a2) {
  __shared__ float4 home[kPerBox];
  __shared__ float4 other[kPerBox];
  __shared__ float charge[kPerBox];
  const int box = blockIdx.x, t = threadIdx.x;
  const int bx = box % boxes_x, by = (box / boxes_x) % boxes_y, bz = box / (boxes_x * boxes_y);
  if (t < kPerBox) home[t] = rv[box * kPerBox + t];
  float4 force = {0.0f, 0.0f, 0.0f, 0.0f};
  for (int dz = -1; dz <= 1; ++dz)
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx) {
        const int nx = bx + dx, ny = by + dy, nz = bz + dz;
        if (nx < 0 || nx >= boxes_x || ny < 0 || ny >= boxes_y || nz < 0 || nz >= boxes_z) continue;
        const int neighbour = (nz * boxes_y + ny) * boxes_x + nx;
        __syncthreads();  // the previous box is no longer read
        if (t < kPerBox) {
          other[t] = rv[neighbour * kPerBox + t];
          charge[t] = qv[neighbour * kPerBox + t];
        }
        __syncthreads();
        if (t >= kPerBox) continue;
        const float4 a = home[t];
        for (int j = 0; j < kPerBox; ++j) {
          const float4 b = other[j];
          const float r2 = a.x + b.x - (a.y * b.y + a.z * b.z + a.w * b.w);  // .x holds v
          const float vij = expf(-a2 * r2);
          const float fs = 2.0f * vij;
          const float q = charge[j];
          force.x += q * vij;
          force.y += q * (fs * (a.y - b.y));
          force.z += q * (fs * (a.z - b.z));
          force.w += q * (fs * (a.w - b.w));
        }
      }
  if (t < kPerBox) fv[box * kPerBox + t] = force;
}
