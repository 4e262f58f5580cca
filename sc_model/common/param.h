// Parameters declared once. Each config struct has one function
//   void describe(ParamVisitor& v, Struct& s);
// that declares every field: name, type, range, unit, a one-line description,
// and whether it is required; the default is the field's initialiser in the
// struct. Cross-field checks are named rules declared beside the fields.
// Every consumer walks the same declaration:
//   JsonParamReader (param_reader.h)  reads a JSON object into the struct
//   ParamLister     (param_lister.h)  the `gpupm params` listing
//   SchemaWriter    (param_schema.h)  docs/schema/*.schema.json
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace gpupm {

enum class ParamKind {
  // clang-format off
  kInteger, kNumber, kBool, kString, kChoice, kIntegerList, kSection, kList, kStringList, kJsonList, kExactNumber,
  kMap, kJsonObject
  // clang-format on
};
// The one rule for every name that becomes a path component (an app's dump
// folder, a buffer's .npy file): no separator, no "." or "..", no hidden file,
// short enough for any file system.
inline constexpr const char* kFileNamePattern = "^[A-Za-z0-9_][A-Za-z0-9_.+-]{0,99}$";
inline constexpr const char* kFileNameAllowed =
    "a name usable as a file name (1-100 letters, digits, '_', '-', '+' or '.', not starting with '.', '-' or '+')";

// What a json_list holds: any JSON value but null, or objects.
enum class JsonItems { kValues, kObjects };
enum class Presence { kOptional, kRequired };

// What a declaration says about one key (ranges: the ones its kind uses).
struct ParamInfo {
  std::string name;
  ParamKind kind = ParamKind::kInteger;
  Presence presence = Presence::kOptional;
  uint64_t int_min = 0, int_max = 0;    // kInteger, kIntegerList elements; kList/kIntegerList: element counts below
  double num_min = 0, num_max = 0;      // kNumber
  size_t min_items = 0, max_items = 0;  // kList, kIntegerList, kMap
  std::vector<std::string> choices;     // kChoice
  std::string pattern;  // kString, kStringList, kMap (its keys): an ECMAScript regex the text must contain
  std::string allowed;  // what the pattern allows, in words (the reader's message)
  JsonItems items = JsonItems::kValues;  // kJsonList
  std::string unit;
  std::string description;
  bool required() const { return presence == Presence::kRequired; }
};

// A broken rule: the key it names (relative to the object being read) and what is expected.
struct ParamProblem {
  std::string key;
  std::string what;
};
using RuleCheck = std::function<std::optional<ParamProblem>()>;
using SectionBody = std::function<void(class ParamVisitor&)>;

class ParamVisitor {
 public:
  virtual ~ParamVisitor() = default;

  template <class U>
  void integer(const char* name, U& field, uint64_t lo, uint64_t hi, const char* unit, const char* description,
               Presence presence = Presence::kOptional) {
    ParamInfo info = make(name, ParamKind::kInteger, presence, unit, description);
    info.int_min = lo;
    info.int_max = hi;
    uint64_t v = uint64_t(field);
    visit_integer(info, v);
    field = U(v);  // the reader keeps v within [lo, hi], which the field's type holds
  }
  void number(const char* name, double& field, double lo, double hi, const char* unit, const char* description,
              Presence presence = Presence::kOptional);
  void flag(const char* name, bool& field, const char* description);
  void text(const char* name, std::string& field, const char* description, Presence presence = Presence::kOptional);
  void choice(const char* name, std::string& field, const std::vector<std::string>& choices, const char* description,
              Presence presence = Presence::kOptional);
  // An enum (or bool) field named in JSON by one of `names` (names[i] is value i).
  template <class E>
  void choice_of(const char* name, E& field, const std::vector<std::string>& names, const char* description) {
    std::string s = names.at(size_t(field));
    choice(name, s, names, description);
    for (size_t i = 0; i < names.size(); ++i)
      if (names[i] == s) field = E(i);
  }
  // A string the regex `pattern` matches; `allowed` says the same in words ("a dotted path").
  void text_matching(const char* name, std::string& field, const char* pattern, const char* allowed,
                     const char* description, Presence presence = Presence::kOptional);
  // An array of min..max strings, each matched by `pattern` (empty: any string; `allowed` as above).
  void text_list(const char* name, std::vector<std::string>& field, size_t min, size_t max, const char* pattern,
                 const char* allowed, const char* description, Presence presence = Presence::kOptional);
  // An array of min..max JSON values kept as given (their meaning is the caller's).
  void json_list(const char* name, std::vector<nlohmann::json>& field, size_t min, size_t max, JsonItems items,
                 const char* description, Presence presence = Presence::kOptional);
  // A JSON object kept as given (its keys are another declaration's: e.g. a policy's settings).
  void json_object(const char* name, nlohmann::json& field, const char* description,
                   Presence presence = Presence::kOptional);
  // The fields `fields` declares, given in this object itself, and an optional
  // array `name` of up to `max` objects, each a change to them (a JSON merge
  // patch, RFC 7386) that makes one variant: fields(v, i) declares variant i
  // (variant 0 alone when the array is absent). Declare the object's other
  // keys before it: the variants are this object without them.
  void patched_fields(const char* name, std::vector<nlohmann::json>& patches, size_t max, const char* description,
                      const std::function<void(ParamVisitor&, size_t)>& fields);
  // A JSON number kept as written (an integer keeps all 64 bits, which a double
  // would not): its range depends on other fields, so a rule checks it.
  void exact_number(const char* name, nlohmann::json& field, const char* description,
                    Presence presence = Presence::kOptional);
  // An array of integers, each in [lo, hi].
  void integer_list(const char* name, std::vector<uint32_t>& field, uint64_t lo, uint64_t hi, const char* description);
  // A nested object; an optional section absent from the input keeps its defaults.
  void section(const char* name, Presence presence, const char* description, const SectionBody& body);
  // A nested object given inline or as the path of a JSON file holding it
  // (`file` receives the path read, resolved by `resolve`).
  void section_or_file(const char* name, const char* description, std::string& file,
                       const std::function<std::string(const std::string&)>& resolve, const SectionBody& body);
  // An array of objects, min..max of them.
  template <class E, class F>
  void list(const char* name, std::vector<E>& items, size_t min, size_t max, Presence presence, const char* description,
            F describe_item) {
    ParamInfo info = make(name, ParamKind::kList, presence, "", description);
    info.min_items = min;
    info.max_items = max;
    visit_list(
        info, items.size(), [&](size_t n) { items.resize(n); },
        [&](ParamVisitor& v, size_t i) { describe_item(v, items[i]); });
  }
  // An object of up to `max` named objects ({"a": {...}, "b": {...}}), read in
  // key order into `items`, each element's `name` field set to its key, every
  // key matched by `key_pattern` (`key_allowed` says it in words).
  template <class E, class F>
  void named_objects(const char* name, std::vector<E>& items, size_t max, const char* key_pattern,
                     const char* key_allowed, const char* description, F describe_item) {
    ParamInfo info = make(name, ParamKind::kMap, Presence::kOptional, "", description);
    info.max_items = max;
    info.pattern = key_pattern;
    info.allowed = key_allowed;
    visit_map(
        info, items.size(), [&](size_t n) { items.resize(n); }, [&](size_t i) -> std::string& { return items[i].name; },
        [&](ParamVisitor& v, size_t i) { describe_item(v, items[i]); });
  }
  // A cross-field check; the reader applies it where it is declared (after the fields it reads).
  void rule(const char* name, const char* description, const RuleCheck& check) { visit_rule(name, description, check); }
  // A rule that exactly one of `alternatives` (each a set of keys given
  // together) is given; the schema states it as oneOf, `check` words the message.
  void one_of(const char* name, const char* description, const std::vector<std::vector<std::string>>& alternatives,
              const RuleCheck& check) {
    visit_alternatives(alternatives);
    visit_rule(name, description, check);
  }
  // Whether the input names this key (the reader knows; the other visitors walk declarations only).
  virtual bool given(const std::string& name) const {
    (void)name;
    return false;
  }

 protected:
  virtual void visit_integer(const ParamInfo& info, uint64_t& value) = 0;
  virtual void visit_number(const ParamInfo& info, double& value) = 0;
  virtual void visit_bool(const ParamInfo& info, bool& value) = 0;
  virtual void visit_string(const ParamInfo& info, std::string& value) = 0;  // kString and kChoice
  virtual void visit_integer_list(const ParamInfo& info, std::vector<uint32_t>& value) = 0;
  virtual void visit_section(const ParamInfo& info, const SectionBody& body) = 0;
  virtual void visit_section_or_file(const ParamInfo& info, std::string& file,
                                     const std::function<std::string(const std::string&)>& resolve,
                                     const SectionBody& body) = 0;
  virtual void visit_list(const ParamInfo& info, size_t size, const std::function<void(size_t)>& resize,
                          const std::function<void(ParamVisitor&, size_t)>& item) = 0;
  virtual void visit_rule(const std::string& name, const std::string& description, const RuleCheck& check) = 0;
  virtual void visit_map(const ParamInfo& info, size_t size, const std::function<void(size_t)>& resize,
                         const std::function<std::string&(size_t)>& key,
                         const std::function<void(ParamVisitor&, size_t)>& item) = 0;
  virtual void visit_exact_number(const ParamInfo& info, nlohmann::json& value) = 0;
  virtual void visit_string_list(const ParamInfo& info, std::vector<std::string>& value) = 0;
  virtual void visit_json_list(const ParamInfo& info, std::vector<nlohmann::json>& value) = 0;
  virtual void visit_json_object(const ParamInfo& info, nlohmann::json& value) = 0;
  virtual void visit_patched(const ParamInfo& info, std::vector<nlohmann::json>& patches,
                             const std::function<void(ParamVisitor&, size_t)>& fields) = 0;
  // Only the schema states alternatives; the reader applies one_of's check.
  virtual void visit_alternatives(const std::vector<std::vector<std::string>>& alternatives) { (void)alternatives; }

  static ParamInfo make(const char* name, ParamKind kind, Presence presence, const char* unit, const char* description);
};

// The visits every ParamVisitor implements (its protected interface above), for
// the reader, the lister and the schema writer to declare in one line.
#define GPUPM_PARAM_VISITOR_OVERRIDES                                                                                \
  void visit_integer(const ParamInfo& info, uint64_t& value) override;                                               \
  void visit_number(const ParamInfo& info, double& value) override;                                                  \
  void visit_bool(const ParamInfo& info, bool& value) override;                                                      \
  void visit_string(const ParamInfo& info, std::string& value) override;                                             \
  void visit_integer_list(const ParamInfo& info, std::vector<uint32_t>& value) override;                             \
  void visit_section(const ParamInfo& info, const SectionBody& body) override;                                       \
  void visit_section_or_file(const ParamInfo& info, std::string& file,                                               \
                             const std::function<std::string(const std::string&)>& resolve, const SectionBody& body) \
      override;                                                                                                      \
  void visit_list(const ParamInfo& info, size_t size, const std::function<void(size_t)>& resize,                     \
                  const std::function<void(ParamVisitor&, size_t)>& item) override;                                  \
  void visit_rule(const std::string& name, const std::string& description, const RuleCheck& check) override;         \
  void visit_map(const ParamInfo& info, size_t size, const std::function<void(size_t)>& resize,                      \
                 const std::function<std::string&(size_t)>& key,                                                     \
                 const std::function<void(ParamVisitor&, size_t)>& item) override;                                   \
  void visit_exact_number(const ParamInfo& info, nlohmann::json& value) override;                                    \
  void visit_string_list(const ParamInfo& info, std::vector<std::string>& value) override;                           \
  void visit_json_list(const ParamInfo& info, std::vector<nlohmann::json>& value) override;                          \
  void visit_json_object(const ParamInfo& info, nlohmann::json& value) override;                                     \
  void visit_patched(const ParamInfo& info, std::vector<nlohmann::json>& patches,                                    \
                     const std::function<void(ParamVisitor&, size_t)>& fields) override;

// A rule's problem, or none: `ok` or {key, what}.
inline std::optional<ParamProblem> problem_unless(bool ok, std::string key, std::string what) {
  if (ok) return std::nullopt;
  return ParamProblem{std::move(key), std::move(what)};
}

// "integer", "number", ...: the type column of the listing.
const char* param_kind_name(ParamKind kind);

}  // namespace gpupm
