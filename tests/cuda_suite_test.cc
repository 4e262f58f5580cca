// The CUDA suite (configs/workloads/cuda/) end to end: gpupm compiles each
// program, runs it on the GTX 480 model, and dumps every buffer before the first
// launch and after the last; the host recomputes the outputs from the dumped
// inputs. Integers must match exactly. Float tolerances come from the standard
// rounding-error bounds (Higham: a float sum or dot product of n terms is off by
// at most gamma_n * sum|terms|, gamma_n ~ n * 2^-24), each stated where used;
// kernels written with explicit fmaf are repeated bit for bit and compared exactly.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>

#include "support/program_check.h"

using gpupm::test::kU;
using gpupm::test::Mismatches;
using gpupm::test::ProgramRun;
using gpupm::test::sigmoid;

TEST(CudaSuite, fma_loop) {
  ProgramRun run("fma_loop");
  RUN_OR_FAIL(run);
  int iterations = run.arg(0, 1).get<int>();
  float a = run.arg(0, 2).get<float>(), b = run.arg(0, 3).get<float>();
  std::vector<float> out = run.final<float>("out");
  // fma.rn, mul and add are correctly rounded and the kernel spells out every
  // operation: the device result must be bit-identical.
  Mismatches m("out");
  for (size_t i = 0; i < out.size(); ++i) {
    float seed = float(int(i));
    float x0 = seed * 1e-6f, x1 = std::fma(seed, 1e-6f, 0.25f), x2 = std::fma(seed, 1e-6f, 0.5f),
          x3 = std::fma(seed, 1e-6f, 0.75f);
    for (int k = 0; k < iterations; ++k) {
      x0 = std::fma(x0, a, b);
      x1 = std::fma(x1, a, b);
      x2 = std::fma(x2, a, b);
      x3 = std::fma(x3, a, b);
    }
    m.bits(i, out[i], (x0 + x1) + (x2 + x3));
  }
}

TEST(CudaSuite, stream_copy) {
  ProgramRun run("stream_copy");
  RUN_OR_FAIL(run);
  std::vector<float> src = run.initial<float>("src"), dst = run.final<float>("dst");
  ASSERT_EQ(size_t(run.arg(0, 2).get<int>()) * 4, dst.size());  // every float4 is copied
  Mismatches m("dst");                                          // a copy: bit patterns unchanged
  for (size_t i = 0; i < dst.size(); ++i) m.bits(i, dst[i], src[i]);
}

TEST(CudaSuite, bfs) {
  ProgramRun run("bfs");
  RUN_OR_FAIL(run);
  std::vector<int32_t> row_ptr = run.initial<int32_t>("row_ptr"), col = run.initial<int32_t>("col");
  int n = run.arg(0, 2).get<int>(), source = run.arg(0, 3).get<int>();
  std::vector<int32_t> level = gpupm::test::bfs_levels(row_ptr, col, source);
  ASSERT_EQ(level.size(), size_t(n));
  const int deepest = *std::max_element(level.begin(), level.end());
  std::vector<int32_t> got = run.final<int32_t>("level");
  Mismatches m("level");
  for (size_t i = 0; i < got.size(); ++i) m.exact(i, got[i], level[i]);
  // while_nonzero ran exactly deepest + 1 launches: the last one found nothing new,
  // and each launch's last block advanced state[0] and reset its counter.
  std::vector<uint32_t> state = run.final<uint32_t>("state");
  EXPECT_EQ(state[0], uint32_t(deepest + 1));
  EXPECT_EQ(state[1], 0u);
  EXPECT_EQ(run.final<uint32_t>("changed")[0], 0u);
}

