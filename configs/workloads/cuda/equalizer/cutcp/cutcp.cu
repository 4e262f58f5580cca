// Parboil-style cutcp: the electrostatic potential on a lattice from point charges,
// with a smooth cutoff c:  V(p) = sum over atoms with r2 < c2 of q / r * (1 - r2 / c2)^2.
// Atoms are sorted into cubic bins of side kBinSide, kBinDepth slots each (empty
// slots have q = 0). A block of 8 x 8 x 3 threads owns an 8 x 8 x 6 region of
// lattice points (two per thread, kRegionZ / 2 apart); it walks every bin that can
// hold atoms within the cutoff of its region, stages the bin's atoms in shared
// memory and each thread accumulates them into its two points.
constexpr int kBinDepth = 8;
constexpr float kBinSide = 4.0f;
constexpr int kRegionX = 8, kRegionY = 8, kRegionZ = 6;

extern "C" __global__ void cuda_cutoff_potential_lattice(const float4* __restrict__ bins, int bins_x, int bins_y,
                                                         int bins_z, float spacing, float cutoff,
                                                         float* __restrict__ lattice, int nx, int ny) {
  __shared__ float4 atoms[kBinDepth];
  const int tx = threadIdx.x, ty = threadIdx.y, tz = threadIdx.z;
  const int t = (tz * kRegionY + ty) * kRegionX + tx;
  const int px = blockIdx.x * kRegionX + tx, py = blockIdx.y * kRegionY + ty;
  const int pz0 = blockIdx.z * kRegionZ + tz, pz1 = pz0 + kRegionZ / 2;
  const float x = px * spacing, y = py * spacing, z0 = pz0 * spacing, z1 = pz1 * spacing;
  const float c2 = cutoff * cutoff, inv_c2 = 1.0f / c2;
  // The bins that overlap the region grown by the cutoff.
  const float lo_x = blockIdx.x * kRegionX * spacing - cutoff, hi_x = lo_x + (kRegionX - 1) * spacing + 2 * cutoff;
  const float lo_y = blockIdx.y * kRegionY * spacing - cutoff, hi_y = lo_y + (kRegionY - 1) * spacing + 2 * cutoff;
  const float lo_z = blockIdx.z * kRegionZ * spacing - cutoff, hi_z = lo_z + (kRegionZ - 1) * spacing + 2 * cutoff;
  const int bx0 = max(0, int(floorf(lo_x / kBinSide))), bx1 = min(bins_x - 1, int(floorf(hi_x / kBinSide)));
  const int by0 = max(0, int(floorf(lo_y / kBinSide))), by1 = min(bins_y - 1, int(floorf(hi_y / kBinSide)));
  const int bz0 = max(0, int(floorf(lo_z / kBinSide))), bz1 = min(bins_z - 1, int(floorf(hi_z / kBinSide)));
  float e0 = 0.0f, e1 = 0.0f;
  for (int bz = bz0; bz <= bz1; ++bz)
    for (int by = by0; by <= by1; ++by)
      for (int bx = bx0; bx <= bx1; ++bx) {
        __syncthreads();  // the previous bin is no longer read
        if (t < kBinDepth) atoms[t] = bins[((bz * bins_y + by) * bins_x + bx) * kBinDepth + t];
        __syncthreads();
        for (int a = 0; a < kBinDepth; ++a) {
          const float4 atom = atoms[a];
          if (atom.w == 0.0f) break;  // the rest of the bin is empty
          const float dx = x - atom.x, dy = y - atom.y;
          const float dxy2 = dx * dx + dy * dy;
          const float dz0 = z0 - atom.z, r2_0 = dxy2 + dz0 * dz0;
          if (r2_0 < c2) {
            const float s = 1.0f - r2_0 * inv_c2;
            e0 += atom.w * rsqrtf(r2_0) * s * s;
          }
          const float dz1 = z1 - atom.z, r2_1 = dxy2 + dz1 * dz1;
          if (r2_1 < c2) {
            const float s = 1.0f - r2_1 * inv_c2;
            e1 += atom.w * rsqrtf(r2_1) * s * s;
          }
        }
      }
  lattice[(pz0 * ny + py) * nx + px] = e0;
  lattice[(pz1 * ny + py) * nx + px] = e1;
}
