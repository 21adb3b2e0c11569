// What every command's parser shares: Boost.Program_options run the same way
// everywhere (errors as a Status naming the option, --help as a value), the
// checks a flag's value goes through, and the option groups that more than
// one command has (client TLS, the profiler). Internal to the command-line
// parsers (options.h); the only header that includes Boost.Program_options.
#ifndef WARMUP_APPS_COMMON_OPTION_PARSING_H_
#define WARMUP_APPS_COMMON_OPTION_PARSING_H_

#include <boost/program_options.hpp>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "common/options.h"
#include "warmup/status.h"
#include "warmup/tls.h"

namespace warmup::cli {

namespace po = boost::program_options;

// Boost's default style without guessing: an abbreviation is not taken for
// a flag it happens to begin (`--run` is not `--runs`).
constexpr int kStyle = po::command_line_style::default_style & ~po::command_line_style::allow_guessing;

constexpr int64_t kDaySeconds = int64_t{24} * 3600;
constexpr int64_t kWeekSeconds = 7 * kDaySeconds;

// Parses `args` against `visible` and `hidden` (older spellings, left out of
// the help) and `positional`, turning every Boost error into a Status that
// names the option. With --help, `*help` gets the usage and the visible
// option descriptions, and nothing else is checked. A bare `--compress` is
// read as `--compress=zstd`. An empty value is refused: it is an unset shell
// variable, never "the default".
StatusOr<po::variables_map> Parse(const std::vector<std::string>& args,
                                  const po::options_description& visible,
                                  const po::positional_options_description& positional,
                                  const std::string& usage, std::string* help,
                                  const po::options_description& hidden = po::options_description());

// Whether `flag` was given on the command line (not merely defaulted).
bool Given(const po::variables_map& vm, const char* flag);

// kInvalidArgument for the first of `flags` given on the command line: in
// this mode it would change nothing, and a flag that silently does nothing
// makes a run mean something else than its user thinks.
Status RefuseIgnored(const po::variables_map& vm, std::initializer_list<const char*> flags,
                     const std::string& mode);

// kInvalidArgument when a server `command` has {xmx} and `xmx` is empty,
// naming the flags (`command_flag`, `xmx_advice`) here, at parse time: the
// library would refuse it only when starting the server, in its own words.
Status RequireXmx(const std::string& command, const std::string& xmx, const std::string& command_flag,
                  const std::string& xmx_advice);

// "a b  c" -> {"a", "b", "c"}.
std::vector<std::string> SplitAtSpaces(const std::string& text);

// kInvalidArgument naming `flag` unless `low` <= `value` <= `high`.
Status CheckRange(const char* flag, int64_t value, int64_t low, int64_t high);

// kInvalidArgument naming the generator's profiles unless `profile` is one (--profile).
Status CheckGeneratorProfile(const std::string& profile);

// `tool` and `args` as one command line, for the report.
std::vector<std::string> CommandLine(std::vector<std::string> tool, const std::vector<std::string>& args);

// A live catalog as --source names it.
struct GrpcUrl {
  std::string address;  // HOST:PORT
  std::string catalog;
  bool tls = false;  // grpcs://
};

// Parses grpc://HOST:PORT/CATALOG or grpcs://HOST:PORT/CATALOG; errors name `option`.
StatusOr<GrpcUrl> ParseGrpcUrl(const std::string& url, const std::string& option);

// How a command's user asks for TLS: --tls for the connection to --address,
// grpcs:// in --source, or either; what the group's advice tells them to do.
enum class TlsBy { kSwitch, kSource, kSwitchOrSource };

// The TLS group of every command that dials a server: --tls (unless `by` is
// kSource) turns it on for the connection to --address (grpcs:// does for
// --source); the files apply to every TLS connection the command makes.
po::options_description ClientTlsGroup(ClientTlsOptions* tls, TlsBy by);

// The TLS group's settings for one connection, on when `enabled`; off, they
// are dropped unless `keep_settings` (for CheckClientTls to refuse them); the
// names stay, for the advice of a plaintext call that meets a TLS server.
ClientTlsOptions TlsFor(const ClientTlsOptions& tls, bool enabled, bool keep_settings = false);

// --profile's help: the generator's profiles, "senesi | senesi-production | tiny".
std::string GeneratorProfilesHelp();

// --compress of the commands that write snapshots: none | zstd.
inline constexpr const char* kCompressHelp = "none | zstd (a bare --compress is zstd)";
Status ParseSnapshotCompression(const std::string& compression, SnapshotWriteOptions& write);

// --compress of the commands whose target stores records: none | zstd | deflate.
inline constexpr const char* kRecordCompressHelp =
    "none | zstd | deflate (raw deflate at level 3, evitaDB's codec; a bare --compress is zstd)";
StatusOr<RecordCompression> ParseRecordCompression(const std::string& compression);
// kInvalidArgument unless 0 < `alpha` <= 0.2 (--alpha of compare, ab and history).
Status CheckAlpha(double alpha);

// kInvalidArgument naming `flag` (e.g. "--metric") and every metric there is
// unless `metric` is a metric of a run report (IsRunMetricName).
Status CheckRunMetric(const char* flag, const std::string& metric);

// What decides a verdict, the same in compare and ab: --metric, --test,
// --alpha, --resamples, --force, into `options` and `test_name` (a flag's
// value, not yet a RunsTest).
po::options_description VerdictGroup(CompareOptions* options, std::string* test_name);
// The verdict flags given, checked before anything runs, and --test named
// into options->test: kInvalidArgument naming the flag and the value.
Status CheckVerdictOptions(const std::string& test_name, CompareOptions* options);

// --records-inline of the commands whose target stores records.
inline constexpr const char* kRecordsInlineHelp =
    "each upsert writes its entity's records itself, as evitaDB's does (default: a second thread writes "
    "them in WARM_UP, and upsert times leave that work out)";

// The profiler group (--profiler, --profile-out, and for serve
// --profile-golive), read into `*kind_name` and `*profiler`; FinishProfiler
// then checks what goes with what. Errors: kInvalidArgument naming the flag.
po::options_description ProfilerGroup(std::string* kind_name, ProfilerOptions* profiler, bool serve);
Status FinishProfiler(const std::string& kind_name, ProfilerOptions* profiler);

}  // namespace warmup::cli

#endif  // WARMUP_APPS_COMMON_OPTION_PARSING_H_