TEST(CudaSuite, kmeans) {
  ProgramRun run("kmeans");
  RUN_OR_FAIL(run);
  constexpr int kDims = 4;
  std::vector<float> points = run.initial<float>("points"), centroids = run.initial<float>("centroids");
  int n = run.arg(0, 3).get<int>(), k = run.arg(0, 4).get<int>();
  std::vector<int32_t> assignment(size_t(n), 0);
  // The device's operations repeated exactly: fmaf distances in the same order, and
  // centroid sums that are exact in any order (coordinates are multiples of 1/64 in
  // [-8, 8], gen_inputs.py), divided with a correctly rounded float division.
  auto assign = [&] {
    for (int i = 0; i < n; ++i) {
      int best = 0;
      float best_distance = 3.0e38f;
      for (int c = 0; c < k; ++c) {
        float distance = 0.0f;
        for (int d = 0; d < kDims; ++d) {
          float diff = points[size_t(i * kDims + d)] - centroids[size_t(c * kDims + d)];
          distance = std::fma(diff, diff, distance);
        }
        if (distance < best_distance) best_distance = distance, best = c;
      }
      assignment[size_t(i)] = best;
    }
  };
  auto update = [&] {
    for (int c = 0; c < k; ++c) {
      double sums[kDims] = {0, 0, 0, 0};
      int count = 0;
      for (int i = 0; i < n; ++i)
        if (assignment[size_t(i)] == c) {
          for (int d = 0; d < kDims; ++d) sums[d] += points[size_t(i * kDims + d)];
          ++count;
        }
      if (count == 0) continue;
      for (int d = 0; d < kDims; ++d) {
        ASSERT_EQ(double(float(sums[d])), sums[d]) << "inputs no longer give exact sums";
        centroids[size_t(c * kDims + d)] = float(sums[d]) / float(count);
      }
    }
  };
  for (size_t l = 0; l < run.launch_count(); ++l) (l % 2 == 0) ? assign() : update();
  std::vector<int32_t> got_assignment = run.final<int32_t>("assignment");
  std::vector<float> got_centroids = run.final<float>("centroids");
  Mismatches ma("assignment"), mc("centroids");
  for (size_t i = 0; i < assignment.size(); ++i) ma.exact(i, got_assignment[i], assignment[i]);
  for (size_t i = 0; i < centroids.size(); ++i) mc.bits(i, got_centroids[i], centroids[i]);
}

TEST(CudaSuite, spmv_csr) {
  ProgramRun run("spmv_csr");
  RUN_OR_FAIL(run);
  std::vector<int32_t> row_ptr = run.initial<int32_t>("row_ptr"), col = run.initial<int32_t>("col");
  std::vector<float> val = run.initial<float>("val"), x = run.initial<float>("x"), y = run.final<float>("y");
  Mismatches m("y");
  for (size_t r = 0; r + 1 < row_ptr.size(); ++r) {
    double sum = 0, magnitude = 0;
    int length = row_ptr[r + 1] - row_ptr[r];
    for (int e = row_ptr[r]; e < row_ptr[r + 1]; ++e) {
      double term = double(val[size_t(e)]) * x[size_t(col[size_t(e)])];
      sum += term;
      magnitude += std::fabs(term);
    }
    // Each lane accumulates ceil(length/32) fused terms, then 5 shuffle additions:
    // gamma_(ceil(length/32)+5) * sum|terms|, doubled for margin.
    double depth = std::ceil(length / 32.0) + 5;
    m.near(r, y[r], sum, 2 * depth * kU * magnitude);
  }
}

TEST(CudaSuite, stencil2d) {
  ProgramRun run("stencil2d");
  RUN_OR_FAIL(run);
  int nx = run.arg(0, 2).get<int>(), ny = run.arg(0, 3).get<int>();
  std::vector<float> a = run.initial<float>("a"), b = run.initial<float>("b");
  // The same float operations in the same order (no multiply-add to contract):
  // bit-identical results expected.
  auto step = [&](const std::vector<float>& in, std::vector<float>& out) {
    for (int y = 0; y < ny; ++y)
      for (int x = 0; x < nx; ++x) {
        size_t i = size_t(y * nx + x);
        if (x == 0 || y == 0 || x == nx - 1 || y == ny - 1) out[i] = in[i];
        else out[i] = 0.25f * (in[i - size_t(nx)] + in[i + size_t(nx)] + in[i - 1] + in[i + 1]);
      }
  };
  for (size_t l = 0; l < run.launch_count(); ++l) (l % 2 == 0) ? step(a, b) : step(b, a);
  std::vector<float> got_a = run.final<float>("a"), got_b = run.final<float>("b");
  Mismatches ma("a"), mb("b");
  for (size_t i = 0; i < a.size(); ++i) ma.bits(i, got_a[i], a[i]);
  for (size_t i = 0; i < b.size(); ++i) mb.bits(i, got_b[i], b[i]);
}

