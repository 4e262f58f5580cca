#include "gpupm/gwde/global_work_distribution_engine.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace gpupm {

using sc_core::sc_time;
using sc_core::sc_time_stamp;

GlobalWorkDistributionEngine::GlobalWorkDistributionEngine(sc_core::sc_module_name name, const SmSlots& sm,
                                                           const GwdeConfig& cfg, const Workload& workload,
                                                           bool host_launches)
    : sc_module(name),
      cta_out("cta_out"),
      done_in("done_in"),
      ctrl_in("ctrl_in"),
      launch_in("launch_in"),
      launch_done_out("launch_done_out"),
      sm_slots_(sm),
      cfg_(cfg),
      workload_(workload),
      host_launches_(host_launches),
      sms_(sm.count),
      masks_(workload.kernel_count) {
  uint32_t apps = std::max<uint32_t>(1, uint32_t(workload.apps.size()));
  if (apps > 2) throw std::invalid_argument("GWDE: at most 2 concurrent applications");
  for (uint32_t a = 0; a < apps; ++a) app_masks_.push_back(default_app_mask(apps, a, sm.count));
  for (const auto& k : workload.launches)
    if (k->app >= apps)
      throw std::invalid_argument("GWDE: launch " + k->name + " of app " + std::to_string(k->app) +
                                  " but the workload has " + std::to_string(apps) + " app(s)");
  done_in.register_b_transport(this, &GlobalWorkDistributionEngine::done_b_transport);
  if (host_launches && apps > 1)
    throw std::invalid_argument("GWDE: a host launches the kernels of one application, but workload " + workload.name +
                                " has " + std::to_string(apps));
  ctrl_in.register_b_transport(this, &GlobalWorkDistributionEngine::ctrl_b_transport);
  launch_in.register_b_transport(this, &GlobalWorkDistributionEngine::launch_b_transport);
  SC_HAS_PROCESS(GlobalWorkDistributionEngine);
  SC_THREAD(sequencer);
  SC_METHOD(wake_method);
  dont_initialize();
  sensitive << wake_;
}

uint32_t GlobalWorkDistributionEngine::max_resident(const SmSlots& sm, const KernelLaunch& k) {
  return std::min({k.max_ctas_per_sm, sm.max_ctas, sm.max_warps / k.warps_per_cta});
}

void GlobalWorkDistributionEngine::hold_sm(uint32_t sm, uint64_t until_cycle) {
  IssueHoldMsg msg;
  msg.until_cycle = until_cycle;
  msg.ctas_too = true;
  send(cta_out[sm], msg);
}

uint32_t GlobalWorkDistributionEngine::paused_ctas(uint32_t sm) const {
  return uint32_t(
      std::count_if(sms_[sm].resident.begin(), sms_[sm].resident.end(), [](const Resident& r) { return r.paused; }));
}

std::vector<bool> GlobalWorkDistributionEngine::default_app_mask(uint32_t apps, uint32_t app, uint32_t sm_count) {
  std::vector<bool> m(sm_count, apps <= 1);
  if (apps == 2)
    for (uint32_t i = 0; i < sm_count; ++i) m[i] = (i < sm_count / 2) == (app == 0);
  return m;
}

std::vector<bool> GlobalWorkDistributionEngine::app_mask(uint32_t app) const { return app_masks_.at(app); }

bool GlobalWorkDistributionEngine::app_running(uint32_t app) const {
  return std::any_of(running_.begin(), running_.end(), [&](const Running& r) { return r.launch->app == app; });
}

void GlobalWorkDistributionEngine::run_app(const std::vector<std::shared_ptr<const KernelLaunch>>& launches,
                                           uint32_t app) {
  // A program decides its next launch once the previous one has finished.
  if (app < workload_.apps.size() && workload_.apps[app].source) {
    while (const auto& launch = next_of(app)) run_launch(launch, app);
    return;
  }
  for (const auto& launch : launches) run_launch(launch, app);
}

const std::shared_ptr<const KernelLaunch>& GlobalWorkDistributionEngine::next_of(uint32_t app) {
  return next_launch_.at(app) = workload_.apps[app].source->next();
}

