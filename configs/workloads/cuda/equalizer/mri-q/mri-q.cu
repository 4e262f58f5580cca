// Parboil-style MRI-Q: the Q matrix of a non-Cartesian MRI reconstruction. For
// every voxel x and k-space sample k:
//   Q(x) += |phi(k)|^2 * (cos(2 pi k.x), sin(2 pi k.x))
// ComputePhiMag squares the sample weights once; ComputeQ runs a thread per voxel
// over one chunk of samples per launch (Parboil launches it chunk by chunk because
// a chunk has to fit in constant memory; here the samples are read-only global
// loads that every thread of a warp shares), accumulating into Qr, Qi.
constexpr float kTwoPi = 6.2831853071795864769f;

extern "C" __global__ void ComputePhiMag(const float* __restrict__ phi_r, const float* __restrict__ phi_i,
                                         float* __restrict__ phi_mag, int num_k) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < num_k) phi_mag[k] = phi_r[k] * phi_r[k] + phi_i[k] * phi_i[k];
}

extern "C" __global__ void ComputeQ(const float* __restrict__ kx, const float* __restrict__ ky,
                                    const float* __restrict__ kz, const float* __restrict__ phi_mag,
                                    const float* __restrict__ x, const float* __restrict__ y,
                                    const float* __restrict__ z, float* __restrict__ qr, float* __restrict__ qi,
                                    int first_k, int chunk, int num_x) {
  const int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= num_x) return;
  const float vx = x[v], vy = y[v], vz = z[v];
  float sum_r = qr[v], sum_i = qi[v];
  for (int k = first_k; k < first_k + chunk; ++k) {
    const float arg = kTwoPi * (kx[k] * vx + ky[k] * vy + kz[k] * vz);
    const float weight = phi_mag[k];
    sum_r += weight * cosf(arg);
    sum_i += weight * sinf(arg);
  }
  qr[v] = sum_r;
  qi[v] = sum_i;
}
