#include "warmup/engine.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <regex>
#include <set>

#include "common/status_matchers.h"
#include "common/temp_dir.h"
#include "engine/env.h"
#include "engine/index_keys.h"
#include "generator/tiny_profile.h"
#include "warmup/digest.h"
#include "warmup/generator.h"

namespace warmup {
namespace {

namespace fs = std::filesystem;

std::unique_ptr<Engine> OpenEngine(const std::string& dir) {
  auto engine = Engine::Open(dir);
  REQUIRE_MESSAGE(engine.ok(), engine.status().ToString());
  return std::move(engine).value();
}

// Loads the tiny catalog of `seed` into `engine`; returns every entity loaded.
std::vector<Entity> LoadTiny(Engine& engine, uint64_t seed, const std::string& name = "tiny") {
  auto source = OpenGeneratorSource({"tiny", 1.0, seed, name});
  REQUIRE_OK(source);
  auto catalog = engine.CreateCatalog((*source)->schema());
  REQUIRE_MESSAGE(catalog.ok(), catalog.status().ToString());
  std::vector<Entity> all;
  Entity e;
  for (const auto& c : (*source)->collections()) {
    auto stream = (*source)->OpenCollection(c.entity_type);
    while (*(*stream)->Next(&e)) {
      Status s = (*catalog)->Upsert(e);
      REQUIRE_MESSAGE(s.ok(), s.ToString());
      all.push_back(e);
    }
  }
  return all;
}

std::vector<Entity> OfType(const std::vector<Entity>& all, const std::string& type) {
  std::vector<Entity> out;
  for (const auto& e : all) {
    if (e.type == type) out.push_back(e);
  }
  return out;
}

bool References(const Entity& e, const std::string& reference, int32_t pk) {
  return std::any_of(e.references.begin(), e.references.end(), [&](const Reference& r) {
    return r.name == reference && r.referenced.primary_key == pk;
  });
}

bool In(const std::vector<Scope>& scopes, Scope scope) {
  return std::find(scopes.begin(), scopes.end(), scope) != scopes.end();
}

// round(value * 10^places), half away from zero, computed from the decimal's
// text by moving its point: an oracle written apart from the engine's scaling.
int64_t Scaled(const BigDecimal& value, int places) {
  std::smatch m;
  const std::string text = value.text();
  REQUIRE_MESSAGE(std::regex_match(text, m, std::regex(R"(([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?)")),
                  text);
  std::string digits = m[2].str() + m[3].str();
  int point = static_cast<int>(m[2].length()) + (m[4].matched ? std::stoi(m[4].str()) : 0) + places;
  while (point > static_cast<int>(digits.size())) digits += '0';
  for (; point < 0; ++point) digits.insert(0, "0");
  const std::string whole = digits.substr(0, static_cast<size_t>(point));
  int64_t n = whole.empty() ? 0 : std::stoll(whole);
  if (point < static_cast<int>(digits.size()) && digits[static_cast<size_t>(point)] >= '5') ++n;
  return m[1] == "-" ? -n : n;
}

// The entities of `all` in `scope` (and, for a reduced scope, referencing its
// entity) whose price for sale in `price_list`/`currency` lies in [from, to]:
// the minimum of the indexed prices, their sum under SUM handling.
std::vector<int32_t> PricedBetween(const std::vector<Entity>& all, const EntitySchema& schema,
                                   const IndexScope& scope, const std::string& price_list,
                                   const std::string& currency, const BigDecimal& from,
                                   const BigDecimal& to) {
  std::vector<int32_t> out;
  if (!In(schema.price_indexed_in_scopes, scope.scope)) return out;
  const int places = schema.indexed_price_places;
  for (const auto& e : all) {
    if (e.scope != scope.scope) continue;
    if (!scope.reference.empty() && !References(e, scope.reference, scope.referenced_pk)) continue;
    std::vector<int64_t> amounts;
    for (const auto& p : e.prices) {
      if (p.indexed && p.price_list == price_list && p.currency.code() == currency) {
        amounts.push_back(Scaled(p.price_with_tax, places));
      }
    }
    if (amounts.empty()) continue;
    int64_t sale = *std::min_element(amounts.begin(), amounts.end());
    if (e.price_inner_record_handling == PriceInnerRecordHandling::kSum) {
      sale = std::accumulate(amounts.begin(), amounts.end(), int64_t{0});
    }
    if (sale >= Scaled(from, places) && sale <= Scaled(to, places)) out.push_back(e.primary_key);
  }
  return out;
}

// Primary keys of `entities` ordered by their `code` attribute's bytes (codes are unique).
std::vector<int32_t> ByCode(const std::vector<Entity>& entities, OrderDirection direction) {
  std::vector<std::pair<std::string, int32_t>> keyed;
  for (const auto& e : entities) {
    keyed.emplace_back(std::get<std::string>(e.attributes.global.at("code").scalar()), e.primary_key);
  }
  std::sort(keyed.begin(), keyed.end());
  if (direction == OrderDirection::kDesc) std::reverse(keyed.begin(), keyed.end());
  std::vector<int32_t> out;
  for (const auto& [code, pk] : keyed) out.push_back(pk);
  return out;
}

TEST_CASE("index reads match a brute-force scan, globally and within reduced indexes") {
  for (uint64_t seed : {1u, 2u, 3u}) {
    CAPTURE(seed);
    testing::TempDir dir;
    auto engine = OpenEngine(dir.path());
    const auto all = LoadTiny(*engine, seed);
    Catalog* catalog = *engine->GetCatalog("tiny");
    const auto products = OfType(all, "Product");
    const EntitySchema& schema = catalog->schema().entities.at("Product");

    // Equality filters on every filterable scalar attribute of these types.
    const std::set<ValueType> exact = {ValueType::kString,  ValueType::kInteger, ValueType::kLong,
                                       ValueType::kBoolean, ValueType::kLocale,  ValueType::kCurrency,
                                       ValueType::kUuid};
    int checked = 0;
    for (const auto& [name, a] : schema.attributes) {
      if (a.localized || !exact.contains(a.type) ||
          std::find(a.filterable_in_scopes.begin(), a.filterable_in_scopes.end(), Scope::kLive) ==
              a.filterable_in_scopes.end()) {
        continue;
      }
      for (const auto& probe : products) {
        auto it = probe.attributes.global.find(name);
        if (it == probe.attributes.global.end()) continue;
        std::vector<int32_t> expected;
        for (const auto& e : products) {
          auto v = e.attributes.global.find(name);
          if (e.scope == Scope::kLive && v != e.attributes.global.end() && v->second == it->second) {
            expected.push_back(e.primary_key);
          }
        }
        auto got = catalog->FilterEquals("Product", name, "", it->second);
        REQUIRE_OK(got);
        CHECK_MESSAGE(*got == expected, name);
        ++checked;
        break;
      }
    }
    CHECK(checked >= 3);

    // Prices: the price for sale (min of indexed prices; sum for SUM handling) in a range.
    const BigDecimal from = *BigDecimal::Parse("0"), to = *BigDecimal::Parse("50000");
    for (const std::string currency : {"CZK", "EUR"}) {
      const auto expected =
          PricedBetween(products, schema, {"", 0, Scope::kLive}, "basic", currency, from, to);
      auto got = catalog->PriceBetween("Product", "basic", *Currency::Parse(currency), from, to);
      REQUIRE_OK(got);
      CHECK(*got == expected);
    }

    // Facets and the reduced index of every referenced category.
    for (int32_t target = 1; target <= 20; ++target) {
      std::vector<int32_t> expected;
      for (const auto& e : products) {
        if (e.scope == Scope::kLive && References(e, "parameterValues", target))
          expected.push_back(e.primary_key);
      }
      CHECK(*catalog->FacetMembers("Product", "parameterValues", target) == expected);

      std::vector<int32_t> in_category;
      std::vector<int32_t> code_in_category;
      for (const auto& e : products) {
        if (e.scope == Scope::kLive && References(e, "categories", target))
          in_category.push_back(e.primary_key);
      }
      const IndexScope reduced{"categories", target};
      auto sorted = catalog->SortBy("Product", "code", "", OrderDirection::kAsc, reduced);
      REQUIRE_OK(sorted);
      std::vector<Entity> members;
      for (const auto& e : products) {
        if (e.scope == Scope::kLive && References(e, "categories", target)) members.push_back(e);
      }
      // Every member of the partition, no other, in the order of their codes.
      CHECK(*sorted == ByCode(members, OrderDirection::kAsc));
      if (!in_category.empty()) {
        const auto& member = *std::find_if(products.begin(), products.end(),
                                           [&](const Entity& e) { return e.primary_key == in_category[0]; });
        auto filtered =
            catalog->FilterEquals("Product", "code", "", member.attributes.global.at("code"), reduced);
        CHECK(*filtered == std::vector<int32_t>{member.primary_key});
      }
    }

    // Sorting by code: the codes in byte order.
    std::vector<Entity> live;
    for (const auto& e : products) {
      if (e.scope == Scope::kLive) live.push_back(e);
    }
    auto by_code = catalog->SortBy("Product", "code", "", OrderDirection::kAsc);
    REQUIRE_OK(by_code);
    CHECK(*by_code == ByCode(live, OrderDirection::kAsc));

    // Hierarchy.
    const auto categories = OfType(all, "Category");
    for (int32_t parent = 1; parent <= 30; ++parent) {
      std::vector<int32_t> expected;
      for (const auto& e : categories) {
        if (e.parent == parent) expected.push_back(e.primary_key);
      }
      CHECK(*catalog->Children("Category", parent) == expected);
    }
  }
}

Entity Named(const std::string& type, int32_t pk, const std::string& name) {
  Entity e;
  e.type = type;
  e.primary_key = pk;
  e.attributes.global.emplace("code", Value::String(type + std::to_string(pk)));
  e.attributes.localized["cs"].emplace("name", Value::String(name));
  e.locales = DeriveLocales(e);
  return e;
}

CatalogSchema WordsSchema() {
  CatalogSchema schema;
  schema.name = "words";
  EntitySchema word;
  word.name = "Word";
  word.locales = {*Locale::Parse("cs")};
  AttributeSchema code;
  code.name = "code";
  code.unique_in_scopes = {{Scope::kLive, AttributeUniqueness::kUniqueWithinCollection}};
  AttributeSchema name;
  name.name = "name";
  name.localized = true;
  name.nullable = true;
  name.sortable_in_scopes = {Scope::kLive};
  word.attributes = {{"code", code}, {"name", name}};
  ReferenceSchema tag;
  tag.name = "tag";
  tag.referenced_entity_type = "Tag";
  word.references.emplace("tag", tag);
  schema.entities.emplace("Word", word);
  return schema;
}

TEST_CASE("localized sorting follows Czech collation: ch after h, č after c") {
  testing::TempDir dir;
  auto engine = OpenEngine(dir.path());
  Catalog* catalog = *engine->CreateCatalog(WordsSchema());
  const std::vector<std::string> words = {"hrad", "chata", "cibule", "čaj", "Cesta", "ivan"};
  for (size_t i = 0; i < words.size(); ++i)
    REQUIRE_OK(catalog->Upsert(Named("Word", int32_t(i + 1), words[i])));
  auto sorted = catalog->SortBy("Word", "name", "cs", OrderDirection::kAsc);
  REQUIRE_OK(sorted);
  std::vector<std::string> order;
  for (int32_t pk : *sorted) order.push_back(words[static_cast<size_t>(pk - 1)]);
  // Byte order would put "chata" before "hrad" and "čaj" last.
  CHECK(order == std::vector<std::string>{"Cesta", "cibule", "čaj", "hrad", "chata", "ivan"});
}

TEST_CASE("bad input gives clear errors and loses nothing") {
  testing::TempDir dir;
  auto engine = OpenEngine(dir / "data");
  Catalog* catalog = *engine->CreateCatalog(WordsSchema());
  REQUIRE_OK(catalog->Upsert(Named("Word", 1, "hrad")));
  auto expect = [&](Entity e, const std::string& message) {
    Status s = catalog->Upsert(e);
    CHECK(s.code() == StatusCode::kInvalidArgument);
    CHECK_MESSAGE(s.message().find(message) != std::string::npos, s.message());
  };
  Entity unknown = Named("Word", 2, "x");
  unknown.attributes.global.emplace("colour", Value::String("red"));
  expect(unknown, "entity Word/2: attribute 'colour' is not in the schema of Word");
  Entity wrong_type = Named("Word", 2, "x");
  wrong_type.attributes.global["code"] = Value::Integer(7);
  expect(wrong_type, "entity Word/2: attribute 'code' is STRING, got INTEGER 7");
  Entity missing = Named("Word", 2, "x");
  missing.attributes.global.erase("code");
  expect(missing, "entity Word/2: required attribute 'code' is missing");
  Entity duplicate = Named("Word", 2, "x");
  duplicate.attributes.global["code"] = Value::String("Word1");
  expect(duplicate,
         "entity Word/2: attribute 'code' must be unique, and entity Word/1 already has that value");
  Entity bad_reference = Named("Word", 2, "x");
  bad_reference.references.push_back({"tags", {"Tag", 3}, std::nullopt, {}});
  expect(bad_reference, "entity Word/2: reference 'tags' -> 3 is not in the schema of Word");
  Entity bad_locale = Named("Word", 2, "x");
  bad_locale.attributes.localized["de"].emplace("name", Value::String("Burg"));
  expect(bad_locale, "locale 'de' is not allowed");
  Entity unknown_data = Named("Word", 2, "x");
  unknown_data.associated_data.localized["cs"].emplace("notes", AssociatedDataValue{Value::String("n")});
  expect(unknown_data, "entity Word/2: associated data 'notes' is not in the schema");
  Entity unknown_type = Named("Noun", 2, "x");
  expect(unknown_type, "catalog words has no entity type Noun");
  // Nothing of the rejected upserts stuck, and the catalog still works.
  CHECK(*catalog->Count("Word") == 1);
  CHECK_OK(catalog->Upsert(Named("Word", 2, "chata")));
  CHECK(*catalog->Count("Word") == 2);
  CHECK(catalog->FilterEquals("Word", "code", "", Value::String("Word2"))->size() == 1);

  CHECK(engine->CreateCatalog(WordsSchema()).status().code() == StatusCode::kAlreadyExists);
  for (const std::string bad : {"a/b", "..", "../escape", "", "x y"}) {
    CatalogSchema schema = WordsSchema();
    schema.name = bad;
    auto created = engine->CreateCatalog(schema);
    CHECK(created.status().code() == StatusCode::kInvalidArgument);
  }
  CHECK_FALSE(fs::exists(dir / "escape"));
}

// Every kind of read call over a few probes, as one comparable value.
std::vector<std::vector<int32_t>> ReadResults(const Catalog& catalog) {
  std::vector<std::vector<int32_t>> out;
  const Currency czk = *Currency::Parse("CZK");
  for (int32_t probe = 1; probe <= 12; ++probe) {
    out.push_back(*catalog.FacetMembers("Product", "parameterValues", probe));
    out.push_back(*catalog.Children("Category", probe));
    out.push_back(*catalog.SortBy("Product", "code", "", OrderDirection::kDesc, {"categories", probe}));
    out.push_back(
        *catalog.FilterEquals("Product", "code", "", Value::String("Product/" + std::to_string(probe))));
  }
  out.push_back(
      *catalog.PriceBetween("Product", "basic", czk, *BigDecimal::Parse("0"), *BigDecimal::Parse("1e6")));
  out.push_back(*catalog.SortBy("Category", "name", "cs", OrderDirection::kAsc));
  out.push_back(*catalog.SortBy("Product", "code", "", OrderDirection::kAsc, {"", 0, Scope::kArchived}));
  return out;
}

TEST_CASE("load -> goLive -> reopen keeps counts, entities and read results, and ALIVE upserts are durable") {
  testing::TempDir dir;
  std::vector<Entity> all;
  std::vector<std::vector<int32_t>> reads_before;
  std::vector<int32_t> facet_before;
  {
    auto engine = OpenEngine(dir.path());
    all = LoadTiny(*engine, 7);
    Catalog* catalog = *engine->GetCatalog("tiny");
    CHECK(catalog->state() == CatalogState::kWarmingUp);
    REQUIRE_OK(catalog->GoLive());
    CHECK(catalog->state() == CatalogState::kAlive);
    CHECK(catalog->GoLive().code() == StatusCode::kFailedPrecondition);
    facet_before = *catalog->FacetMembers("Product", "parameterValues", 3);
    reads_before = ReadResults(*catalog);
  }
  {
    auto engine = OpenEngine(dir.path());
    CHECK(engine->CatalogNames() == std::vector<std::string>{"tiny"});
    Catalog* catalog = *engine->GetCatalog("tiny");
    CHECK(catalog->state() == CatalogState::kAlive);
    CHECK(*catalog->FacetMembers("Product", "parameterValues", 3) == facet_before);
    CHECK(ReadResults(*catalog) == reads_before);
    for (const auto& e : all) {
      auto stored = catalog->Get(e.type, e.primary_key);
      REQUIRE_OK(stored);
      REQUIRE(stored->has_value());
      const EntitySchema& es = catalog->schema().entities.at(e.type);
      CHECK(EntityDigest(generator::WithoutReflectedReferences(**stored, es)) ==
            EntityDigest(generator::WithoutReflectedReferences(e, es)));
    }
    Entity late = OfType(all, "Brand").front();
    late.primary_key = 999;
    late.attributes.global["code"] = Value::String("late");
    REQUIRE_OK(catalog->Upsert(late));
  }
  auto engine = OpenEngine(dir.path());
  Catalog* catalog = *engine->GetCatalog("tiny");
  CHECK(*catalog->Count("Brand") == 21);
  CHECK(catalog->Get("Brand", 999)->has_value());
}

TEST_CASE("the engine runs on the in-memory Env: load, goLive, reopen") {
  auto env = engine::NewMemEnv();
  std::vector<std::vector<int32_t>> before;
  {
    auto engine = engine::OpenEngineWithEnv(env.get(), "/mem/data", {});
    REQUIRE_OK(engine);
    LoadTiny(**engine, 6);
    Catalog* catalog = *(*engine)->GetCatalog("tiny");
    REQUIRE_OK(catalog->GoLive());
    before = ReadResults(*catalog);
  }
  auto engine = engine::OpenEngineWithEnv(env.get(), "/mem/data", {});
  REQUIRE_MESSAGE(engine.ok(), engine.status().ToString());
  Catalog* catalog = *(*engine)->GetCatalog("tiny");
  CHECK(catalog->state() == CatalogState::kAlive);
  CHECK(*catalog->Count("Product") == 200);
  CHECK(ReadResults(*catalog) == before);
  CHECK_FALSE(fs::exists("/mem"));  // nothing reached the disk
}

TEST_CASE("goLive writes index snapshots that a reopen reads, and a damaged one is reported") {
  testing::TempDir dir;
  {
    auto engine = OpenEngine(dir.path());
    LoadTiny(*engine, 9);
    REQUIRE_OK((*engine->GetCatalog("tiny"))->GoLive());
  }
  std::vector<std::string> snapshots;
  for (const auto& e : fs::directory_iterator(dir / "tiny/collections")) {
    if (e.path().extension() == ".index") snapshots.push_back(e.path().string());
  }
  CHECK(snapshots.size() == 5);
  CHECK(fs::exists(dir / "tiny/catalog.unique"));
  const std::string victim = snapshots.front();
  {
    std::fstream f(victim, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(3);
    f.put('\x7f');
  }
  auto reopened = Engine::Open(dir.path());
  REQUIRE_FALSE(reopened.ok());
  CHECK(reopened.status().code() == StatusCode::kDataLoss);
  CHECK(reopened.status().message().find(victim + ": checksum does not match") != std::string::npos);
}

TEST_CASE("reflected references are maintained by the engine") {
  testing::TempDir dir;
  auto engine = OpenEngine(dir.path());
  const auto all = LoadTiny(*engine, 4);
  Catalog* catalog = *engine->GetCatalog("tiny");
  int checked = 0;
  for (int32_t category = 1; category <= 20; ++category) {
    std::vector<int32_t> expected;
    for (const auto& e : OfType(all, "Product")) {
      if (References(e, "categories", category)) expected.push_back(e.primary_key);
    }
    auto stored = catalog->Get("Category", category);
    REQUIRE_OK(stored);
    if (!stored->has_value()) {
      CHECK_MESSAGE(expected.empty(), "products reference Category/", category, ", which does not exist");
      continue;
    }
    std::vector<int32_t> reflected;
    for (const auto& r : (*stored)->references) {
      if (r.name == "products") reflected.push_back(r.referenced.primary_key);
    }
    CHECK(reflected == expected);
    checked += !expected.empty();
  }
  CHECK(checked >= 5);
}

TEST_CASE("a write failing mid-goLive: goLive errs, the catalog stays WARM_UP, nothing outside is touched") {
  // The header is written once when the catalog is created; the second write is goLive's.
  for (const auto& [fail_on, fail_after] :
       std::vector<std::pair<std::string, int>>{{".offsets", 2}, {"catalog.header", 1}}) {
    CAPTURE(fail_on);
    testing::TempDir dir;
    const std::string data = dir / "data";
    std::ofstream(dir / "neighbour.txt") << "untouched";
    {
      engine::FaultInjectingEnv env(engine::DefaultEnv(), fail_on, fail_after);
      auto opened = engine::OpenEngineWithEnv(&env, data, {});
      REQUIRE_OK(opened);
      LoadTiny(**opened, 5);
      Catalog* catalog = *(*opened)->GetCatalog("tiny");
      Status live = catalog->GoLive();
      CHECK(live.code() == StatusCode::kUnavailable);
      CHECK(live.message().find("injected fault") != std::string::npos);
      CHECK(catalog->state() == CatalogState::kWarmingUp);
      CHECK(env.injected() >= 1);
    }
    auto engine = OpenEngine(data);
    CHECK((*engine->GetCatalog("tiny"))->state() == CatalogState::kWarmingUp);
    std::set<std::string> names;
    for (const auto& e : fs::directory_iterator(dir.path())) names.insert(e.path().filename().string());
    CHECK(names == std::set<std::string>{"data", "neighbour.txt"});
  }
}

// Forks a child that loads tiny and (optionally) goes live; kills it with
// SIGKILL after `delay_us` from the moment it reports being at `stage`.
void KillDuring(const std::string& data, const std::string& stage, int delay_us) {
  int fds[2];
  REQUIRE(::pipe(fds) == 0);
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    ::close(fds[0]);
    auto engine = Engine::Open(data);
    if (!engine.ok()) ::_exit(3);
    auto source = OpenGeneratorSource({"tiny", 4.0, 11, "tiny"});
    auto catalog = (*engine)->CreateCatalog((*source)->schema());
    if (!catalog.ok()) ::_exit(4);
    Entity e;
    int64_t n = 0;
    for (const auto& c : (*source)->collections()) {
      auto stream = (*source)->OpenCollection(c.entity_type);
      while (*(*stream)->Next(&e)) {
        (void)(*catalog)->Upsert(e);
        if (++n == 100 && stage == "load") (void)!::write(fds[1], "x", 1);
      }
    }
    if (stage == "golive") (void)!::write(fds[1], "x", 1);
    const bool live = (*catalog)->GoLive().ok();
    if (stage == "alive") (void)!::write(fds[1], live ? "x" : "!", 1);
    ::pause();  // wait to be killed
    ::_exit(0);
  }
  ::close(fds[1]);
  char c;
  REQUIRE(::read(fds[0], &c, 1) == 1);
  ::usleep(static_cast<useconds_t>(delay_us));
  ::kill(child, SIGKILL);
  int status = 0;
  ::waitpid(child, &status, 0);
  ::close(fds[0]);
}

TEST_CASE("SIGKILL during the load or during goLive never leaves an ALIVE catalog with missing entities") {
  auto expected = OpenGeneratorSource({"tiny", 4.0, 11, "tiny"});
  int64_t total = 0;
  for (const auto& c : (*expected)->collections()) total += c.expected_count;
  int alive_seen = 0;
  for (const auto& [stage, delay] : std::vector<std::pair<std::string, int>>{{"load", 0},
                                                                             {"load", 2000},
                                                                             {"golive", 0},
                                                                             {"golive", 500},
                                                                             {"golive", 3000},
                                                                             {"golive", 20000},
                                                                             {"golive", 200000},
                                                                             {"alive", 0}}) {
    CAPTURE(stage);
    CAPTURE(delay);
    testing::TempDir dir;
    KillDuring(dir.path(), stage, delay);
    auto engine = OpenEngine(dir.path());
    auto catalog = engine->GetCatalog("tiny");
    if (!catalog.ok()) continue;  // killed before the catalog existed
    if ((*catalog)->state() == CatalogState::kAlive) {
      ++alive_seen;
      int64_t count = 0;
      for (const auto& c : (*expected)->collections()) count += *(*catalog)->Count(c.entity_type);
      CHECK(count == total);
    } else {
      CHECK((*catalog)->state() == CatalogState::kWarmingUp);
    }
    if (stage == "load") CHECK((*catalog)->state() == CatalogState::kWarmingUp);
    if (stage == "alive") CHECK((*catalog)->state() == CatalogState::kAlive);
  }
  // The "alive" run is killed after goLive returned: with no ALIVE run the
  // ALIVE branch above, the point of this test, was never checked.
  CHECK(alive_seen >= 1);
}

TEST_CASE("data-directory entries without a valid header are reported, never loaded") {
  testing::TempDir dir;
  fs::create_directories(dir / "stray/collections");
  fs::create_directories(dir / "damaged");
  std::ofstream(dir / "damaged/catalog.header")
      << "warmup-catalog 1\nname damaged\nstate ALIVE\ncrc32c 00000000\n";
  std::ofstream(dir / "notes.txt") << "x";
  auto engine = OpenEngine(dir.path());
  CHECK(engine->CatalogNames().empty());
  REQUIRE(engine->leftovers().size() == 3);
  CHECK(engine->leftovers()[0].find("damaged: catalog header is not valid (checksum does not match)") !=
        std::string::npos);
  CHECK(engine->leftovers()[2].find("stray: no catalog header") != std::string::npos);
  CatalogSchema schema = WordsSchema();
  schema.name = "stray";
  CHECK(engine->CreateCatalog(schema).status().code() == StatusCode::kAlreadyExists);
}

TEST_CASE(
    "index reads match a brute-force scan: both scopes, localized values, both directions, reduced reads") {
  const std::set<ValueType> exact = {ValueType::kString,  ValueType::kInteger, ValueType::kLong,
                                     ValueType::kBoolean, ValueType::kLocale,  ValueType::kCurrency,
                                     ValueType::kUuid};
  for (uint64_t seed : {1u, 2u, 3u}) {
    CAPTURE(seed);
    testing::TempDir dir;
    auto engine = OpenEngine(dir.path());
    const auto all = LoadTiny(*engine, seed);
    Catalog* catalog = *engine->GetCatalog("tiny");
    const auto products = OfType(all, "Product");
    const EntitySchema& schema = catalog->schema().entities.at("Product");
    int global_checks = 0, localized_checks = 0, archived_checks = 0, sort_checks = 0;
    int facet_checks = 0, unfaceted_checks = 0;
    for (const Scope scope : {Scope::kLive, Scope::kArchived}) {
      CAPTURE(static_cast<int>(scope));
      std::vector<Entity> members;
      for (const auto& e : products) {
        if (e.scope == scope) members.push_back(e);
      }
      const IndexScope global{"", 0, scope};
      for (const auto& [name, a] : schema.attributes) {
        if (!exact.contains(a.type) || !In(a.filterable_in_scopes, scope)) continue;
        CAPTURE(name);
        for (const auto& probe : members) {
          // The probe's value (in its first locale for a localized attribute).
          std::string tag;
          const Value* value = nullptr;
          if (!a.localized) {
            auto it = probe.attributes.global.find(name);
            if (it != probe.attributes.global.end()) value = &it->second;
          } else {
            for (const auto& [locale, values] : probe.attributes.localized) {
              auto it = values.find(name);
              if (it != values.end()) {
                tag = locale;
                value = &it->second;
                break;
              }
            }
          }
          if (value == nullptr) continue;
          std::vector<int32_t> expected;
          for (const auto& e : members) {
            const auto& values = a.localized
                                     ? (e.attributes.localized.contains(tag) ? e.attributes.localized.at(tag)
                                                                             : std::map<std::string, Value>{})
                                     : e.attributes.global;
            auto v = values.find(name);
            if (v != values.end() && v->second == *value) expected.push_back(e.primary_key);
          }
          auto got = catalog->FilterEquals("Product", name, tag, *value, global);
          REQUIRE_MESSAGE(got.ok(), got.status().ToString());
          CHECK(*got == expected);
          (a.localized ? localized_checks : global_checks) += 1;
          archived_checks += scope == Scope::kArchived;
          break;
        }
      }
      // The index holds exactly the scope's entities; each reference is a
      // facet exactly where the schema makes it one.
      std::vector<int32_t> member_pks;
      for (const auto& e : members) member_pks.push_back(e.primary_key);
      CHECK(*catalog->Members("Product", global) == member_pks);
      for (const auto& [reference, rs] : schema.references) {
        for (int32_t target = 1; target <= 5; ++target) {
          std::vector<int32_t> expected;
          if (In(rs.faceted_in_scopes, scope)) {
            for (const auto& e : members) {
              if (References(e, reference, target)) expected.push_back(e.primary_key);
            }
          }
          auto facet = catalog->FacetMembers("Product", reference, target, global);
          REQUIRE_OK(facet);
          CHECK_MESSAGE(*facet == expected, reference, " -> ", target);
          facet_checks += !expected.empty();
          unfaceted_checks += !In(rs.faceted_in_scopes, scope);
        }
      }
      if (In(schema.attributes.at("code").sortable_in_scopes, scope)) {
        for (const auto direction : {OrderDirection::kAsc, OrderDirection::kDesc}) {
          auto sorted = catalog->SortBy("Product", "code", "", direction, global);
          REQUIRE_OK(sorted);
          CHECK(*sorted == ByCode(members, direction));
          ++sort_checks;
        }
      }
      for (const char* range : {"-1000000:1000000", "0:100", "-50.5:99999.99"}) {
        const std::string text = range;
        const BigDecimal from = *BigDecimal::Parse(text.substr(0, text.find(':')));
        const BigDecimal to = *BigDecimal::Parse(text.substr(text.find(':') + 1));
        for (const std::string currency : {"CZK", "EUR"}) {
          auto got = catalog->PriceBetween("Product", "basic", *Currency::Parse(currency), from, to, global);
          if (!In(schema.price_indexed_in_scopes, scope)) continue;
          REQUIRE_OK(got);
          CHECK(*got == PricedBetween(products, schema, global, "basic", currency, from, to));
        }
      }
    }
    CHECK(global_checks >= 4);
    CHECK(localized_checks >= 1);
    CHECK(archived_checks >= 1);
    CHECK(sort_checks >= 2);
    CHECK(facet_checks >= 3);
    CHECK(unfaceted_checks >= 3);

    // Reduced indexes: order, prices and facets within one category's partition.
    int reduced_checks = 0;
    for (int32_t category = 1; category <= 20; ++category) {
      const IndexScope reduced{"categories", category};
      std::vector<Entity> members;
      for (const auto& e : products) {
        if (e.scope == Scope::kLive && References(e, "categories", category)) members.push_back(e);
      }
      if (members.empty()) continue;
      ++reduced_checks;
      std::vector<int32_t> member_pks;
      for (const auto& e : members) member_pks.push_back(e.primary_key);
      CHECK(*catalog->Members("Product", reduced) == member_pks);
      CHECK(*catalog->SortBy("Product", "code", "", OrderDirection::kDesc, reduced) ==
            ByCode(members, OrderDirection::kDesc));
      const BigDecimal from = *BigDecimal::Parse("-99999"), to = *BigDecimal::Parse("99999");
      auto priced = catalog->PriceBetween("Product", "basic", *Currency::Parse("CZK"), from, to, reduced);
      REQUIRE_OK(priced);
      CHECK(*priced == PricedBetween(products, schema, reduced, "basic", "CZK", from, to));
      for (int32_t value = 1; value <= 20; ++value) {
        std::vector<int32_t> expected;
        for (const auto& e : members) {
          if (References(e, "parameterValues", value)) expected.push_back(e.primary_key);
        }
        auto facet = catalog->FacetMembers("Product", "parameterValues", value, reduced);
        REQUIRE_OK(facet);
        CHECK(*facet == expected);
      }
    }
    CHECK(reduced_checks >= 5);
  }
}

TEST_CASE(
    "an upsert of an existing primary key replaces the entity, its index entries and its unique values") {
  testing::TempDir dir;
  auto engine = OpenEngine(dir.path());
  Catalog* catalog = *engine->CreateCatalog(WordsSchema());
  REQUIRE_OK(catalog->Upsert(Named("Word", 1, "hrad")));
  REQUIRE_OK(catalog->Upsert(Named("Word", 2, "chata")));
  Entity replaced = Named("Word", 1, "ivan");
  replaced.attributes.global["code"] = Value::String("renamed");
  REQUIRE_OK(catalog->Upsert(replaced));
  CHECK(*catalog->Count("Word") == 2);
  CHECK(*catalog->PrimaryKeys("Word") == std::vector<int32_t>{1, 2});
  CHECK(EntityDigest(**catalog->Get("Word", 1)) == EntityDigest(replaced));
  CHECK(catalog->FilterEquals("Word", "code", "", Value::String("Word1"))->empty());
  CHECK(*catalog->FilterEquals("Word", "code", "", Value::String("renamed")) == std::vector<int32_t>{1});
  CHECK(*catalog->SortBy("Word", "name", "cs", OrderDirection::kAsc) == std::vector<int32_t>{2, 1});
  // The old unique value is free again; the new one is taken.
  CHECK(catalog->Upsert(Named("Word", 3, "x")).ok());  // code "Word3"
  Entity takes_old = Named("Word", 4, "y");
  takes_old.attributes.global["code"] = Value::String("Word1");
  CHECK_OK(catalog->Upsert(takes_old));
  Entity takes_new = Named("Word", 5, "z");
  takes_new.attributes.global["code"] = Value::String("renamed");
  CHECK(catalog->Upsert(takes_new).code() == StatusCode::kInvalidArgument);
  CHECK(catalog->PrimaryKeys("Noun").status().code() == StatusCode::kNotFound);
}

TEST_CASE("an entity replaced with other references leaves the reduced indexes it no longer belongs to") {
  testing::TempDir dir;
  auto engine = OpenEngine(dir.path());
  const auto all = LoadTiny(*engine, 5);
  Catalog* catalog = *engine->GetCatalog("tiny");
  const auto products = OfType(all, "Product");
  auto moved = std::find_if(products.begin(), products.end(), [](const Entity& e) {
    return e.scope == Scope::kLive && std::any_of(e.references.begin(), e.references.end(),
                                                  [](const Reference& r) { return r.name == "categories"; });
  });
  REQUIRE(moved != products.end());
  Entity replaced = *moved;
  std::set<int32_t> left;
  for (const auto& r : replaced.references) {
    if (r.name == "categories") left.insert(r.referenced.primary_key);
  }
  std::erase_if(replaced.references, [](const Reference& r) { return r.name == "categories"; });
  REQUIRE_OK(catalog->Upsert(replaced));
  for (const int32_t category : left) {
    CAPTURE(category);
    const IndexScope reduced{"categories", category};
    auto members = catalog->Members("Product", reduced);
    REQUIRE_OK(members);
    CHECK(std::find(members->begin(), members->end(), replaced.primary_key) == members->end());
    auto sorted = catalog->SortBy("Product", "code", "", OrderDirection::kAsc, reduced);
    CHECK(std::find(sorted->begin(), sorted->end(), replaced.primary_key) == sorted->end());
  }
  auto everyone = catalog->Members("Product");
  CHECK(std::find(everyone->begin(), everyone->end(), replaced.primary_key) != everyone->end());
}

TEST_CASE("decimals are compared at their indexed places, rounded half away from zero") {
  CatalogSchema schema = WordsSchema();
  AttributeSchema weight;
  weight.name = "weight";
  weight.type = ValueType::kBigDecimal;
  weight.nullable = true;
  weight.indexed_decimal_places = 1;
  weight.filterable_in_scopes = {Scope::kLive};
  schema.entities.at("Word").attributes.emplace("weight", weight);
  testing::TempDir dir;
  auto engine = OpenEngine(dir.path());
  Catalog* catalog = *engine->CreateCatalog(schema);
  auto decimal = [](const std::string& text) {
    return *Value::Make(ValueType::kBigDecimal, {*BigDecimal::Parse(text)});
  };
  const std::vector<std::string> weights = {"2.25", "2.3", "2.24", "-2.25", "-2.3", "2.35e0", "0.05"};
  for (size_t i = 0; i < weights.size(); ++i) {
    Entity e = Named("Word", static_cast<int32_t>(i + 1), "w");
    e.attributes.global.emplace("weight", decimal(weights[i]));
    REQUIRE_OK(catalog->Upsert(e));
  }
  auto equal = [&](const std::string& v) { return *catalog->FilterEquals("Word", "weight", "", decimal(v)); };
  CHECK(equal("2.3") == std::vector<int32_t>{1, 2});   // 2.25 -> 2.3
  CHECK(equal("2.2") == std::vector<int32_t>{3});      // 2.24 -> 2.2
  CHECK(equal("-2.3") == std::vector<int32_t>{4, 5});  // -2.25 -> -2.3
  CHECK(equal("2.4") == std::vector<int32_t>{6});      // 2.35 -> 2.4
  CHECK(equal("0.1") == std::vector<int32_t>{7});      // 0.05 -> 0.1
  CHECK(equal("0.0").empty());
  CHECK(engine::ScaleDecimal(*BigDecimal::Parse("7.125"), 2) == 713);
  CHECK(engine::ScaleDecimal(*BigDecimal::Parse("-0.5"), 0) == -1);
  CHECK(engine::ScaleDecimal(*BigDecimal::Parse("0.49"), 0) == 0);
  CHECK(engine::ScaleDecimal(*BigDecimal::Parse("2.5e8"), 2) == 25'000'000'000);
  CHECK(engine::ScaleDecimal(*BigDecimal::Parse("1e-7"), 4) == 0);
}

TEST_CASE("replay after reopen: the newest record of a primary key wins, in WARM_UP and after goLive") {
  testing::TempDir dir;
  Entity first = Named("Word", 1, "hrad");
  Entity second = Named("Word", 1, "chata");
  second.attributes.global["code"] = Value::String("second");
  Entity third = Named("Word", 1, "cibule");
  third.attributes.global["code"] = Value::String("third");
  {
    auto engine = OpenEngine(dir.path());
    Catalog* catalog = *engine->CreateCatalog(WordsSchema());
    REQUIRE_OK(catalog->Upsert(first));
    REQUIRE_OK(catalog->Upsert(second));
  }
  {  // WARM_UP replays its record file from the start.
    auto engine = OpenEngine(dir.path());
    Catalog* catalog = *engine->GetCatalog("words");
    CHECK(catalog->state() == CatalogState::kWarmingUp);
    CHECK(*catalog->Count("Word") == 1);
    CHECK(EntityDigest(**catalog->Get("Word", 1)) == EntityDigest(second));
    CHECK(catalog->FilterEquals("Word", "code", "", Value::String("Word1"))->empty());
    REQUIRE_OK(catalog->GoLive());
    REQUIRE(catalog->Upsert(third).ok());  // ALIVE: appended after the index snapshot
  }
  auto engine = OpenEngine(dir.path());
  Catalog* catalog = *engine->GetCatalog("words");
  CHECK(catalog->state() == CatalogState::kAlive);
  CHECK(*catalog->Count("Word") == 1);
  CHECK(EntityDigest(**catalog->Get("Word", 1)) == EntityDigest(third));
  CHECK(catalog->FilterEquals("Word", "code", "", Value::String("second"))->empty());
  CHECK(*catalog->FilterEquals("Word", "code", "", Value::String("third")) == std::vector<int32_t>{1});
}

TEST_CASE("validation: primary key, currency, prices, hierarchy and catalog-wide uniqueness") {
  testing::TempDir dir;
  auto engine = OpenEngine(dir.path());
  auto source = OpenGeneratorSource({"tiny", 1.0, 1, "tiny"});
  REQUIRE_OK(source);
  Catalog* catalog = *engine->CreateCatalog((*source)->schema());
  // The first entity of each collection is stored; the second is the
  // candidate each case spoils in one way (valid as it comes).
  std::map<std::string, Entity> first, next;
  for (const auto& c : (*source)->collections()) {
    auto stream = (*source)->OpenCollection(c.entity_type);
    REQUIRE(*(*stream)->Next(&first[c.entity_type]));
    REQUIRE_OK(catalog->Upsert(first[c.entity_type]));
    REQUIRE(*(*stream)->Next(&next[c.entity_type]));
  }
  auto rejected = [&](Entity entity, const std::string& message) {
    CAPTURE(message);
    const Status s = catalog->Upsert(entity);
    CHECK(s.code() == StatusCode::kInvalidArgument);
    CHECK_MESSAGE(s.message().find(message) != std::string::npos, s.message());
  };
  for (const int32_t pk : {0, -5}) {
    Entity bad = next["Brand"];
    bad.primary_key = pk;
    rejected(bad, "primary key must be positive");
  }
  Entity product = next["Product"];
  Price foreign;
  foreign.price_id = 9999;
  foreign.price_list = "basic";
  foreign.currency = *Currency::Parse("USD");
  product.prices.push_back(foreign);
  rejected(product, "price 9999: currency USD");
  Entity brand_with_price = next["Brand"];
  brand_with_price.prices.push_back(foreign);
  rejected(brand_with_price, "Brand has no prices");
  Entity brand_with_parent = next["Brand"];
  brand_with_parent.parent = 1;
  rejected(brand_with_parent, "Brand has no hierarchy");
  // `code` is unique within the whole catalog: a Brand may not take a Category's code.
  Entity clash = next["Brand"];
  clash.attributes.global["code"] = first["Category"].attributes.global.at("code");
  rejected(clash, "must be unique in the catalog, and entity Category/" +
                      std::to_string(first["Category"].primary_key) + " already has that value");
  // Each candidate unspoilt is accepted: the rejections were for what each case changed.
  CHECK_OK(catalog->Upsert(next["Product"]));
  CHECK_OK(catalog->Upsert(next["Brand"]));
  CHECK(*catalog->Count("Product") == 2);
  CHECK(*catalog->Count("Brand") == 2);
  CHECK(*catalog->Count("Category") == 1);
}

TEST_CASE("a compressed engine reopens with the same entities and reads") {
  testing::TempDir dir;
  EngineOptions compressed;
  compressed.compress = true;
  std::vector<Entity> all;
  std::vector<std::vector<int32_t>> before;
  {
    auto engine = Engine::Open(dir.path(), compressed);
    REQUIRE_OK(engine);
    all = LoadTiny(**engine, 8);
    Catalog* catalog = *(*engine)->GetCatalog("tiny");
    REQUIRE_OK(catalog->GoLive());
    before = ReadResults(*catalog);
  }
  uintmax_t stored = 0;
  for (const auto& f : fs::recursive_directory_iterator(dir.path())) {
    if (f.is_regular_file()) stored += f.file_size();
  }
  auto engine = Engine::Open(dir.path(), compressed);
  REQUIRE_MESSAGE(engine.ok(), engine.status().ToString());
  Catalog* catalog = *(*engine)->GetCatalog("tiny");
  CHECK(ReadResults(*catalog) == before);
  for (const auto& e : all) {
    const EntitySchema& es = catalog->schema().entities.at(e.type);
    CHECK(EntityDigest(generator::WithoutReflectedReferences(**catalog->Get(e.type, e.primary_key), es)) ==
          EntityDigest(generator::WithoutReflectedReferences(e, es)));
  }
  // The same catalog uncompressed takes more room: compression was applied.
  testing::TempDir plain;
  {
    auto uncompressed = OpenEngine(plain.path());
    LoadTiny(*uncompressed, 8);
    REQUIRE_OK((*uncompressed->GetCatalog("tiny"))->GoLive());
  }
  uintmax_t plain_size = 0;
  for (const auto& f : fs::recursive_directory_iterator(plain.path())) {
    if (f.is_regular_file()) plain_size += f.file_size();
  }
  CHECK(stored < plain_size);
}

TEST_CASE("DeleteCatalog removes the catalog and its directory, and an unknown one is kNotFound") {
  testing::TempDir dir;
  auto engine = OpenEngine(dir.path());
  LoadTiny(*engine, 2);
  REQUIRE(fs::exists(dir / "tiny"));
  REQUIRE_OK(engine->DeleteCatalog("tiny"));
  CHECK_FALSE(fs::exists(dir / "tiny"));
  CHECK(engine->CatalogNames().empty());
  CHECK(engine->GetCatalog("tiny").status().code() == StatusCode::kNotFound);
  CHECK(engine->DeleteCatalog("tiny").code() == StatusCode::kNotFound);
  CHECK(OpenEngine(dir.path())->CatalogNames().empty());
}

}  // namespace
}  // namespace warmup
