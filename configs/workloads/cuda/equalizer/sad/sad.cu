// Parboil-style SAD (sum of absolute differences) for H.264 motion estimation:
// every 4x4 sub-block of every 16x16 macroblock of the current frame is compared
// with the reference frame at each displacement in [-16, 16]^2 (1089 positions;
// reference pixels off the frame are clamped to its edge, as a clamped texture
// read gives). Then the 4x4 SADs are summed into the larger partitions:
// 8x8, 8x4, 4x8 (larger_sad_calc_8) and 16x16, 16x8, 8x16 (larger_sad_calc_16).
constexpr int kRange = 16;
constexpr int kSide = 2 * kRange + 1;      // 33 displacements per axis
constexpr int kPositions = kSide * kSide;  // 1089
constexpr int kSad8Parts = 20;             // 4 of 8x8, 8 of 8x4 (wide), 8 of 4x8 (tall)
constexpr int kSad16Parts = 5;             // 16x16, 2 of 16x8, 2 of 8x16

static __device__ int clamp_to(int v, int hi) { return v < 0 ? 0 : (v > hi ? hi : v); }

// One block per 4x4 sub-block: grid (4 * macroblocks across, 4 * macroblocks down).
// sad4[((mb * 16) + sub) * kPositions + position], sub = 4 * row + column in the macroblock.
extern "C" __global__ void mb_sad_calc(const unsigned* __restrict__ cur, const unsigned* __restrict__ ref,
                                       unsigned* __restrict__ sad4, int width, int height) {
  const int bx = blockIdx.x, by = blockIdx.y;
  const int x0 = bx * 4, y0 = by * 4;
  unsigned block[16];
  for (int j = 0; j < 4; ++j)
    for (int i = 0; i < 4; ++i) block[j * 4 + i] = cur[(y0 + j) * width + x0 + i];
  const int mb = (by / 4) * (gridDim.x / 4) + bx / 4;
  const int sub = (by % 4) * 4 + bx % 4;
  unsigned* out = sad4 + (mb * 16 + sub) * kPositions;
  for (int p = threadIdx.x; p < kPositions; p += blockDim.x) {
    const int dy = p / kSide - kRange, dx = p % kSide - kRange;
    unsigned sad = 0;
    for (int j = 0; j < 4; ++j) {
      const int row = clamp_to(y0 + dy + j, height - 1) * width;
      for (int i = 0; i < 4; ++i) {
        const int v = int(ref[row + clamp_to(x0 + dx + i, width - 1)]) - int(block[j * 4 + i]);
        sad += unsigned(v < 0 ? -v : v);
      }
    }
    out[p] = sad;
  }
}

// One block per macroblock. sad8[(mb * 20 + part) * kPositions + position]:
// parts 0-3 the 8x8 quadrants (2 * row + column), 4-11 the 8x4 halves of each
// 4-row strip (2 * strip + half), 12-19 the 4x8 halves of each 4-column strip.
extern "C" __global__ void larger_sad_calc_8(const unsigned* __restrict__ sad4, unsigned* __restrict__ sad8) {
  const int mb = blockIdx.x;
  const unsigned* in = sad4 + mb * 16 * kPositions;
  unsigned* out = sad8 + mb * kSad8Parts * kPositions;
  for (int p = threadIdx.x; p < kPositions; p += blockDim.x) {
    unsigned s[16];
    for (int k = 0; k < 16; ++k) s[k] = in[k * kPositions + p];
    for (int r = 0; r < 4; ++r)  // 8 wide x 4 tall: sub-blocks side by side
      for (int h = 0; h < 2; ++h) out[(4 + 2 * r + h) * kPositions + p] = s[r * 4 + 2 * h] + s[r * 4 + 2 * h + 1];
    for (int c = 0; c < 4; ++c)  // 4 wide x 8 tall: sub-blocks one above the other
      for (int h = 0; h < 2; ++h) out[(12 + 2 * c + h) * kPositions + p] = s[8 * h + c] + s[8 * h + 4 + c];
    for (int q = 0; q < 4; ++q) {
      const int r = 2 * (q / 2), c = 2 * (q % 2);
      out[q * kPositions + p] = (s[r * 4 + c] + s[r * 4 + c + 1]) + (s[(r + 1) * 4 + c] + s[(r + 1) * 4 + c + 1]);
    }
  }
}

// One block per macroblock. sad16[(mb * 5 + part) * kPositions + position]: part 0
// the 16x16, 1-2 the 16x8 halves (top, bottom), 3-4 the 8x16 halves (left, right).
extern "C" __global__ void larger_sad_calc_16(const unsigned* __restrict__ sad8, unsigned* __restrict__ sad16) {
  const int mb = blockIdx.x;
  const unsigned* in = sad8 + mb * kSad8Parts * kPositions;
  unsigned* out = sad16 + mb * kSad16Parts * kPositions;
  for (int p = threadIdx.x; p < kPositions; p += blockDim.x) {
    const unsigned q0 = in[p], q1 = in[kPositions + p], q2 = in[2 * kPositions + p], q3 = in[3 * kPositions + p];
    out[p] = (q0 + q1) + (q2 + q3);
    out[kPositions + p] = q0 + q1;
    out[2 * kPositions + p] = q2 + q3;
    out[3 * kPositions + p] = q0 + q2;
    out[4 * kPositions + p] = q1 + q3;
  }
}
