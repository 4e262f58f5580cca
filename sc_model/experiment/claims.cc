#include "gpupm/experiment/claims.h"

#include <algorithm>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <nlohmann/json.hpp>

namespace gpupm {

Claim judged_claim(std::string id, std::string text, std::string paper, std::string measured, std::string tolerance,
                   bool ok, std::string note_if_fail) {
  return {std::move(id),
          std::move(text),
          std::move(paper),
          std::move(measured),
          std::move(tolerance),
          ok ? "pass" : "fail",
          ok ? "" : std::move(note_if_fail)};
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
       << (c.verdict == "pass"   ? "pass"
           : c.verdict == "fail" ? "**FAIL**"
                                 : "n/a")
       << " | " << c.note << " |\n";
  return md.str();
}

void describe_claims(ParamVisitor& v, std::vector<ClaimParams>& claims, const std::vector<ClaimLimits>& expected) {
  constexpr double kAny = std::numeric_limits<double>::max();
  claims.resize(expected.size());
  v.section("claims", Presence::kOptional,
            "the paper's claims the summary judges (absent: the shipped synthetic config's)", [&](ParamVisitor& all) {
              for (size_t i = 0; i < expected.size(); ++i) {
                ClaimParams& c = claims[i];
                c.id = expected[i].id;
                c.names = expected[i].numbers;
                c.numbers.resize(c.names.size());
                all.section(c.id.c_str(), Presence::kRequired, "one claim of the paper", [&](ParamVisitor& cv) {
                  cv.text("claim", c.claim, "the claim, in words", Presence::kRequired);
                  cv.text("paper", c.paper, "the paper's figure", Presence::kRequired);
                  cv.text("tolerance", c.tolerance, "the tolerance, in words");
                  cv.text("claim_if_not_judged", c.claim_if_not_judged,
                          "the claim's words when our model does not judge it (default: claim)");
                  for (size_t j = 0; j < c.numbers.size(); ++j)
                    cv.number(c.names[j].c_str(), c.numbers[j], -kAny, kAny, "",
                              "a number the verdict compares against", Presence::kRequired);
                });
              }
            });
}

void describe_targets(ParamVisitor& v, std::vector<TargetParams>& targets, const std::vector<ClaimLimits>& expected) {
  std::string ids;
  for (const ClaimLimits& c : expected) ids += (ids.empty() ? "" : "|") + c.id;
  const std::string pattern = "^(" + ids + ")$";
  std::string allowed = "a claim id of this experiment (" + ids + ")";
  for (char& ch : allowed)
    if (ch == '|') ch = ',';
  v.list("targets", targets, 1, 16, Presence::kOptional,
         "the headline targets, each decided by the claims it names (absent: the shipped synthetic config's)",
         [&](ParamVisitor& tv, TargetParams& t) {
           tv.text("target", t.target, "the target, in words", Presence::kRequired);
           tv.text_list("claims", t.claims, 1, 64, pattern.c_str(), allowed.c_str(),
                        "the claims that decide it (it passes when every one of them passes)", Presence::kRequired);
         });
}

std::vector<ClaimTarget> claim_targets(const std::vector<TargetParams>& targets) {
  std::vector<ClaimTarget> out;
  for (const TargetParams& t : targets) out.push_back({t.target, t.claims});
  return out;
}

ClaimBook::ClaimBook(const std::vector<ClaimParams>& claims) {
  for (const ClaimParams& c : claims) {
    Entry& e = entries_[c.id];
    e.text = c.claim;
    e.paper = c.paper;
    e.tolerance = c.tolerance;
    e.text_if_not_judged = c.claim_if_not_judged.empty() ? c.claim : c.claim_if_not_judged;
    for (size_t j = 0; j < c.numbers.size(); ++j) e.limits[c.names[j]] = c.numbers[j];
  }
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

Json targets_json(const std::vector<ClaimTarget>& targets, const std::vector<Claim>& judged) {
  Json out = Json::array();
  for (const ClaimTarget& t : targets) {
    std::string measured;
    bool pass = true;
    for (const std::string& id : t.claims) {
      auto c = std::find_if(judged.begin(), judged.end(), [&](const Claim& j) { return j.id == id; });
      if (c == judged.end()) throw std::logic_error("target \"" + t.text + "\" names claim " + id + ", not judged");
      pass = pass && c->verdict == "pass";
      measured +=
          (measured.empty() ? "" : "; ") + id + ": " + (c->verdict == "n/a" ? "n/a (" + c->note + ")" : c->measured);
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