void GlobalWorkDistributionEngine::run_launch(const std::shared_ptr<const KernelLaunch>& launch, uint32_t app) {
  running_.push_back({launch, 0, 0});
  // Per-SM messages the observers send now (a policy's per-kernel reset, a
  // static CTA count, SM enables and masks) shape the breadth-first first
  // dispatch below instead of filling each SM in turn as they arrive.
  starting_launch_ = true;
  if (on_kernel_start) on_kernel_start(*launch);
  starting_launch_ = false;
  balance_all();
  while (app_running(app)) wait(kernel_done_);
  if (cfg_.kernel_launch_ns > 0) wait(sc_time(cfg_.kernel_launch_ns, sc_core::SC_NS));
}

void GlobalWorkDistributionEngine::sequencer() {
  next_launch_.assign(std::max<size_t>(1, workload_.apps.size()), nullptr);  // never resized: threads refer to them
  if (host_launches_) {
    run_commands();
  } else if (workload_.apps.size() <= 1) {
    run_app(workload_.launches, 0);
  } else {
    // One thread per application; each runs its kernels in order.
    for (uint32_t a = 0; a < workload_.apps.size(); ++a)
      sc_core::sc_spawn(
          [this, a] {
            run_app(workload_.apps[a].launches, a);
            ++apps_done_;
            app_done_.notify(sc_core::SC_ZERO_TIME);
            // A queue pair (Workload::respawn): the app that finished first starts its
            // kernels again while the other still runs; the other's end ends the run.
            while (workload_.respawn && apps_done_ < workload_.apps.size()) run_app(workload_.apps[a].launches, a);
          },
          (std::string("app") + std::to_string(a)).c_str());
    while (apps_done_ < workload_.apps.size()) wait(app_done_);
  }
  if (on_all_done) on_all_done();
}

void GlobalWorkDistributionEngine::run_commands() {
  for (;;) {
    while (commands_.empty()) wait(command_queued_);
    const LaunchCommandMsg command = commands_.front();
    commands_.pop_front();
    if (command.kernel_launch) {
      entry_source(workload_)->begin_kernel_launch(command.request);
      while (const auto& launch = next_of(0)) run_launch(launch, 0);
    } else if (!command.end_run) {
      for (uint32_t e = command.first; e < command.first + command.count; ++e) run_entry(e);
    }
    LaunchCommandDoneMsg done;
    done.end_run = command.end_run;
    send(launch_done_out, done);
    if (command.end_run) return;
  }
}

// Entry `entry` of launch_entries(): a launch, or a program's launches entry.
void GlobalWorkDistributionEngine::run_entry(uint32_t entry) {
  EntryLaunchSource* entries = entry_source(workload_);
  if (!entries) {
    run_launch(workload_.launches.at(entry), 0);
    return;
  }
  entries->begin_entry(entry);
  while (const auto& launch = next_of(0)) run_launch(launch, 0);
}

// The command processor checks a command before it sends it; here only what
// would break the sequencer is refused.
void GlobalWorkDistributionEngine::launch_b_transport(tlm::tlm_generic_payload& gp, sc_time&) {
  auto* command = gp.get_extension<LaunchCommandMsg>();
  if (!command || !host_launches_ || (command->kernel_launch && !entry_source(workload_)) ||
      (!command->end_run && !command->kernel_launch &&
       uint64_t(command->first) + command->count > launch_entries(workload_))) {
    gp.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
    return;
  }
  commands_.push_back(*command);
  command_queued_.notify(sc_core::SC_ZERO_TIME);
  gp.set_response_status(tlm::TLM_OK_RESPONSE);
}

GlobalWorkDistributionEngine::Running* GlobalWorkDistributionEngine::kernel_for(uint32_t sm) {
  for (Running& r : running_) {
    const auto& mask = masks_[r.launch->kernel_index];
    if (r.next_cta < r.launch->grid_ctas && (mask.empty() || mask[sm]) && app_masks_[r.launch->app][sm]) return &r;
  }
  return nullptr;
}

uint32_t GlobalWorkDistributionEngine::warps_on(uint32_t sm) const {
  uint32_t w = 0;
  for (const Resident& r : sms_[sm].resident) w += r.launch->warps_per_cta;
  return w;
}

