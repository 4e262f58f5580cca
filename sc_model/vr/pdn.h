// The linear RLC power-delivery network behind the SM-domain regulator:
// VRM (remote-sense loop) -> PCB (series R,L; bulk capacitor with ESR) ->
// package (series R,L; package capacitor with ESR) -> per-tile C4 bump paths ->
// an on-die grid of rows x cols tiles (die capacitance per tile, neighbour
// tiles joined by grid resistors), one SM per tile, the SM's current drawn at
// its tile node.
//
// State-space form x' = A x + B u, u = [V_setpoint, I_sm0 .. I_smN-1].
// Discretised with the trapezoidal rule at a fixed step h = SM clock period /
// substeps; the substeps are folded into one per-SM-cycle propagator
// x[n+1] = Ad x[n] + Bd u[n] (u held over the cycle), factorised once per
// step size (a DVFS period change selects or builds another). Each SM cycle
// is then two dense mat-vec products.
#pragma once

#include "gpupm/vr/pdn_config.h"
#include "gpupm/vr/voltage_regulator.h"

#include <Eigen/Dense>

#include <complex>
#include <vector>

namespace gpupm {

class RlcPdn : public PowerDeliveryNetwork {
 public:
  RlcPdn(const PdnNetwork& net, uint32_t sm_count);

  void step(double dt, double v_supply, const std::vector<double>& sm_amps, std::vector<double>& sm_volts) override;
  // Puts the network at its DC operating point for these inputs (the first
  // step() does this by itself).
  void reset(double v_supply, const std::vector<double>& sm_amps);

  // Small-signal impedance seen by the SMs at `hz`: a 1 A current drawn with
  // weights `inject` (per SM, summing to 1), observed as the `observe`-weighted
  // sum of the SM node voltage drops. Volts per amp (ohms).
  std::complex<double> impedance(double hz, const std::vector<double>& inject,
                                 const std::vector<double>& observe) const;
  // Chip-wide: all SMs draw equal shares, mean SM node drop.
  std::complex<double> chip_impedance(double hz) const;
  // SM `i` alone, observed at its own node.
  std::complex<double> local_impedance(double hz, uint32_t i) const;
  // Sum of the series resistances VRM -> die (chip-wide, uniform load): the
  // DC IR drop per amp without regulation.
  double series_resistance() const;

  uint32_t sm_count() const { return n_sm_; }
  uint32_t tile_of(uint32_t sm) const { return sm_tile_[sm]; }
  uint32_t rows() const { return net_.rows; }
  uint32_t cols() const { return net_.cols; }
  size_t states() const { return size_t(A_.rows()); }
  const Eigen::MatrixXd& a() const { return A_; }
  const Eigen::MatrixXd& b() const { return B_; }
  // Per-cycle propagators built so far (one per distinct step size).
  size_t propagators() const { return cache_.size(); }

 private:
  struct Propagator {
    double dt;
    Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> abd;  // [Ad Bd]: x[n+1] = abd * [x[n]; u[n]]
  };
  const Propagator& propagator(double dt);

  PdnNetwork net_;
  uint32_t n_sm_;
  uint32_t tiles_;
  std::vector<uint32_t> sm_tile_;
  int vd0_ = 0;  // index of tile 0's node voltage in x
  Eigen::MatrixXd A_, B_;
  Eigen::VectorXd z_, tmp_;  // z = [x; u]
  std::vector<Propagator> cache_;
  size_t current_ = 0;
  bool initialised_ = false;
};

// A resonance of |Z(f)|: a local maximum of the sampled profile.
struct Resonance {
  double hz = 0, ohm = 0;
};
// Local maxima of |Z| over a frequency sweep (refined by parabolic
// interpolation in log f), highest first.
std::vector<Resonance> find_resonances(const std::vector<double>& hz, const std::vector<double>& ohm);
// The second-order (below split_hz) and first-order (above) peaks: the highest
// local maximum on each side; hz = 0 when a side has none.
void split_resonances(const std::vector<Resonance>& peaks, double split_hz, Resonance& second, Resonance& first);

}  // namespace gpupm
