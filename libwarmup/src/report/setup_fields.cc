// The setup fields' one table (setup_fields.h).
#include "report/setup_fields.h"

#include <array>

namespace warmup::report {
namespace {

using nlohmann::json;

// A text field of the config; "not recorded" when the report has no config,
// or the field is absent or null.
std::string Text(const json* config, const char* name) {
  if (config == nullptr || !config->contains(name) || config->at(name).is_null()) return kNotRecorded;
  return config->at(name).get<std::string>();
}

constexpr std::array<SetupField, 7> kSetupFields = {{
    {"target kind", "target_kind", [](const RunConfig& c) { return OrNull(c.target_kind); },
     // Reports without a config begin the target's description with its kind.
     [](const json* config, const json& report, const Setup&) {
       if (config != nullptr) return Text(config, "target_kind");
       const std::string target = report.at("target").get<std::string>();
       return target.substr(0, target.find(' '));
     }},
    {"compression", "compression", [](const RunConfig& c) { return OrNull(CompressionWord(c.records)); },
     [](const json* config, const json&, const Setup&) { return Text(config, "compression"); }},
    {"record writes", "record_writes", [](const RunConfig& c) { return OrNull(RecordWritesWord(c.records)); },
     // Reports before the field: every target that said how it compressed
     // wrote its records on the upserting thread.
     [](const json* config, const json&, const Setup& earlier) {
       if (config != nullptr && config->contains("record_writes")) return Text(config, "record_writes");
       const std::string& compression = earlier.at("compression");
       return compression == kNotRecorded || compression == "n/a" ? compression : std::string("inline");
     },
     "background"},
    {"max per collection", "max_per_collection",
     [](const RunConfig& c) { return json(c.max_per_collection); },
     [](const json* config, const json&, const Setup&) {
       return config == nullptr ? std::string(kNotRecorded)
                                : std::to_string(config->at("max_per_collection").get<int64_t>());
     }},
    {"source read", "source_read_ahead", [](const RunConfig& c) { return json(c.source_read_ahead); },
     // Reports before the field read inline.
     [](const json* config, const json&, const Setup&) {
       return std::string(config != nullptr && config->value("source_read_ahead", false)
                              ? "ahead, on a second thread"
                              : "inline");
     },
     "ahead, on a second thread"},
    {"collections", "collections", [](const RunConfig& c) { return json(c.collections); },
     [](const json* config, const json& report, const Setup&) {
       if (config == nullptr) {
         return std::string(report.at("collection_subset").get<bool>() ? "a subset" : "all");
       }
       return config->at("collections").empty() ? std::string("all") : JoinedWords(config->at("collections"));
     }},
    // The provenance is recorded whole; the setup holds the one entry that
    // changes what was measured.
    {"dataset scale", "dataset_provenance", [](const RunConfig& c) { return json(c.dataset_provenance); },
     [](const json* config, const json&, const Setup&) {
       if (config == nullptr) return std::string(kNotRecorded);
       const json& provenance = config->at("dataset_provenance");
       return provenance.contains("generator.scale") ? provenance.at("generator.scale").get<std::string>()
                                                     : std::string("not said by the source");
     }},
}};

}  // namespace

json OrNull(const std::string& value) { return value.empty() ? json(nullptr) : json(value); }

std::string JoinedWords(const json& words) {
  std::string out;
  for (const json& w : words) out += (out.empty() ? "" : " ") + w.get<std::string>();
  return out;
}

std::span<const SetupField> SetupFields() { return kSetupFields; }

const SetupField* FindSetupField(const std::string& label) {
  for (const SetupField& field : kSetupFields) {
    if (label == field.label) return &field;
  }
  return nullptr;
}

}  // namespace warmup::report
