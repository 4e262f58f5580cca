// A paper's claims as data. The experiment config's "claims" object states each
// claim (its text, the paper's figure, the tolerance in words and the numbers
// the verdict compares against); the analysis measures and judges; the summary
// prints the judged claims as a JSON array and a Markdown table.
#pragma once

#include "gpupm/common/json_fwd.h"
#include "gpupm/common/param.h"

#include <map>
#include <string>
#include <vector>

namespace gpupm {

// One testable claim of a paper, judged on our model.
struct Claim {
  std::string id;
  std::string text;
  std::string paper;     // the paper's figure
  std::string measured;  // ours
  std::string tolerance;
  std::string verdict;  // "pass", "fail" or "n/a"
  std::string note;     // one line: why it failed, or what stands in for it
};

// A claim judged pass/fail (the note only stands when it fails), or one our model cannot judge.
Claim judged_claim(std::string id, std::string text, std::string paper, std::string measured, std::string tolerance,
                   bool ok, std::string note_if_fail = "");
Claim na_claim(std::string id, std::string text, std::string paper, std::string note);

Json claims_json(const std::vector<Claim>& claims);
std::string claims_markdown(const std::vector<Claim>& claims);

// What the analysis expects of one claim's config entry: the names of its
// tolerance numbers (each in [lo, hi]).
struct ClaimLimits {
  std::string id;
  std::vector<std::string> numbers;
};

// One claim of "claims": its words and the tolerance numbers its verdict compares against.
struct ClaimParams {
  std::string id, claim, paper, tolerance = "-", claim_if_not_judged;
  std::vector<std::string> names;  // the ClaimLimits' numbers
  std::vector<double> numbers;     // their values, in that order
};
// "claims": {ID: {...}} with every claim of EXPECTED (sized here), none other.
void describe_claims(ParamVisitor& v, std::vector<ClaimParams>& claims, const std::vector<ClaimLimits>& expected);

// One of "targets": [{"target": words, "claims": [ids]}].
struct TargetParams {
  std::string target;
  std::vector<std::string> claims;
};
void describe_targets(ParamVisitor& v, std::vector<TargetParams>& targets, const std::vector<ClaimLimits>& expected);

// The claims an experiment config states, under "claims": {ID: {"claim": text,
// "paper": figure, "tolerance": words (default "-"), NUMBER: value..., and
// optionally "claim_if_not_judged": the text when it is n/a}}. Every
// expected claim must be there with its numbers; unknown claims and keys are errors.
class ClaimBook {
 public:
  ClaimBook() = default;
  explicit ClaimBook(const std::vector<ClaimParams>& claims);

  // A tolerance number of claim ID (the names given to the constructor).
  double limit(const std::string& id, const std::string& name) const;
  const std::string& tolerance(const std::string& id) const { return entry(id).tolerance; }
  // The claim judged: its text, figure and tolerance from the config; the note only when it fails.
  Claim judged(const std::string& id, std::string measured, bool ok, std::string note_if_fail = "") const;
  // The claim, which our model does not judge here: measured and tolerance "-".
  Claim not_judged(const std::string& id, std::string note) const;

 private:
  struct Entry {
    std::string text, paper, tolerance, text_if_not_judged;
    std::map<std::string, double> limits;
  };
  const Entry& entry(const std::string& id) const;
  std::map<std::string, Entry> entries_;
};

// A headline target of an experiment (README's table): its words and the
// claims that decide it (it passes when every one of them passes).
struct ClaimTarget {
  std::string text;
  std::vector<std::string> claims;
};

std::vector<ClaimTarget> claim_targets(const std::vector<TargetParams>& targets);
// summary.json's "targets": [{"target", "measured", "pass"}], measured from the judged claims.
Json targets_json(const std::vector<ClaimTarget>& targets, const std::vector<Claim>& judged);
// The same as a Markdown table.
std::string targets_markdown(const Json& targets);

}  // namespace gpupm
