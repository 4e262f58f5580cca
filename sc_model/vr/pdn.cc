#include "gpupm/vr/pdn.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace gpupm {

namespace {
constexpr int kI1 = 0, kVcA = 1, kI2 = 2, kVcB = 3, kVrm = 4;
}

RlcPdn::RlcPdn(const PdnNetwork& net, uint32_t sm_count) : net_(net), n_sm_(sm_count) {
  tiles_ = net.rows * net.cols;
  if (sm_count == 0 || sm_count > tiles_) throw std::invalid_argument("RlcPdn: SMs do not fit the grid");
  if (net.sm_tiles.empty()) {
    for (uint32_t i = 0; i < sm_count; ++i) sm_tile_.push_back(i);
  } else {
    if (net.sm_tiles.size() != sm_count) throw std::invalid_argument("RlcPdn: sm_tiles needs one tile per SM");
    sm_tile_ = net.sm_tiles;
  }
  const double s = net.scale;
  const double r1 = net.pcb.r_ohm * s, l1 = net.pcb.l_h * s, ca = net.pcb.c_f / s, ra = net.pcb.esr_ohm * s;
  const double r2 = net.package.r_ohm * s, l2 = net.package.l_h * s, cb = net.package.c_f / s,
               rb = net.package.esr_ohm * s;
  // Each tile's bump path carries 1/T of the bumps: T times the loop R and L.
  const double rbump = net.bump_r_ohm * s * tiles_, lbump = net.bump_l_h * s * tiles_;
  const double cd = net.die_c_f / s / tiles_;
  const double gg = 1.0 / (net.grid_r_ohm * s);
  const bool vrm = net.vrm_bandwidth_hz > 0;
  const int ib0 = vrm ? 5 : 4;
  vd0_ = ib0 + int(tiles_);
  const int n = vd0_ + int(tiles_);
  const int T = int(tiles_);
  A_ = Eigen::MatrixXd::Zero(n, n);
  B_ = Eigen::MatrixXd::Zero(n, 1 + int(sm_count));
  // Node voltages: vA = vcA + ra (i1 - i2), vB = vcB + rb (i2 - sum ib).
  // L1 di1/dt = Vs - r1 i1 - vA, Vs = Vset (+ VRM correction)
  A_(kI1, kI1) = -(r1 + ra) / l1;
  A_(kI1, kVcA) = -1.0 / l1;
  A_(kI1, kI2) = ra / l1;
  if (vrm) A_(kI1, kVrm) = 1.0 / l1;
  B_(kI1, 0) = 1.0 / l1;
  // CA dvcA/dt = i1 - i2
  A_(kVcA, kI1) = 1.0 / ca;
  A_(kVcA, kI2) = -1.0 / ca;
  // L2 di2/dt = vA - r2 i2 - vB
  A_(kI2, kVcA) = 1.0 / l2;
  A_(kI2, kI1) = ra / l2;
  A_(kI2, kI2) = -(ra + r2 + rb) / l2;
  A_(kI2, kVcB) = -1.0 / l2;
  for (int k = 0; k < T; ++k) A_(kI2, ib0 + k) = rb / l2;
  // CB dvcB/dt = i2 - sum ib
  A_(kVcB, kI2) = 1.0 / cb;
  for (int k = 0; k < T; ++k) A_(kVcB, ib0 + k) = -1.0 / cb;
  // Lbump dib_k/dt = vB - rbump ib_k - vd_k
  for (int k = 0; k < T; ++k) {
    int row = ib0 + k;
    A_(row, kVcB) = 1.0 / lbump;
    A_(row, kI2) = rb / lbump;
    for (int j = 0; j < T; ++j) A_(row, ib0 + j) -= rb / lbump;
    A_(row, row) -= rbump / lbump;
    A_(row, vd0_ + k) = -1.0 / lbump;
  }
  // Cd dvd_k/dt = ib_k - I_k - sum_nbr (vd_k - vd_j) / Rgrid
  const int cols = int(net.cols), rows = int(net.rows);
  for (int k = 0; k < T; ++k) {
    int row = vd0_ + k;
    A_(row, ib0 + k) = 1.0 / cd;
    int rk = k / cols, ck = k % cols;
    const int nbr[4][2] = {{rk - 1, ck}, {rk + 1, ck}, {rk, ck - 1}, {rk, ck + 1}};
    for (const auto& p : nbr) {
      if (p[0] < 0 || p[0] >= rows || p[1] < 0 || p[1] >= cols) continue;
      int j = p[0] * cols + p[1];
      A_(row, row) -= gg / cd;
      A_(row, vd0_ + j) += gg / cd;
    }
  }
  for (uint32_t i = 0; i < sm_count; ++i) B_(vd0_ + int(sm_tile_[i]), 1 + int(i)) = -1.0 / cd;
  // Remote sense: dVc/dt = w (Vset - mean vd)
  if (vrm) {
    const double w = 2.0 * M_PI * net.vrm_bandwidth_hz;
    for (int k = 0; k < T; ++k) A_(kVrm, vd0_ + k) = -w / T;
    B_(kVrm, 0) = w;
  }
  z_ = Eigen::VectorXd::Zero(n + 1 + int(sm_count));
  tmp_ = Eigen::VectorXd::Zero(n);
}

double RlcPdn::series_resistance() const {
  return net_.scale * (net_.pcb.r_ohm + net_.package.r_ohm + net_.bump_r_ohm);
}