void GlobalWorkDistributionEngine::set_paused(uint32_t sm, Resident& r, bool paused) {
  r.paused = paused;
  CtaPauseMsg msg;
  msg.launch = r.launch;
  msg.cta = r.cta;
  msg.pause = paused;
  send(cta_out[sm], msg);
}

void GlobalWorkDistributionEngine::set_gated(uint32_t sm, bool gated) {
  SmState& s = sms_[sm];
  if (s.gated == gated) return;
  s.gated = gated;
  SmPowerMsg msg;
  msg.gated = gated;
  send(cta_out[sm], msg);
  if (!gated) {
    s.awake_at = sc_time_stamp() + sc_time(cfg_.wake_latency_ns, sc_core::SC_NS);
    wake_.notify(sc_time(cfg_.wake_latency_ns, sc_core::SC_NS));
  }
}

// Brings one SM to its target: pause the youngest unpaused CTAs above it, below
// it unpause (latest paused first) before dispatching new CTAs.
void GlobalWorkDistributionEngine::balance(uint32_t sm) {
  SmState& s = sms_[sm];
  if (!s.enabled && s.resident.empty()) {
    if (s.gate_when_idle) set_gated(sm, true);
    return;
  }
  if (s.gated) {                  // enabled (a gated SM holds no CTAs)
    if (!kernel_for(sm)) return;  // stays gated until there is work for it
    set_gated(sm, false);
  }
  if (sc_time_stamp() < s.awake_at) return;  // wake_method comes back
  auto unpaused = [&] {
    return uint32_t(std::count_if(s.resident.begin(), s.resident.end(), [](const Resident& r) { return !r.paused; }));
  };
  for (;;) {
    Running* k = s.enabled ? kernel_for(sm) : nullptr;  // a disabled SM drains: it still unpauses, never dispatches
    const KernelLaunch* ref = k ? k->launch.get() : (s.resident.empty() ? nullptr : s.resident.back().launch);
    if (!ref) return;
    uint32_t target = max_resident(sm_slots_, *ref);
    if (s.limit) target = std::min(target, s.limit);
    uint32_t active = unpaused();
    if (active > target) {
      auto youngest = std::max_element(s.resident.begin(), s.resident.end(), [](const Resident& a, const Resident& b) {
        return a.paused != b.paused ? a.paused : a.seq < b.seq;  // unpaused, highest seq
      });
      set_paused(sm, *youngest, true);
      continue;
    }
    if (active == target) return;
    // Pausing takes the youngest first, so the latest paused is the oldest paused:
    // the unpaused CTAs stay the oldest ones.
    auto paused_it = std::min_element(s.resident.begin(), s.resident.end(), [](const Resident& a, const Resident& b) {
      return a.paused != b.paused ? a.paused : a.seq < b.seq;  // paused, lowest seq
    });
    if (paused_it != s.resident.end() && paused_it->paused) {
      set_paused(sm, *paused_it, false);
      continue;
    }
    if (!k) return;
    const KernelLaunch& kl = *k->launch;
    uint32_t same = uint32_t(s.resident.size());
    if (same >= sm_slots_.max_ctas || warps_on(sm) + kl.warps_per_cta > sm_slots_.max_warps ||
        same >= max_resident(sm_slots_, kl))
      return;
    uint32_t cta = k->next_cta++;
    s.resident.push_back({&kl, cta, seq_++, false});
    CtaLaunchMsg msg;
    msg.launch = k->launch;
    msg.cta = cta;
    msg.not_before = std::max(sc_time_stamp(), next_dispatch_);
    next_dispatch_ = msg.not_before + sc_time(cfg_.dispatch_interval_ns, sc_core::SC_NS);
    send(cta_out[sm], msg);
  }
}

