// (6) A new kind of target for RunLoad: every entity published as one line
// of JSON ({"type": ..., "pk": ..., "attributes": {...}}) in a file, from a
// generated catalog. RunLoad opens it through an OpenTargetSpec once its
// checks pass; verification counts the lines back from the file; the report
// names its kind ("jsonl"). A file that exists already is refused, never
// replaced, and a failed run removes only the file it made.
// Usage: jsonl_target OUT.jsonl
#include <nlohmann/json.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <string>

#include "warmup/catalog_target.h"
#include "warmup/generator.h"
#include "warmup/report.h"
#include "warmup/run.h"
#include "warmup/run_result.h"

namespace {

class JsonLinesTarget : public warmup::CatalogTarget {
 public:
  explicit JsonLinesTarget(std::string path) : path_(std::move(path)) {}

  std::string Describe() const override { return "JSON Lines " + path_; }
  std::string Kind() const override { return "jsonl"; }

  warmup::Status CreateCatalog(const warmup::CatalogSchema&) override {
    std::error_code ec;
    if (std::filesystem::exists(path_, ec)) {
      return warmup::AlreadyExistsError(path_ + " exists: a run writes a file of its own and replaces none");
    }
    out_.open(path_, std::ios::binary);
    if (!out_) return warmup::UnavailableError(path_ + ": cannot be created");
    created_ = true;
    return warmup::OkStatus();
  }

  warmup::Status Upsert(const warmup::Entity& entity, warmup::UpsertReceipt*) override {
    nlohmann::json attributes = nlohmann::json::object();
    for (const auto& [name, value] : entity.attributes.global) attributes[name] = warmup::DebugString(value);
    out_ << nlohmann::json{{"type", entity.type}, {"pk", entity.primary_key}, {"attributes", attributes}}
                .dump()
         << '\n';
    // A write that fails is the target failing (not the entity): the copy stops.
    if (!out_) return warmup::UnavailableError(path_ + ": a line could not be written");
    return warmup::OkStatus();
  }

  // The file is complete, and on disk, when goLive returns.
  warmup::Status GoLive() override {
    out_.close();
    if (out_.fail()) return warmup::UnavailableError(path_ + ": cannot be written to the end");
    return warmup::OkStatus();
  }

  // Read back from the file: what it holds, not what was sent.
  warmup::StatusOr<int64_t> Count(const std::string& entity_type) override {
    std::ifstream in(path_, std::ios::binary);
    if (!in) return warmup::UnavailableError(path_ + ": cannot be read back");
    int64_t count = 0;
    int64_t line_number = 0;
    for (std::string line; std::getline(in, line);) {
      ++line_number;
      const nlohmann::json entity = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
      if (!entity.is_object() || !entity.contains("type") || !entity["type"].is_string()) {
        return warmup::DataLossError(path_ + ":" + std::to_string(line_number) + ": not an entity line");
      }
      if (entity["type"] == entity_type) ++count;
    }
    return count;
  }

  // Removes the file this target made, and nothing else.
  warmup::Status DropCatalog() override {
    if (!created_) return warmup::OkStatus();
    out_.close();
    std::error_code ec;
    std::filesystem::remove(path_, ec);
    if (ec) return warmup::UnavailableError(path_ + ": cannot be removed: " + ec.message());
    created_ = false;
    return warmup::OkStatus();
  }

 private:
  std::string path_;
  std::ofstream out_;
  bool created_ = false;
};

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: jsonl_target OUT.jsonl\n");
    return 64;
  }
  warmup::GeneratorOptions tiny;
  tiny.profile = "tiny";
  auto source = warmup::OpenGeneratorSource(tiny);
  if (!source.ok()) {
    std::fprintf(stderr, "jsonl_target: %s\n", source.status().ToString().c_str());
    return 1;
  }
  warmup::RunSpec spec;
  spec.source = warmup::OpenSourceSpec{source->get()};
  const std::string out = argv[1];
  spec.target = warmup::OpenTargetSpec{[out]() -> warmup::StatusOr<std::unique_ptr<warmup::CatalogTarget>> {
    return std::unique_ptr<warmup::CatalogTarget>(std::make_unique<JsonLinesTarget>(out));
  }};
  auto result = warmup::RunLoad(spec);
  if (!result.ok()) {
    std::fprintf(stderr, "jsonl_target: %s\n", result.status().ToString().c_str());
    return 1;
  }
  std::cout << warmup::RenderTextReport(*result);
  return result->ExitCode();
}