void RlcPdn::reset(double v_supply, const std::vector<double>& sm_amps) {
  const int n = int(A_.rows());
  z_(n) = v_supply;
  for (uint32_t i = 0; i < n_sm_; ++i) z_(n + 1 + int(i)) = sm_amps[i];
  // DC: A x + B u = 0.
  z_.head(n) = A_.partialPivLu().solve(-B_ * z_.tail(B_.cols()));
  initialised_ = true;
}

const RlcPdn::Propagator& RlcPdn::propagator(double dt) {
  if (current_ < cache_.size() && std::abs(cache_[current_].dt - dt) <= 1e-9 * dt) return cache_[current_];
  for (size_t i = 0; i < cache_.size(); ++i)
    if (std::abs(cache_[i].dt - dt) <= 1e-9 * dt) return cache_[current_ = i];
  // Trapezoidal sub-step h: (I - h/2 A) x' = (I + h/2 A) x + h B u.
  const int n = int(A_.rows());
  const double h = dt / net_.substeps;
  Eigen::MatrixXd id = Eigen::MatrixXd::Identity(n, n);
  Eigen::PartialPivLU<Eigen::MatrixXd> lu(id - 0.5 * h * A_);
  Eigen::MatrixXd t = lu.solve(id + 0.5 * h * A_);
  Eigen::MatrixXd sb = lu.solve(B_) * h;
  Eigen::MatrixXd ad = id, bd = Eigen::MatrixXd::Zero(n, B_.cols());
  for (uint32_t k = 0; k < net_.substeps; ++k) {
    bd = t * bd + sb;
    ad = t * ad;
  }
  Propagator p{dt, decltype(Propagator::abd)(n, n + B_.cols())};
  p.abd << ad, bd;
  cache_.push_back(std::move(p));
  current_ = cache_.size() - 1;
  return cache_.back();
}

void RlcPdn::step(double dt, double v_supply, const std::vector<double>& sm_amps, std::vector<double>& sm_volts) {
  if (!initialised_) reset(v_supply, sm_amps);
  const Propagator& p = propagator(dt);
  const int n = int(A_.rows());
  z_(n) = v_supply;
  for (uint32_t i = 0; i < n_sm_; ++i) z_(n + 1 + int(i)) = sm_amps[i];
  tmp_.noalias() = p.abd * z_;
  z_.head(n) = tmp_;
  sm_volts.resize(n_sm_);
  for (uint32_t i = 0; i < n_sm_; ++i) sm_volts[i] = z_(vd0_ + int(sm_tile_[i]));
}

std::complex<double> RlcPdn::impedance(double hz, const std::vector<double>& inject,
                                       const std::vector<double>& observe) const {
  const int n = int(A_.rows());
  const std::complex<double> jw(0.0, 2.0 * M_PI * hz);
  Eigen::MatrixXcd m = -A_.cast<std::complex<double>>();
  m.diagonal().array() += jw;
  Eigen::VectorXcd rhs = Eigen::VectorXcd::Zero(n);
  for (uint32_t i = 0; i < n_sm_; ++i) rhs += B_.col(1 + int(i)).cast<std::complex<double>>() * inject[i];
  Eigen::VectorXcd x = m.partialPivLu().solve(rhs);
  std::complex<double> v = 0;
  for (uint32_t i = 0; i < n_sm_; ++i) v += observe[i] * x(vd0_ + int(sm_tile_[i]));
  return -v;  // a drawn current lowers the node voltage
}

std::complex<double> RlcPdn::chip_impedance(double hz) const {
  std::vector<double> w(n_sm_, 1.0 / n_sm_);
  return impedance(hz, w, w);
}

std::complex<double> RlcPdn::local_impedance(double hz, uint32_t i) const {
  std::vector<double> w(n_sm_, 0.0);
  w[i] = 1.0;
  return impedance(hz, w, w);
}

std::vector<Resonance> find_resonances(const std::vector<double>& hz, const std::vector<double>& ohm) {
  std::vector<Resonance> out;
  for (size_t i = 1; i + 1 < ohm.size(); ++i) {
    if (!(ohm[i] > ohm[i - 1] && ohm[i] >= ohm[i + 1])) continue;
    // Parabola through the three points in (log f, |Z|).
    double x0 = std::log(hz[i - 1]), x1 = std::log(hz[i]), x2 = std::log(hz[i + 1]);
    double y0 = ohm[i - 1], y1 = ohm[i], y2 = ohm[i + 1];
    double d = (x0 - x1) * (x0 - x2) * (x1 - x2);
    double a = (x2 * (y1 - y0) + x1 * (y0 - y2) + x0 * (y2 - y1)) / d;
    double b = (x2 * x2 * (y0 - y1) + x1 * x1 * (y2 - y0) + x0 * x0 * (y1 - y2)) / d;
    double c = y1 - a * x1 * x1 - b * x1;
    Resonance r{hz[i], ohm[i]};
    if (a < 0) {
      double xv = -b / (2 * a);
      if (xv > x0 && xv < x2) r = {std::exp(xv), c - b * b / (4 * a)};
    }
    out.push_back(r);
  }
  std::sort(out.begin(), out.end(), [](const Resonance& p, const Resonance& q) { return p.ohm > q.ohm; });
  return out;
}

void split_resonances(const std::vector<Resonance>& peaks, double split_hz, Resonance& second, Resonance& first) {
  second = {};
  first = {};
  for (const Resonance& r : peaks) {  // highest first
    Resonance& side = r.hz < split_hz ? second : first;
    if (side.hz == 0) side = r;
  }
}

}  // namespace gpupm
