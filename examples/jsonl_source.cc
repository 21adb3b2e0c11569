// (3) A custom CatalogSource: books from a JSON Lines file, one object a
// line ({"pk": 1, "title": "...", "year": 1999}), ascending by pk, published
// into an embedded engine with RunCopy; a bad line stops the run naming it.
// Usage: jsonl_source BOOKS.jsonl DATA_DIR
#include <nlohmann/json.hpp>

#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "warmup/copy_engine.h"
#include "warmup/embedded_target.h"
#include "warmup/report.h"
#include "warmup/run_result.h"

namespace {

warmup::CatalogSchema LibrarySchema() {
  warmup::CatalogSchema catalog;
  catalog.name = "library";
  warmup::EntitySchema book;
  book.name = "Book";
  warmup::AttributeSchema title;
  title.name = "title";
  title.filterable_in_scopes = {warmup::Scope::kLive};
  title.sortable_in_scopes = {warmup::Scope::kLive};
  warmup::AttributeSchema year = title;
  year.name = "year";
  year.type = warmup::ValueType::kInteger;
  year.nullable = true;  // a book may lack a year
  book.attributes = {{"title", title}, {"year", year}};
  catalog.entities.emplace("Book", book);
  return catalog;
}

class JsonLinesStream : public warmup::EntityStream {
 public:
  explicit JsonLinesStream(const std::string& path) : path_(path), in_(path) {}
  warmup::StatusOr<bool> Next(warmup::Entity* entity) override {
    std::string line;
    if (!std::getline(in_, line)) return false;
    ++line_number_;
    auto fail = [&](const std::string& what) {
      return warmup::InvalidArgumentError(path_ + ":" + std::to_string(line_number_) + ": " + what);
    };
    const nlohmann::json book = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
    if (!book.is_object()) return fail("not a JSON object");
    if (!book.contains("pk") || !book["pk"].is_number_integer()) return fail("needs an integer \"pk\"");
    if (!book.contains("title") || !book["title"].is_string()) return fail("needs a string \"title\"");
    const int64_t pk = book["pk"].get<int64_t>();
    if (pk <= last_pk_) return fail("pk " + std::to_string(pk) + " does not ascend");
    last_pk_ = pk;
    *entity = {};
    entity->type = "Book";
    entity->primary_key = static_cast<int32_t>(pk);
    entity->attributes.global.emplace("title", warmup::Value::String(book["title"].get<std::string>()));
    if (book.contains("year") && book["year"].is_number_integer()) {
      entity->attributes.global.emplace("year", warmup::Value::Integer(book["year"].get<int32_t>()));
    }
    return true;
  }

 private:
  std::string path_;
  std::ifstream in_;
  int64_t line_number_ = 0;
  int64_t last_pk_ = 0;
};

class JsonLinesSource : public warmup::CatalogSource {
 public:
  JsonLinesSource(std::string path, int64_t lines) : path_(std::move(path)) {
    collections_.push_back({"Book", lines, 0});
  }
  const warmup::CatalogSchema& schema() const override { return schema_; }
  const std::vector<warmup::CollectionInfo>& collections() const override { return collections_; }
  warmup::StatusOr<std::unique_ptr<warmup::EntityStream>> OpenCollection(const std::string& type) override {
    if (type != "Book") return warmup::NotFoundError("no collection " + type + "; the library has Book");
    return std::unique_ptr<warmup::EntityStream>(new JsonLinesStream(path_));
  }
  std::string Describe() const override { return "JSON Lines " + path_; }
  std::string Fingerprint() const override {
    return "jsonl-" + std::to_string(collections_[0].expected_count);
  }

 private:
  std::string path_;
  warmup::CatalogSchema schema_ = LibrarySchema();
  std::vector<warmup::CollectionInfo> collections_;
};

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: jsonl_source BOOKS.jsonl DATA_DIR\n");
    return 2;
  }
  std::ifstream count_lines(argv[1]);
  if (!count_lines) {
    std::fprintf(stderr, "jsonl_source: cannot read %s\n", argv[1]);
    return 1;
  }
  int64_t lines = 0;
  for (std::string line; std::getline(count_lines, line);) ++lines;
  JsonLinesSource source(argv[1], lines);
  auto target = warmup::MakeEmbeddedTarget(argv[2]);
  if (!target.ok()) {
    std::fprintf(stderr, "jsonl_source: %s\n", target.status().ToString().c_str());
    return 1;
  }
  auto result = warmup::RunCopy(source, **target, {});
  if (!result.ok()) {
    std::fprintf(stderr, "jsonl_source: %s\n", result.status().ToString().c_str());
    return 1;
  }
  std::cout << warmup::RenderTextReport(*result);
  return result->ExitCode();
}
