// The RLC power-delivery network: impedance shape of the shipped packages,
// stability, the trapezoidal propagator against the exact (matrix
// exponential) discretisation, superposition, DC behaviour, locality, and the
// time-domain response against |Z(f)|.
#include "gpupm/common/json_reader.h"
#include "gpupm/vr/pdn.h"

#include "support/test_support.h"

#include <gtest/gtest.h>
#include <unsupported/Eigen/MatrixFunctions>

#include <cmath>
#include <random>

namespace gpupm {
namespace {

constexpr double kDt = 1.0 / 700e6;  // one SM cycle at 700 MHz
constexpr uint32_t kSms = 15;

PdnNetwork package(const std::string& name) {
  std::string file = test::source_path("configs/pdn/package_" + name + ".json");
  Json doc = load_json_file(file);
  JsonReader r(doc, file, "");
  PdnNetwork n = parse_pdn_network(r);
  r.finish();
  return n;
}

void peaks(const RlcPdn& pdn, Resonance& second, Resonance& first) {
  std::vector<double> hz, z;
  for (int k = 0; k <= 5 * 200; ++k) {
    double f = 1e4 * std::pow(10.0, k / 200.0);
    hz.push_back(f);
    z.push_back(std::abs(pdn.chip_impedance(f)));
  }
  split_resonances(find_resonances(hz, z), 10e6, second, first);
}

TEST(Pdn, DefaultPackageHasThePapersTwoResonances) {
  RlcPdn pdn(package("default"), kSms);
  Resonance second, first;
  peaks(pdn, second, first);
  EXPECT_GT(second.hz, 0.7e6);
  EXPECT_LT(second.hz, 2e6);
  EXPECT_GT(first.hz, 70e6);
  EXPECT_LT(first.hz, 150e6);
  EXPECT_GT(first.ohm, 1.5 * second.ohm) << "the first-order peak stands above the second-order one";
  // Both are real peaks: |Z| falls away on each side.
  EXPECT_LT(std::abs(pdn.chip_impedance(10e6)), 0.6 * second.ohm);
  EXPECT_LT(std::abs(pdn.chip_impedance(1e9)), 0.3 * first.ohm);
}

TEST(Pdn, PackagesScaleTheRightPeak) {
  Resonance s0, f0;
  peaks(RlcPdn(package("default"), kSms), s0, f0);
  struct Want {
    const char* name;
    double second, first;
  };
  for (Want w : {Want{"I", 2, 2}, Want{"II", 2, 1}, Want{"III", 1, 2}}) {
    Resonance s, f;
    peaks(RlcPdn(package(w.name), kSms), s, f);
    EXPECT_NEAR(s.ohm / s0.ohm, w.second, 0.1 * w.second) << w.name;
    EXPECT_NEAR(f.ohm / f0.ohm, w.first, 0.1 * w.first) << w.name;
    EXPECT_NEAR(s.hz / s0.hz, 1.0, 0.1) << w.name;
    EXPECT_NEAR(f.hz / f0.hz, 1.0, 0.1) << w.name;
  }
}

TEST(Pdn, ContinuousAndDiscreteSystemsAreStable) {
  RlcPdn pdn(package("default"), kSms);
  Eigen::EigenSolver<Eigen::MatrixXd> es(pdn.a());
  for (int i = 0; i < es.eigenvalues().size(); ++i) EXPECT_LT(es.eigenvalues()(i).real(), 0.0);
  // Stiff: the fastest mode is far faster than one SM cycle.
  double fastest = 0;
  for (int i = 0; i < es.eigenvalues().size(); ++i) fastest = std::max(fastest, std::abs(es.eigenvalues()(i)));
  EXPECT_GT(fastest * kDt, 2.0);
}

// Drives a network with a seeded random activity pattern (SMs switching
// between idle and busy levels, bursts) and returns every SM's voltage trace.
std::vector<std::vector<double>> drive(RlcPdn& pdn, int cycles, uint32_t seed, int only_sm = -1) {
  std::mt19937 rng(seed);
  std::vector<double> amps(kSms, 2.0), volts;
  std::vector<std::vector<double>> out;
  for (int n = 0; n < cycles; ++n) {
    for (uint32_t i = 0; i < kSms; ++i) {
      if (rng() % 16 == 0) amps[i] = 2.0 + 6.0 * double(rng() % 1000) / 1000.0;
    }
    std::vector<double> a = amps;
    if (only_sm >= 0)
      for (uint32_t i = 0; i < kSms; ++i)
        if (int(i) != only_sm) a[i] = 0;
    pdn.step(kDt, 1.0, a, volts);
    out.push_back(volts);
  }
  return out;
}

TEST(Pdn, SuperpositionOfSingleSmResponses) {
  // Paper Sec. 2: the network is linear, so the response to all SMs equals
  // the sum of each SM's response alone (deviations from the unloaded state).
  PdnNetwork net = package("default");
  RlcPdn all(net, kSms);
  std::vector<double> zero(kSms, 0.0);
  all.reset(1.0, zero);
  auto full = drive(all, 3000, 7);
  std::vector<std::vector<double>> sum(full.size(), std::vector<double>(kSms, 1.0));
  for (uint32_t k = 0; k < kSms; ++k) {
    RlcPdn one(net, kSms);
    one.reset(1.0, zero);
    auto part = drive(one, 3000, 7, int(k));
    for (size_t n = 0; n < part.size(); ++n)
      for (uint32_t i = 0; i < kSms; ++i) sum[n][i] += part[n][i] - 1.0;
  }
  double worst = 0, err = 0;
  for (size_t n = 0; n < full.size(); ++n)
    for (uint32_t i = 0; i < kSms; ++i) {
      worst = std::max(worst, 1.0 - full[n][i]);
      err = std::max(err, std::abs(full[n][i] - sum[n][i]));
    }
  EXPECT_GT(worst, 0.01);
  EXPECT_LT(err, 1e-6 * worst);
}

TEST(Pdn, TrapezoidalPropagatorMatchesTheExactDiscretisation) {
  // With the current held over each cycle, x[n+1] = e^{A dt} x[n] + A^-1 (e^{A dt} - I) B u
  // is exact; the folded trapezoidal sub-steps must track it closely.
  PdnNetwork net = package("default");
  RlcPdn pdn(net, kSms);
  const Eigen::MatrixXd& a = pdn.a();
  const Eigen::MatrixXd& b = pdn.b();
  const int n = int(a.rows());
  Eigen::MatrixXd ad = (a * kDt).exp();
  Eigen::MatrixXd bd = a.partialPivLu().solve((ad - Eigen::MatrixXd::Identity(n, n)) * b);
  std::vector<double> zero(kSms, 0.0);
  pdn.reset(1.0, zero);
  Eigen::VectorXd x = a.partialPivLu().solve(-b.col(0) * 1.0);
  std::mt19937 rng(3);
  std::vector<double> amps(kSms, 0.0), volts;
  double worst = 0, err = 0;
  for (int k = 0; k < 4000; ++k) {
    if (k % 700 == 100) amps.assign(kSms, 8.0);  // aligned steps: the hardest case
    if (k % 700 == 400) amps.assign(kSms, 2.0);
    if (k > 2800)
      for (double& i : amps) i = 2.0 + 6.0 * double(rng() % 2);
    pdn.step(kDt, 1.0, amps, volts);
    Eigen::VectorXd u(1 + kSms);
    u(0) = 1.0;
    for (uint32_t i = 0; i < kSms; ++i) u(1 + int(i)) = amps[i];
    x = ad * x + bd * u;
    for (uint32_t i = 0; i < kSms; ++i) {
      double exact = x(n - 16 + int(pdn.tile_of(i)));
      worst = std::max(worst, 1.0 - exact);
      err = std::max(err, std::abs(volts[i] - exact));
    }
  }
  EXPECT_GT(worst, 0.05);
  EXPECT_LT(err, 0.02 * worst) << "worst droop " << worst;
}

TEST(Pdn, MoreSubstepsConverge) {
  PdnNetwork net = package("default");
  auto vmin = [&](uint32_t substeps) {
    net.substeps = substeps;
    RlcPdn pdn(net, kSms);
    std::vector<double> amps(kSms, 2.0), volts;
    for (int k = 0; k < 200; ++k) pdn.step(kDt, 1.0, amps, volts);
    amps.assign(kSms, 8.5);
    double m = 1.0;
    for (int k = 0; k < 2000; ++k) {
      pdn.step(kDt, 1.0, amps, volts);
      for (double v : volts) m = std::min(m, v);
    }
    return m;
  };
  double ref = vmin(128);
  EXPECT_NEAR(vmin(8), ref, 0.002);
  EXPECT_GT(std::abs(vmin(1) - ref), std::abs(vmin(8) - ref)) << "one trapezoidal step per cycle is coarser";
}

TEST(Pdn, RemoteSenseRegulatesTheIrDropAwayWithoutItItStays) {
  PdnNetwork net = package("default");
  std::vector<double> amps(kSms, 6.0), volts;
  double total = 6.0 * kSms;
  {
    RlcPdn pdn(net, kSms);
    pdn.reset(1.0, std::vector<double>(kSms, 0.0));
    for (int k = 0; k < 40000; ++k) pdn.step(kDt, 1.0, amps, volts);  // 57 us >> 1 / (2 pi 100 kHz)
    double mean = 0;
    for (double v : volts) mean += v / kSms;
    EXPECT_GT(mean, 1.0 - 0.002) << "regulated to the set-point (tile 15 carries no load)";
  }
  {
    net.vrm_bandwidth_hz = 0;
    RlcPdn pdn(net, kSms);
    pdn.reset(1.0, amps);  // DC operating point
    pdn.step(kDt, 1.0, amps, volts);
    double mean = 0;
    for (double v : volts) mean += v / kSms;
    EXPECT_NEAR(1.0 - mean, total * pdn.series_resistance(), 0.1 * total * pdn.series_resistance());
  }
}

TEST(Pdn, LocalDroopFadesWithDistance) {
  // Two neighbouring SMs (5 and 6, the middle of the 4 x 4 grid) step up: the
  // droop is largest at them and falls with grid distance (paper Sec. 3.4).
  RlcPdn pdn(package("default"), kSms);
  std::vector<double> amps(kSms, 2.0), volts, vmin(kSms, 1.0);
  for (int k = 0; k < 500; ++k) pdn.step(kDt, 1.0, amps, volts);
  amps[5] = amps[6] = 8.5;
  for (int k = 0; k < 3000; ++k) {
    pdn.step(kDt, 1.0, amps, volts);
    for (uint32_t i = 0; i < kSms; ++i) vmin[i] = std::min(vmin[i], volts[i]);
  }
  auto droop = [&](uint32_t i) { return 1.0 - vmin[i]; };
  EXPECT_GT(droop(5), droop(1));   // neighbour
  EXPECT_GT(droop(1), droop(12));  // two rows further
  EXPECT_GT(droop(9), droop(13));
  EXPECT_GT(droop(5), 1.5 * droop(12));
}

TEST(Pdn, SinusoidalLoadGivesTheImpedanceAmplitude) {
  // Time domain and frequency domain agree: a chip-wide sinusoidal current at
  // each resonance produces |Z(f)| x amplitude of voltage ripple.
  for (double f : {1.324e6, 20e6}) {
    PdnNetwork net = package("default");
    net.substeps = 32;
    RlcPdn pdn(net, kSms);
    std::vector<double> amps(kSms, 4.0), volts;
    const double amp = 0.5;  // A per SM
    double lo = 1e9, hi = -1e9;
    const int settle = 30000, cycles = 60000;
    for (int k = 0; k < cycles; ++k) {
      for (uint32_t i = 0; i < kSms; ++i) amps[i] = 4.0 + amp * std::sin(2 * M_PI * f * kDt * (k + 0.5));
      pdn.step(kDt, 1.0, amps, volts);
      if (k < settle) continue;
      double mean = 0;
      for (double v : volts) mean += v / kSms;
      lo = std::min(lo, mean);
      hi = std::max(hi, mean);
    }
    double z = std::abs(pdn.chip_impedance(f));
    EXPECT_NEAR((hi - lo) / 2, z * amp * kSms, 0.05 * z * amp * kSms) << f;
  }
}

TEST(Pdn, NewStepSizeBuildsAnotherPropagator) {
  RlcPdn pdn(package("default"), kSms);
  std::vector<double> amps(kSms, 5.0), volts;
  pdn.step(kDt, 1.0, amps, volts);
  double before = volts[0];
  pdn.step(kDt * 700.0 / 805.0, 1.15, amps, volts);  // DVFS to the high level
  EXPECT_EQ(pdn.propagators(), 2u);
  EXPECT_NEAR(volts[0], before, 0.02) << "no jump from the change of step";
  pdn.step(kDt, 1.0, amps, volts);
  EXPECT_EQ(pdn.propagators(), 2u);
}

TEST(Pdn, ResonancesAreRefinedLocalMaxima) {
  std::vector<double> hz, z;
  for (int k = 0; k <= 500; ++k) {  // 10 kHz .. 1 GHz
    double f = 1e4 * std::pow(10.0, k / 100.0);
    hz.push_back(f);
    double x1 = std::log(f / 1e6), x2 = std::log(f / 1e8);
    z.push_back(1.0 * std::exp(-x1 * x1) + 3.0 * std::exp(-x2 * x2));
  }
  Resonance second, first;
  split_resonances(find_resonances(hz, z), 10e6, second, first);
  EXPECT_NEAR(second.hz, 1e6, 0.02e6);
  EXPECT_NEAR(first.hz, 1e8, 2e6);
  EXPECT_NEAR(first.ohm, 3.0, 0.01);
}

TEST(PdnConfig, BuiltInDefaultsAreTheDefaultPackage) {
  PdnNetwork file = package("default"), code;
  EXPECT_EQ(file.scale, code.scale);
  EXPECT_EQ(file.vrm_bandwidth_hz, code.vrm_bandwidth_hz);
  EXPECT_EQ(file.substeps, code.substeps);
  for (double f : {1e6, 1.3e6, 1e8}) {
    EXPECT_DOUBLE_EQ(std::abs(RlcPdn(file, kSms).chip_impedance(f)), std::abs(RlcPdn(code, kSms).chip_impedance(f)))
        << f;
    EXPECT_DOUBLE_EQ(std::abs(RlcPdn(file, kSms).local_impedance(f, 5)),
                     std::abs(RlcPdn(code, kSms).local_impedance(f, 5)))
        << f;
  }
}

TEST(PdnConfig, RejectsUnknownKeysAndBadTiles) {
  Json doc = parse_json_text(R"({"scale": 0.3, "sclae": 1})", "x.json");
  JsonReader r(doc, "x.json", "");
  parse_pdn_network(r);
  EXPECT_THROW(r.finish(), InputError);
  Json bad = parse_json_text(R"({"sm_tiles": [0, 16]})", "y.json");
  JsonReader r2(bad, "y.json", "");
  try {
    parse_pdn_network(r2);
    FAIL() << "tile 16 accepted on a 4 x 4 grid";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("sm_tiles"), std::string::npos);
  }
  PdnConfig c;
  c.network.sm_tiles = {0, 0};
  EXPECT_NO_THROW(validate_pdn_config(c, 2, "z.json")) << "ideal: nothing to check";
  c.model = "rlc";
  EXPECT_THROW(validate_pdn_config(c, 2, "z.json"), InputError);
  PdnConfig big;
  EXPECT_NO_THROW(validate_pdn_config(big, 32, "big.json"));
  big.model = "rlc";
  EXPECT_THROW(validate_pdn_config(big, 32, "big.json"), InputError) << "32 SMs on 16 tiles";
}

}  // namespace
}  // namespace gpupm