TEST(CudaSuite, histogram) {
  ProgramRun run("histogram");
  RUN_OR_FAIL(run);
  std::vector<uint8_t> data = run.initial<uint8_t>("data");
  std::vector<uint32_t> want(256, 0);
  for (uint8_t v : data) ++want[v];
  std::vector<uint32_t> bins = run.final<uint32_t>("bins");
  Mismatches m("bins");  // integer atomics: exact whatever the order
  for (size_t i = 0; i < 256; ++i) m.exact(i, bins[i], want[i]);
}

TEST(CudaSuite, reduce) {
  ProgramRun run("reduce");
  RUN_OR_FAIL(run);
  std::vector<float> in = run.initial<float>("in"), partial = run.final<float>("partial");
  size_t n = size_t(run.arg(0, 2).get<int>()), threads = 256, blocks = partial.size();
  size_t stride = threads * blocks;
  Mismatches mp("partial");
  for (size_t block = 0; block < blocks; ++block) {
    double sum = 0, magnitude = 0;
    for (size_t t = 0; t < threads; ++t)
      for (size_t i = block * threads + t; i < n; i += stride) sum += in[i], magnitude += std::fabs(in[i]);
    // Depth of the device's summation tree: ceil(n/stride) sequential additions per
    // thread, 5 shuffle levels per warp, 5 more over the warps' sums:
    // gamma_depth * sum|x|, doubled for margin.
    double depth = std::ceil(double(n) / double(stride)) + 10;
    mp.near(block, partial[block], sum, 2 * depth * kU * magnitude);
  }
  // The second launch sums the device's partials (one per thread, then 10 levels).
  double total = 0, magnitude = 0;
  for (float p : partial) total += p, magnitude += std::fabs(p);
  Mismatches mt("total");
  mt.near(0, run.final<float>("total")[0], total, 2 * 11 * kU * magnitude);
}

TEST(CudaSuite, matmul_tiled) {
  ProgramRun run("matmul_tiled");
  RUN_OR_FAIL(run);
  int n = run.arg(0, 3).get<int>();
  std::vector<float> a = run.initial<float>("a"), b = run.initial<float>("b"), c = run.final<float>("c");
  Mismatches m("c");
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      double sum = 0, magnitude = 0;
      for (int k = 0; k < n; ++k) {
        double term = double(a[size_t(i * n + k)]) * b[size_t(k * n + j)];
        sum += term;
        magnitude += std::fabs(term);
      }
      // A dot product of n terms accumulated in float: gamma_n * sum|a b|, doubled.
      m.near(size_t(i * n + j), c[size_t(i * n + j)], sum, 2 * n * kU * magnitude);
    }
}

namespace {

// Error bound of y = 1/(1 + __expf(-s)) when s is known to within s_error: the
// sigmoid's slope is at most 1/4; __expf is ex2.approx (about 2 ulp) of s*log2(e),
// whose rounding adds |s| * 2^-24 relative; the add and rcp round once each.
double sigmoid_error(double s, double s_error) { return 0.25 * (s_error + std::fabs(s) * kU + 4 * kU) + 2 * kU; }

}  // namespace

