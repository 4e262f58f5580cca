// NN (Rodinia nn): Euclidean distance from every record's (latitude, longitude)
// to a target point, a thread per record; the host then picks the k nearest.
extern "C" __global__ void euclid(const float2* __restrict__ records, float* __restrict__ distances, int count,
                                  float lat, float lng) {
  int i = (blockIdx.y * gridDim.x + blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= count) return;
  float2 r = records[i];
  float dlat = lat - r.x, dlng = lng - r.y;
  distances[i] = sqrtf(fmaf(dlat, dlat, dlng * dlng));  // explicit, so the host repeats it bit for bit
}