void GlobalWorkDistributionEngine::balance_all() {
  // Breadth-first: one CTA per SM per round, so a partial wave spreads evenly.
  bool progress = true;
  while (progress) {
    progress = false;
    for (uint32_t sm = 0; sm < sms_.size(); ++sm) {
      size_t before = sms_[sm].resident.size();
      uint32_t saved = sms_[sm].limit;
      uint32_t unpaused = uint32_t(std::count_if(sms_[sm].resident.begin(), sms_[sm].resident.end(),
                                                 [](const Resident& r) { return !r.paused; }));
      // Temporarily cap at one more than now for breadth-first spreading.
      sms_[sm].limit = saved ? std::min(saved, unpaused + 1) : unpaused + 1;
      balance(sm);
      sms_[sm].limit = saved;
      if (sms_[sm].resident.size() != before) progress = true;
    }
  }
  for (uint32_t sm = 0; sm < sms_.size(); ++sm) balance(sm);
}

void GlobalWorkDistributionEngine::wake_method() {
  balance_all();
  // wake_ keeps only its earliest notification: come back for SMs still waking up.
  sc_time now = sc_time_stamp(), next = sc_core::sc_max_time();
  for (const SmState& s : sms_)
    if (!s.gated && s.awake_at > now) next = std::min(next, s.awake_at);
  if (next != sc_core::sc_max_time()) wake_.notify(next - now);
}

void GlobalWorkDistributionEngine::done_b_transport(int port, tlm::tlm_generic_payload& gp, sc_time&) {
  auto* msg = gp.get_extension<CtaDoneMsg>();
  if (!msg) {
    gp.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
    return;
  }
  gp.set_response_status(tlm::TLM_OK_RESPONSE);
  uint32_t sm = uint32_t(port);
  auto& res = sms_[sm].resident;
  res.erase(std::remove_if(res.begin(), res.end(),
                           [&](const Resident& r) { return r.launch == msg->launch && r.cta == msg->cta; }),
            res.end());
  for (size_t i = 0; i < running_.size(); ++i) {
    Running& r = running_[i];
    if (r.launch.get() != msg->launch) continue;
    if (++r.done == r.launch->grid_ctas) {
      auto finished = r.launch;
      running_.erase(running_.begin() + long(i));
      if (on_kernel_end) on_kernel_end(*finished);
      kernel_done_.notify(sc_core::SC_ZERO_TIME);
    }
    break;
  }
  balance(sm);
}

void GlobalWorkDistributionEngine::ctrl_b_transport(tlm::tlm_generic_payload& gp, sc_time&) {
  gp.set_response_status(tlm::TLM_OK_RESPONSE);
  if (auto* m = gp.get_extension<CtaLimitMsg>()) {
    if (m->sm >= sms_.size()) {
      gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
      return;
    }
    sms_[m->sm].limit = m->limit;
    if (!starting_launch_) balance(m->sm);
  } else if (auto* e = gp.get_extension<SmEnableMsg>()) {
    if (e->sm >= sms_.size()) {
      gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
      return;
    }
    sms_[e->sm].enabled = e->enabled;
    sms_[e->sm].gate_when_idle = e->gate_when_idle;
    if (e->enabled && e->wake_now) set_gated(e->sm, false);
    if (!starting_launch_) balance(e->sm);
  } else if (auto* k = gp.get_extension<SmMaskMsg>()) {
    if (k->kernel_index >= masks_.size() || (!k->mask.empty() && k->mask.size() != sms_.size())) {
      gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
      return;
    }
    masks_[k->kernel_index] = k->mask;
    if (!starting_launch_) balance_all();
  } else if (auto* am = gp.get_extension<SmAppMaskMsg>()) {
    uint32_t n = uint32_t(sms_.size());
    if (am->app >= app_masks_.size() || (!am->mask.empty() && am->mask.size() != n)) {
      gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
      return;
    }
    std::vector<bool> mask = am->mask.empty() ? default_app_mask(app_count(), am->app, n) : am->mask;
    for (uint32_t other = 0; other < app_masks_.size(); ++other) {
      if (other == am->app) continue;
      for (uint32_t i = 0; i < n; ++i)
        if (mask[i] && app_masks_[other][i]) {  // application masks must be disjoint
          gp.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
          return;
        }
    }
    app_masks_[am->app] = std::move(mask);
    if (!starting_launch_) balance_all();
  } else {
    gp.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
  }
}

}  // namespace gpupm