TEST(CudaSuite, backprop_layer) {
  ProgramRun run("backprop_layer");
  RUN_OR_FAIL(run);
  int n_in = run.arg(0, 4).get<int>(), n_out = run.arg(0, 5).get<int>(), batch = run.arg(1, 7).get<int>();
  double eta = run.arg(1, 8).get<double>(), momentum = run.arg(1, 9).get<double>();
  std::vector<float> x = run.initial<float>("x"), w = run.initial<float>("w"), bias = run.initial<float>("bias"),
                     target = run.initial<float>("target"), previous = run.initial<float>("prev_step");
  auto at = [](int row, int columns, int column) { return size_t(row * columns + column); };

  // Forward pass in double; error of the float sum: gamma_(n_in+1) * sum|terms|.
  auto forward = [&](const std::vector<double>& weights, const std::vector<double>& weight_error,
                     std::vector<double>& y, std::vector<double>& y_error) {
    for (int s = 0; s < batch; ++s)
      for (int o = 0; o < n_out; ++o) {
        double sum = bias[size_t(o)], magnitude = std::fabs(bias[size_t(o)]), propagated = 0;
        for (int i = 0; i < n_in; ++i) {
          double xi = x[at(s, n_in, i)];
          sum += xi * weights[at(i, n_out, o)];
          magnitude += std::fabs(xi * weights[at(i, n_out, o)]);
          propagated += std::fabs(xi) * weight_error[at(i, n_out, o)];  // from the device's own weights
        }
        y[at(s, n_out, o)] = sigmoid(sum);
        y_error[at(s, n_out, o)] = sigmoid_error(sum, (n_in + 1) * kU * magnitude + propagated);
      }
  };
  std::vector<double> w0(w.begin(), w.end()), no_error(w.size(), 0.0);
  std::vector<double> y1(size_t(batch * n_out)), y1_error(y1.size());
  forward(w0, no_error, y1, y1_error);

  // Weight adjustment. delta = y(1-y)(t-y) has slope at most 1.25 in y for y, t in
  // [0, 1]; the batch sum adds gamma_batch * sum|delta x|; the step and the new
  // weight round a few times more (4 ulp of their magnitudes). Doubled for margin.
  std::vector<double> w1(w.size()), step(w.size()), w1_error(w.size());
  for (int i = 0; i < n_in; ++i)
    for (int o = 0; o < n_out; ++o) {
      double gradient = 0, magnitude = 0, propagated = 0;
      for (int s = 0; s < batch; ++s) {
        double out = y1[at(s, n_out, o)], xi = x[at(s, n_in, i)];
        double delta = out * (1 - out) * (target[at(s, n_out, o)] - out);
        gradient += delta * xi;
        magnitude += std::fabs(delta * xi);
        propagated += std::fabs(xi) * 1.25 * y1_error[at(s, n_out, o)];
      }
      size_t index = at(i, n_out, o);
      step[index] = eta * gradient + momentum * previous[index];
      w1[index] = w[index] + step[index];
      double rounding =
          4 * kU * (std::fabs(eta * gradient) + std::fabs(momentum * previous[index]) + std::fabs(w1[index]));
      w1_error[index] = 2 * (eta * (propagated + (batch + 3) * kU * magnitude) + rounding);
    }
  std::vector<double> y2(y1.size()), y2_error(y1.size());
  forward(w1, w1_error, y2, y2_error);

  std::vector<float> got_w = run.final<float>("w"), got_step = run.final<float>("prev_step"),
                     got_y = run.final<float>("y");
  Mismatches mw("w"), ms("prev_step"), my("y");
  for (size_t i = 0; i < w1.size(); ++i) {
    mw.near(i, got_w[i], w1[i], w1_error[i]);
    ms.near(i, got_step[i], step[i], w1_error[i]);
  }
  for (size_t i = 0; i < y2.size(); ++i) my.near(i, got_y[i], y2[i], 2 * y2_error[i]);
}

