// Global work distribution engine: launches the workload's kernels in program
// order, dispatches CTAs breadth-first to the SMs of each kernel's SM mask up to
// each SM's target of unpaused CTAs, pauses the youngest CTA when a target drops
// and unpauses a paused CTA (instead of dispatching) when one finishes, and
// power-gates disabled SMs once drained, with a wake-up latency.
// With two applications (Workload::apps) each runs its own kernel sequence
// concurrently, its CTAs confined to its own SM mask (SmAppMaskMsg); the run
// ends when both are done. With Workload::respawn (a queue pair) the app done
// first re-runs its kernels until the other is done.
// Host-launched (the host interface, host/command_processor.h): nothing runs
// until launch commands arrive on launch_in; they run in order, each reported
// done on launch_done_out, and an end-of-run command ends the run.
#pragma once

#include "gpupm/gwde/gwde_config.h"
#include "gpupm/protocol/cta_messages.h"
#include "gpupm/protocol/launch_messages.h"
#include "gpupm/protocol/sm_status.h"
#include "gpupm/workload/kernel_profile.h"
#include "gpupm/workload/launch_entries.h"

#include <tlm_utils/multi_passthrough_initiator_socket.h>
#include <tlm_utils/multi_passthrough_target_socket.h>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <deque>
#include <functional>
#include <vector>

namespace gpupm {

class GlobalWorkDistributionEngine : public sc_core::sc_module {
 public:
  tlm_utils::multi_passthrough_initiator_socket<GlobalWorkDistributionEngine> cta_out;        // SM i's cta_in
  tlm_utils::multi_passthrough_target_socket<GlobalWorkDistributionEngine> done_in;           // SM i's gwde_out
  tlm_utils::simple_target_socket<GlobalWorkDistributionEngine> ctrl_in;                      // controllers
  tlm_utils::simple_target_socket_optional<GlobalWorkDistributionEngine> launch_in;           // command processor
  tlm_utils::simple_initiator_socket_optional<GlobalWorkDistributionEngine> launch_done_out;  // command processor

  GlobalWorkDistributionEngine(sc_core::sc_module_name name, const SmSlots& sm, const GwdeConfig& cfg,
                               const Workload& workload, bool host_launches = false);

  // Observers (the platform wires report and policy hooks here).
  std::function<void(const KernelLaunch&)> on_kernel_start;
  std::function<void(const KernelLaunch&)> on_kernel_end;
  std::function<void()> on_all_done;

  // Occupancy limit of a launch on one SM (CTA slots and warp slots).
  static uint32_t max_resident(const SmSlots& sm, const KernelLaunch& k);
  uint32_t paused_ctas(uint32_t sm) const;
  // SM sm's target of unpaused CTAs set by a controller (0: none beyond the kernel's occupancy).
  uint32_t cta_limit(uint32_t sm) const { return sms_[sm].limit; }
  // The global stagger's actuator: SM `sm` dispatches nothing (instructions or
  // new CTAs) before SM cycle `until_cycle` (IssueHoldMsg over cta_out).
  void hold_sm(uint32_t sm, uint64_t until_cycle);
  uint32_t app_count() const { return uint32_t(app_masks_.size()); }
  // SMs app `app` may use now.
  std::vector<bool> app_mask(uint32_t app) const;
  static std::vector<bool> default_app_mask(uint32_t apps, uint32_t app, uint32_t sm_count);

 private:
  struct Resident {
    const KernelLaunch* launch;
    uint32_t cta;
    uint64_t seq;
    bool paused;
  };
  struct Running {
    std::shared_ptr<const KernelLaunch> launch;
    uint32_t next_cta = 0;
    uint32_t done = 0;
  };
  struct SmState {
    std::vector<Resident> resident;
    uint32_t limit = 0;  // 0: no limit beyond the kernel's occupancy
    bool enabled = true;
    bool gate_when_idle = true;
    bool gated = false;
    sc_core::sc_time awake_at;  // dispatchable from this time (wake-up latency)
  };

  void sequencer();
  void run_commands();
  void run_entry(uint32_t entry);
  void launch_b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);
  void run_app(const std::vector<std::shared_ptr<const KernelLaunch>>& launches, uint32_t app);
  void run_launch(const std::shared_ptr<const KernelLaunch>& launch, uint32_t app);
  // The next launch of app's source, held in next_launch_[app]: a thread's frame
  // holds no owning pointer, since the frame a simulation stops in is never
  // unwound (the launch would outlive the engine: LeakSanitizer's report).
  const std::shared_ptr<const KernelLaunch>& next_of(uint32_t app);
  std::vector<std::shared_ptr<const KernelLaunch>> next_launch_;
  bool app_running(uint32_t app) const;
  void wake_method();
  void done_b_transport(int port, tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);
  void ctrl_b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);
  void balance(uint32_t sm);
  void balance_all();
  void set_paused(uint32_t sm, Resident& r, bool paused);
  void set_gated(uint32_t sm, bool gated);
  Running* kernel_for(uint32_t sm);
  uint32_t warps_on(uint32_t sm) const;

  const SmSlots sm_slots_;
  GwdeConfig cfg_;
  const Workload& workload_;
  const bool host_launches_;
  std::deque<LaunchCommandMsg> commands_;  // host-launched: queued, oldest first
  sc_core::sc_event command_queued_;
  std::vector<SmState> sms_;
  std::vector<Running> running_;
  std::vector<std::vector<bool>> masks_;      // per kernel index; empty: all SMs
  std::vector<std::vector<bool>> app_masks_;  // per application; never empty
  sc_core::sc_event app_done_;
  uint32_t apps_done_ = 0;
  uint64_t seq_ = 0;
  bool starting_launch_ = false;    // inside on_kernel_start: per-SM messages wait for balance_all()
  sc_core::sc_time next_dispatch_;  // the dispatch channel is free from then on
  sc_core::sc_event kernel_done_;
  sc_core::sc_event wake_;
};

}  // namespace gpupm
