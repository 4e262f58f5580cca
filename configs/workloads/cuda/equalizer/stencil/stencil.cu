// Parboil-style 7-point 3D Jacobi stencil with 2.5D blocking: a (32 x 4)-thread
// block owns a 32 x 4 column of the x-y plane and marches up z, keeping the
// points below and above in registers and the current plane (with a one-point
// halo, loaded by the edge threads) in shared memory. Only interior points are
// written; the boundary stays as initialised in both buffers.
//   next = c1 * (sum of the 6 neighbours) - c0 * centre
constexpr int kBx = 32, kBy = 4;

extern "C" __global__ void block2d_reg_tiling(float c0, float c1, const float* __restrict__ a0,
                                             float* __restrict__ a_next, int nx, int ny, int nz) {
  __shared__ float plane[kBy + 2][kBx + 2];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int x = blockIdx.x * kBx + tx, y = blockIdx.y * kBy + ty;
  const int stride = nx * ny;
  const int at = y * nx + x;
  float below = a0[at], centre = a0[stride + at];
  for (int z = 1; z < nz - 1; ++z) {
    const float above = a0[(z + 1) * stride + at];
    plane[ty + 1][tx + 1] = centre;
    if (tx == 0 && x > 0) plane[ty + 1][0] = a0[z * stride + at - 1];
    if (tx == kBx - 1 && x < nx - 1) plane[ty + 1][kBx + 1] = a0[z * stride + at + 1];
    if (ty == 0 && y > 0) plane[0][tx + 1] = a0[z * stride + at - nx];
    if (ty == kBy - 1 && y < ny - 1) plane[kBy + 1][tx + 1] = a0[z * stride + at + nx];
    __syncthreads();
    if (x > 0 && x < nx - 1 && y > 0 && y < ny - 1) {
      const float sum = ((((below + above) + plane[ty][tx + 1]) + plane[ty + 2][tx + 1]) + plane[ty + 1][tx]) +
                        plane[ty + 1][tx + 2];
      a_next[z * stride + at] = fmaf(sum, c1, -c0 * centre);
    }
    __syncthreads();  // the plane is rewritten next step
    below = centre;
    centre = above;
  }
}
