#include "experiment/claims.h"

#include <algorithm>
#include <limits>
#include <sstream>
#include <stdexcept>

namespace gpupm {

Claim judged_claim(std::string id, std::string text, std::string paper, std::string measured, std::string tolerance,
                   bool ok, std::string note_if_fail) {
  return {std::move(id), std::move(text), std::move(paper), std::move(measured), std::move(tolerance),
          ok ? "pass" : "fail", ok ? "" : std::move(note_if_fail)};
}

Claim na_claim(std::string id, std::string text, std::string paper, std::string note) {
  return {std::move(id), std::move(text), std::move(paper), "-", "-", "n/a", std::move(note)};
}

Json claims_json(const std::vector<Claim>& claims) {
  Json a = Json::array();
  for (const Claim& c : claims)
    a.push_back({{"id", c.id},
                 {"claim", c.text},
                 {"paper", c.paper},
                 {"measured", c.measured},
                 {"tolerance", c.tolerance},
                 {"verdict", c.verdict},
                 {"note", c.note}});
  return a;
}

std::string claims_markdown(const std::vector<Claim>& claims) {
  std::ostringstream md;
  md << "| id | claim | paper | ours | tolerance | verdict | note |\n|---|---|---|---|---|---|---|\n";
  for (const Claim& c : claims)
    md << "| " << c.id << " | " << c.text << " | " << c.paper << " | " << c.measured << " | " << c.tolerance << " | "
       << (c.verdict == "pass" ? "pass" : c.verdict == "fail" ? "**FAIL**" : "n/a") << " | " << c.note << " |\n";
  return md.str();
}

ClaimBook::ClaimBook(JsonReader& config, const std::vector<ClaimLimits>& expected) {
  JsonReader claims = config.object("claims");
  constexpr double kAny = std::numeric_limits<double>::max();
  for (const ClaimLimits& c : expected) {
    JsonReader r = claims.object(c.id);
    Entry& e = entries_[c.id];
    e.text = r.get_string("claim");
    e.paper = r.get_string("paper");
    e.tolerance = r.get_string("tolerance", "-");
    e.text_if_not_judged = r.get_string("claim_if_not_judged", e.text);
    for (const std::string& name : c.numbers) e.limits[name] = r.get_double(name, -kAny, kAny);
    r.finish();
  }
  claims.finish();
}

ClaimBook ClaimBook::read(JsonReader& config, const std::string& default_file,
                          const std::vector<ClaimLimits>& expected) {
  if (config.has("claims")) return ClaimBook(config, expected);
  const Json shipped = load_json_file(default_file);
  JsonReader r(shipped, default_file, "");
  return ClaimBook(r, expected);
}

const ClaimBook::Entry& ClaimBook::entry(const std::string& id) const {
  auto it = entries_.find(id);
  if (it == entries_.end()) throw std::logic_error("claim " + id + " is not in the experiment's claim list");
  return it->second;
}

double ClaimBook::limit(const std::string& id, const std::string& name) const {
  auto it = entry(id).limits.find(name);
  if (it == entry(id).limits.end()) throw std::logic_error("claim " + id + " has no tolerance number " + name);
  return it->second;
}

Claim ClaimBook::judged(const std::string& id, std::string measured, bool ok, std::string note_if_fail) const {
  const Entry& e = entry(id);
  return judged_claim(id, e.text, e.paper, std::move(measured), e.tolerance, ok, std::move(note_if_fail));
}

Claim ClaimBook::not_judged(const std::string& id, std::string note) const {
  const Entry& e = entry(id);
  return na_claim(id, e.text_if_not_judged, e.paper, std::move(note));
}

namespace {

std::vector<ClaimTarget> targets_of(JsonReader& config, const std::vector<ClaimLimits>& expected) {
  std::vector<ClaimTarget> targets;
  config.for_each("targets", 1, 16, [&](JsonReader& t, size_t) {
    ClaimTarget target;
    target.text = t.get_string("target");
    const Json& ids = t.raw("claims");
    if (!ids.is_array() || ids.empty()) t.fail("claims", "expected a non-empty array of claim ids");
    for (const Json& id : ids) {
      const bool known = id.is_string() && std::any_of(expected.begin(), expected.end(), [&](const ClaimLimits& c) {
                           return c.id == id.get<std::string>();
                         });
      if (!known) t.fail("claims", "expected ids of this experiment's claims, got " + id.dump());
      target.claims.push_back(id.get<std::string>());
    }
    targets.push_back(std::move(target));
  });
  return targets;
}

}  // namespace

std::vector<ClaimTarget> read_claim_targets(JsonReader& config, const std::string& default_file,
                                            const std::vector<ClaimLimits>& expected) {
  if (config.has("targets")) return targets_of(config, expected);
  const Json shipped = load_json_file(default_file);
  JsonReader r(shipped, default_file, "");
  return targets_of(r, expected);
}

Json targets_json(const std::vector<ClaimTarget>& targets, const std::vector<Claim>& judged) {
  Json out = Json::array();
  for (const ClaimTarget& t : targets) {
    std::string measured;
    bool pass = true;
    for (const std::string& id : t.claims) {
      auto c = std::find_if(judged.begin(), judged.end(), [&](const Claim& j) { return j.id == id; });
      if (c == judged.end()) throw std::logic_error("target \"" + t.text + "\" names claim " + id + ", not judged");
      pass = pass && c->verdict == "pass";
      measured += (measured.empty() ? "" : "; ") + id + ": " +
                  (c->verdict == "n/a" ? "n/a (" + c->note + ")" : c->measured);
    }
    out.push_back({{"target", t.text}, {"measured", measured}, {"pass", pass}});
  }
  return out;
}

std::string targets_markdown(const Json& targets) {
  std::ostringstream md;
  md << "| target | measured | verdict |\n|---|---|---|\n";
  for (const Json& t : targets)
    md << "| " << t["target"].get<std::string>() << " | " << t["measured"].get<std::string>() << " | "
       << (t["pass"].get<bool>() ? "pass" : "**FAIL**") << " |\n";
  return md.str();
}

}  // namespace gpupm
