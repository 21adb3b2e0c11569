// The fields of a run's configuration that say what it measured, defined
// once. Internal to report/ and history/.
//
// A run report records them under "config"; a reader of reports sets
// RunRecord::setup from them (two runs are set side by side only when their
// setups agree); a history files runs into series by them. Each field is one
// entry of SetupFields(): its RunConfig member as the report writes it, the
// setup value a report reads as (reports older than the field included),
// and which values start a series of their own. A new field is its RunConfig
// member, one entry, and a line in each renderer that shows it.
#ifndef WARMUP_SRC_REPORT_SETUP_FIELDS_H_
#define WARMUP_SRC_REPORT_SETUP_FIELDS_H_

#include <nlohmann/json.hpp>

#include <map>
#include <span>
#include <string>

#include "warmup/run_config.h"

namespace warmup::report {

// RunRecord::setup: field label -> value.
using Setup = std::map<std::string, std::string>;

// What a report that lacks a field (it is older than the field) says of it.
inline constexpr const char* kNotRecorded = "not recorded";

struct SetupField {
  const char* label;      // RunRecord::setup's key, e.g. "record writes"
  const char* json_name;  // the report's config.<json_name>, e.g. "record_writes"
  // The field's value in a report's config.
  nlohmann::json (*write)(const RunConfig& config);
  // The field's setup value. `config` is the report's config object, null
  // for a report before warmup-run/7 (which recorded none); `report` the
  // whole report; `earlier` the setup read so far (the fields before this
  // one in SetupFields()).
  std::string (*read)(const nlohmann::json* config, const nlohmann::json& report, const Setup& earlier);
  // The one value that files a run into a series of its own in a history;
  // null when every value does. Runs recorded before the field read as
  // another value, and a run that measured what they did goes on in their
  // series.
  const char* own_series_value = nullptr;
};

// Every setup field, in the order they are read.
std::span<const SetupField> SetupFields();

// `value`, or JSON null when it is empty (a field the run could not fill).
nlohmann::json OrNull(const std::string& value);

// `words` (a JSON array of strings) joined by single spaces.
std::string JoinedWords(const nlohmann::json& words);

// The field labelled `label`; null for a setup entry that is not read from
// the config (the dataset, the host).
const SetupField* FindSetupField(const std::string& label);

}  // namespace warmup::report

#endif  // WARMUP_SRC_REPORT_SETUP_FIELDS_H_