TEST(CudaSuite, particle_filter) {
  ProgramRun run("particle_filter");
  RUN_OR_FAIL(run);
  std::vector<float> px = run.initial<float>("px"), py = run.initial<float>("py"),
                     landmarks = run.initial<float>("landmarks"), ranges = run.initial<float>("ranges");
  int n_landmarks = run.arg(0, 6).get<int>();
  float map_size = run.arg(0, 7).get<float>();
  size_t n = px.size();
  // The distance (and so every branch) is repeated bit for bit in float; the
  // log-likelihood terms are then evaluated in double.
  std::vector<double> weight(n, 0.0), relative_error(n, 0.0);
  double total = 0;
  for (size_t i = 0; i < n; ++i) {
    float x = px[i], y = py[i];
    if (x < 0.0f || y < 0.0f || x > map_size || y > map_size) continue;  // weight 0, exactly
    double log_likelihood = 0, magnitude = 0;
    for (int j = 0; j < n_landmarks; ++j) {
      float dx = x - landmarks[size_t(2 * j)], dy = y - landmarks[size_t(2 * j + 1)];
      float error = std::sqrt(std::fma(dx, dx, dy * dy)) - ranges[size_t(j)];
      double term =
          std::fabs(error) < 3.0f ? -0.125 * double(error) * error : -(1.0 + 0.5 * std::log(std::fabs(error)));
      log_likelihood += term;
      magnitude += std::fabs(term);
    }
    weight[i] = std::exp(log_likelihood);
    total += weight[i];
    // Absolute error of the log-likelihood: each term rounds about 3 times, the
    // outlier terms add lg2.approx's absolute error (< 2^-22), the 16-term sum
    // gamma_16; __expf then adds ex2.approx's 2 ulp and |ll| * 2^-24 relative.
    double ll_error = (3 + n_landmarks) * kU * magnitude + n_landmarks * 4 * kU;
    relative_error[i] = ll_error + std::fabs(log_likelihood) * kU + 4 * kU;
  }
  double max_relative = *std::max_element(relative_error.begin(), relative_error.end());
  // The total is a float sum of non-negative weights, each off by max_relative at
  // most; the device adds 5 shuffle levels, 8 warp sums and one float atomic per
  // block in any order: gamma_(5+8+blocks) relative. Doubled for margin.
  double blocks = double(run.arg(1, 2).get<int>() + 255) / 256;
  double total_relative = 2 * (max_relative + (5 + 8 + blocks) * kU);
  float got_total = run.final<float>("total")[0];
  Mismatches mt("total"), mw("weight");
  mt.near(0, got_total, total, total_relative * total);
  std::vector<float> got = run.final<float>("weight");
  for (size_t i = 0; i < n; ++i) {
    double want = weight[i] / total;
    if (weight[i] == 0.0) mw.exact(i, got[i], 0.0f);
    else mw.near(i, got[i], want, (2 * relative_error[i] + total_relative + 2 * kU) * want);
  }
}

TEST(CudaSuite, needleman_wunsch) {
  ProgramRun run("needleman_wunsch");
  RUN_OR_FAIL(run);
  // nw_tiles' arguments: score, seq_a, seq_b, n, diagonal, match, mismatch, gap.
  int n = run.arg(1, 3).get<int>(), match = run.arg(1, 5).get<int>(), mismatch = run.arg(1, 6).get<int>(),
      gap = run.arg(1, 7).get<int>();
  std::vector<uint8_t> a = run.initial<uint8_t>("seq_a"), b = run.initial<uint8_t>("seq_b");
  size_t stride = size_t(n) + 1;
  std::vector<int32_t> h(stride * stride);
  for (size_t i = 0; i <= size_t(n); ++i) h[i] = h[i * stride] = -gap * int(i);
  for (size_t i = 1; i <= size_t(n); ++i)
    for (size_t j = 1; j <= size_t(n); ++j) {
      int diagonal = h[(i - 1) * stride + j - 1] + (a[i - 1] == b[j - 1] ? match : mismatch);
      h[i * stride + j] = std::max(diagonal, std::max(h[(i - 1) * stride + j], h[i * stride + j - 1]) - gap);
    }
  // Every tile anti-diagonal was launched once, in order: all of H is final.
  ASSERT_EQ(run.launch_count(), size_t(2 * (n / 32) - 1 + 1));
  std::vector<int32_t> got = run.final<int32_t>("score");
  Mismatches m("score");
  for (size_t i = 0; i < h.size(); ++i) m.exact(i, got[i], h[i]);
}

TEST(CudaSuite, cache_reread) {
  ProgramRun run("cache_reread");
  RUN_OR_FAIL(run);
  uint32_t passes = run.arg(0, 2).get<uint32_t>();
  std::vector<uint32_t> data = run.initial<uint32_t>("data"), out = run.final<uint32_t>("out");
  Mismatches m("out");  // unsigned arithmetic wraps the same way on both sides
  for (size_t t = 0; t < out.size(); ++t) {
    uint32_t pass_sum = 0;
    for (size_t k = 0; k < 8; ++k) pass_sum += data[(t >> 5) * 256 + k * 32 + (t & 31)];
    m.exact(t, out[t], uint32_t(pass_sum * passes));
  }
}
