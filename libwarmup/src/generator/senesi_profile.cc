// The "senesi" profile: the shape of the production e-commerce catalog behind
// the reference figures (386,369 entities in 18 collections, 118,772 products
// with ~35 attributes, ~58 prices, ~22 references and ~6 associated data
// entries each). Counts and shapes are documented in docs/datasets.md.
#include <algorithm>
#include <array>
#include <cmath>
#include <string>

#include "generator/profile.h"
#include "generator/rng.h"

namespace warmup::generator {
namespace {

// Collection sizes at scale 1.0; they sum to 386,369.
constexpr std::array<std::pair<const char*, int64_t>, 18> kCounts = {{
    {"AdjustedPricePolicy", 2},
    {"Brand", 1'850},
    {"Category", 4'120},
    {"Group", 6'310},
    {"Media", 189'630},
    {"ObsoleteProduct", 3'400},
    {"Parameter", 1'260},
    {"ParameterGroup", 96},
    {"ParameterValue", 31'970},
    {"PaymentMethod", 15},
    {"PickupPoint", 2'930},
    {"PriceList", 58},
    {"Product", 118'772},
    {"ProductBundle", 1'480},
    {"ShippingMethod", 9},
    {"Stock", 12},
    {"Tag", 8'460},
    {"Voucher", 15'995},
}};

// Products carry one price per price list and currency: 29 lists x CZK/EUR = 58.
constexpr int kPriceListsPerCurrency = 29;

const std::vector<std::string>& Words() {
  static const std::vector<std::string> kWords = {
      "čaj",      "chata",   "hrad",   "kůň",     "žluť",     "ďábel",   "šálek", "řeka",    "lednice",
      "pračka",   "myčka",   "trouba", "varná",   "konvice",  "hrnec",   "pánev", "nerez",   "sklo",
      "keramika", "dřevo",   "bílá",   "černá",   "modrá",    "zelená",  "velký", "malý",    "nový",
      "úsporný",  "tichý",   "rychlý", "kuchyně", "koupelna", "zahrada", "dílna", "chodba",  "obývák",
      "ložnice",  "pokoj",   "set",    "sada",    "Bosch",    "Philips", "Tefal", "Gorenje", "Electrolux",
      "Zwilling", "Fiskars", "Hama",   "Sencor",  "ETA"};
  return kWords;
}

std::string Text(Rng& rng, int min_words, int max_words) {
  std::string out;
  const int64_t n = rng.Between(min_words, max_words);
  for (int64_t i = 0; i < n; ++i) {
    if (i > 0) out += ' ';
    out += rng.Pick(Words());
  }
  return out;
}

std::string Code(std::string_view prefix, int64_t n) { return std::string(prefix) + "-" + std::to_string(n); }

Locale MakeLocale(const char* tag) { return *Locale::Parse(tag); }
Currency MakeCurrency(const char* code) { return *Currency::Parse(code); }

// Formats a fixed-point number with `places` decimals, as Java prints a BigDecimal of that scale.
BigDecimal Decimal(int64_t unscaled, int places) {
  std::string digits = std::to_string(unscaled < 0 ? -unscaled : unscaled);
  if (places > 0) {
    if (static_cast<int>(digits.size()) <= places) digits.insert(0, places + 1 - digits.size(), '0');
    digits.insert(digits.size() - places, ".");
  }
  return *BigDecimal::Parse((unscaled < 0 ? "-" : "") + digits);
}

Value DecimalValue(int64_t unscaled, int places) {
  return *Value::Make(ValueType::kBigDecimal, {Decimal(unscaled, places)});
}
Value DateTimeValue(ValueType type, DateTime dt) { return *Value::Make(type, {dt}); }
Value StringArray(std::vector<Scalar> items) {
  return *Value::Make(ValueType::kStringArray, std::move(items));
}

// Schema helpers -------------------------------------------------------------

AttributeSchema Attr(const std::string& name, ValueType type) {
  AttributeSchema a;
  a.name = name;
  a.type = type;
  a.nullable = true;
  return a;
}
AttributeSchema Filterable(AttributeSchema a) {
  a.filterable_in_scopes = {Scope::kLive};
  return a;
}
AttributeSchema Sortable(AttributeSchema a) {
  a.sortable_in_scopes = {Scope::kLive};
  return a;
}
AttributeSchema Localized(AttributeSchema a) {
  a.localized = true;
  return a;
}
AttributeSchema Unique(AttributeSchema a) {
  a.unique_in_scopes = {{Scope::kLive, a.localized ? AttributeUniqueness::kUniqueWithinCollectionLocale
                                                   : AttributeUniqueness::kUniqueWithinCollection}};
  a.filterable_in_scopes = {Scope::kLive};
  a.nullable = false;
  return a;
}

ReferenceSchema Ref(const std::string& name, const std::string& target, Cardinality cardinality,
                    ReferenceIndexType index) {
  ReferenceSchema r;
  r.name = name;
  r.referenced_entity_type = target;
  r.referenced_entity_type_managed = true;
  r.cardinality = cardinality;
  if (index != ReferenceIndexType::kNone) r.index_types = {{Scope::kLive, index}};
  return r;
}

// What the "senesi-production" profile changes, from the production
// catalog's recorded index counts (docs/datasets.md): evitaDB's footprint
// measurement of an ALIVE catalog, whose reference distributions are not
// recorded, so these are the smallest changes that give its two figures.
// The largest Product REFERENCED_ENTITY index: 57,423 of 118,772 products.
constexpr double kLargestCategoryShare = 57'423.0 / 118'772.0;
// Of the senesi draw of 0..4 related products (at least one in 4 of 5
// products), the first is kept in this many products: 0.5 per product, so
// that with media indexed too Product has ≈ 2.1 REFERENCED_ENTITY indexes
// per product (250,804 of 118,772 in production).
constexpr double kRelatedKept = 0.5 / 0.8;

class SenesiProfile : public Profile {
 public:
  SenesiProfile(const GeneratorOptions& options, SenesiShape shape) : seed_(options.seed), shape_(shape) {
    for (const auto& [type, count] : kCounts) {
      plans_.push_back({type, ScaleCount(count, options.scale)});
    }
    schema_.name = options.catalog_name.empty() ? options.profile : options.catalog_name;
    BuildSchema();
  }

  const CatalogSchema& schema() const override { return schema_; }
  const std::vector<CollectionPlan>& collections() const override { return plans_; }

  void MakeEntity(const std::string& type, int32_t pk, Entity* e) const override {
    *e = Entity();
    e->type = type;
    e->primary_key = pk;
    Rng rng(Rng::Derive(seed_, type, pk));
    const EntitySchema& es = schema_.entities.at(type);
    e->attributes.global.emplace("code", Value::String(Code(type, pk)));
    if (es.attributes.contains("name")) {
      for (const char* tag : {"cs", "sk"}) {
        e->attributes.localized[tag].emplace("name", Value::String(Text(rng, 1, 4)));
      }
    }
    if (type == "Product") {
      MakeProduct(rng, e);
    } else if (type == "Category") {
      if (pk > 12) e->parent = static_cast<int32_t>(rng.Between(1, pk - 1));
      Localize(e, "url",
               [&](const char* tag) { return "/" + std::string(tag) + "/c/" + std::to_string(pk); });
      e->attributes.global.emplace("order", Value::Integer(static_cast<int32_t>(rng.Between(0, 1000))));
      e->attributes.global.emplace("visible", Value::Boolean(rng.Chance(0.9)));
    } else if (type == "Media") {
      e->attributes.global.emplace("path", Value::String("/media/" + std::to_string(pk) + ".jpg"));
      e->attributes.global.emplace("width", Value::Integer(static_cast<int32_t>(rng.Between(200, 4000))));
      e->attributes.global.emplace("height", Value::Integer(static_cast<int32_t>(rng.Between(200, 4000))));
      e->attributes.global.emplace("mimeType", Value::String(rng.Coin() ? "image/jpeg" : "image/webp"));
      e->attributes.global.emplace("bytes", Value::Long(rng.Between(10'000, 5'000'000)));
      for (const char* tag : {"cs", "sk"}) {
        e->attributes.localized[tag].emplace("alt", Value::String(Text(rng, 2, 6)));
      }
    } else if (type == "ParameterValue") {
      e->attributes.global.emplace("order", Value::Integer(static_cast<int32_t>(rng.Between(0, 100))));
      e->references.push_back({"parameter",
                               {"Parameter", static_cast<int32_t>(rng.Between(1, Count("Parameter")))},
                               std::nullopt,
                               {}});
    } else if (type == "Parameter") {
      e->attributes.global.emplace("filterable", Value::Boolean(rng.Chance(0.7)));
      e->references.push_back(
          {"parameterGroup",
           {"ParameterGroup", static_cast<int32_t>(rng.Between(1, Count("ParameterGroup")))},
           std::nullopt,
           {}});
    } else if (type == "Voucher") {
      e->attributes.global.emplace("discount", DecimalValue(rng.Between(100, 50'000), 2));
      e->attributes.global.emplace("used", Value::Boolean(rng.Chance(0.3)));
      e->attributes.global.emplace("validity", ValidityValue(rng));
    } else if (type == "PriceList") {
      e->attributes.global.emplace("priority", Value::Long(rng.Between(0, 100)));
      e->attributes.global.emplace(
          "currency", *Value::Make(ValueType::kCurrency, {MakeCurrency(pk % 2 ? "CZK" : "EUR")}));
    } else if (type == "PickupPoint") {
      e->attributes.global.emplace("address", Value::String(Text(rng, 3, 6)));
      e->attributes.global.emplace("latitude", DecimalValue(rng.Between(48'500'000, 51'000'000), 6));
      e->attributes.global.emplace("longitude", DecimalValue(rng.Between(12'000'000, 22'500'000), 6));
    } else if (type == "ProductBundle") {
      for (int64_t i = rng.Between(2, 5); i > 0; --i) {
        e->references.push_back({"products", {"Product", RandomPk(rng, "Product")}, std::nullopt, {}});
      }
      Dedupe(&e->references);
    } else if (type == "Tag" || type == "Group" || type == "Brand") {
      Localize(e, "url", [&](const char* tag) {
        return "/" + std::string(tag) + "/" + type + "/" + std::to_string(pk);
      });
    }
    e->locales = DeriveLocales(*e);
    ApplyDefaultValues(es, *e);
  }

 private:
  int64_t Count(const std::string& type) const {
    for (const auto& plan : plans_) {
      if (plan.entity_type == type) return plan.count;
    }
    return 1;
  }
  int32_t RandomPk(Rng& rng, const std::string& type) const {
    return static_cast<int32_t>(rng.Between(1, Count(type)));
  }

  template <typename MakeText>
  static void Localize(Entity* e, const char* name, MakeText make) {
    for (const char* tag : {"cs", "sk"}) e->attributes.localized[tag].emplace(name, Value::String(make(tag)));
  }

  static Value ValidityValue(Rng& rng) {
    const int64_t from = 1'735'689'600 + rng.Between(0, 365) * 86'400;  // during 2025
    DateTimeRange range{DateTime{from, 0, 3600}, DateTime{from + rng.Between(7, 90) * 86'400, 0, 3600}};
    return *Value::Make(ValueType::kDateTimeRange, {range});
  }

  // Removes repeated (name, target) pairs: only *_WITH_DUPLICATES references may repeat.
  static void Dedupe(std::vector<Reference>* references) {
    std::vector<Reference> unique;
    for (auto& r : *references) {
      bool seen = false;
      for (const auto& u : unique) seen = seen || (u.name == r.name && u.referenced == r.referenced);
      if (!seen) unique.push_back(std::move(r));
    }
    *references = std::move(unique);
  }

  void MakeProduct(Rng& rng, Entity* e) const {
    const int32_t pk = e->primary_key;
    auto& g = e->attributes.global;
    g.emplace("ean", Value::String(std::to_string(8'590'000'000'000 + pk)));
    g.emplace("catalogNumber", Value::String(Code("CN", rng.Between(100'000, 999'999))));
    g.emplace("visible", Value::Boolean(rng.Chance(0.95)));
    g.emplace("saleable", Value::Boolean(rng.Chance(0.9)));
    g.emplace("new", Value::Boolean(rng.Chance(0.1)));
    g.emplace("recommended", Value::Boolean(rng.Chance(0.05)));
    g.emplace("priority", Value::Long(rng.Between(0, 10'000)));
    g.emplace("weight", DecimalValue(rng.Between(10, 50'000), 3));
    g.emplace("width", Value::Integer(static_cast<int32_t>(rng.Between(1, 200))));
    g.emplace("height", Value::Integer(static_cast<int32_t>(rng.Between(1, 200))));
    g.emplace("depth", Value::Integer(static_cast<int32_t>(rng.Between(1, 200))));
    g.emplace("stockQuantity", Value::Integer(static_cast<int32_t>(rng.Between(0, 500))));
    g.emplace("availability",
              Value::String(rng.Pick(std::vector<std::string>{"IN_STOCK", "ON_ORDER", "SOLD_OUT"})));
    g.emplace("deliveryDays", Value::Integer(static_cast<int32_t>(rng.Between(0, 30))));
    g.emplace("warrantyMonths", Value::Integer(rng.Coin() ? 24 : 36));
    g.emplace("vatRate", DecimalValue(rng.Coin() ? 2100 : 1200, 2));
    const int64_t created = 1'500'000'000 + rng.Between(0, 250'000'000);
    g.emplace("createdAt", DateTimeValue(ValueType::kOffsetDateTime, {created, 0, 3600}));
    g.emplace("updatedAt",
              DateTimeValue(ValueType::kOffsetDateTime, {created + rng.Between(0, 30'000'000), 0, 3600}));
    g.emplace("releaseDate", DateTimeValue(ValueType::kLocalDate, {(created / 86'400) * 86'400, 0, 0}));
    g.emplace("manufacturerCode", Value::String(Code("M", rng.Between(1, 99'999))));
    g.emplace("variantCode", Value::String(Code("V", pk / 4)));
    g.emplace("colorHex",
              Value::String(rng.Pick(std::vector<std::string>{"#000000", "#FFFFFF", "#C0C0C0", "#B22222"})));
    g.emplace("sizeLabel", Value::String(rng.Pick(std::vector<std::string>{"S", "M", "L", "XL", "uni"})));
    g.emplace("rating", DecimalValue(rng.Between(100, 500), 2));
    g.emplace("ratingCount", Value::Integer(static_cast<int32_t>(rng.Between(0, 2'000))));
    g.emplace("soldCount", Value::Long(rng.Between(0, 100'000)));
    if (rng.Chance(0.1)) g.emplace("validity", ValidityValue(rng));
    for (const char* tag : {"cs", "sk"}) {
      auto& l = e->attributes.localized[tag];
      l.emplace("url", Value::String("/" + std::string(tag) + "/p/" + std::to_string(pk)));
      l.emplace("shortDescription", Value::String(Text(rng, 8, 20)));
      l.emplace("metaTitle", Value::String(Text(rng, 3, 8)));
      l.emplace("metaDescription", Value::String(Text(rng, 10, 25)));
      l.emplace("keywords", StringArray({Text(rng, 1, 1), Text(rng, 1, 1), Text(rng, 1, 2)}));
    }

    // Associated data: HTML descriptions per locale, a parameter table, a gallery and SEO data.
    for (const char* tag : {"cs", "sk"}) {
      e->associated_data.localized[tag].emplace(
          "descriptionHtml", AssociatedDataValue{Value::String("<p>" + Text(rng, 60, 160) + "</p>")});
    }
    DataItem::Map specs;
    for (int64_t i = rng.Between(4, 12); i > 0; --i) {
      specs[Text(rng, 1, 1) + std::to_string(i)] = DataItem{Value::String(Text(rng, 1, 3))};
    }
    e->associated_data.global.emplace("specs", AssociatedDataValue{DataItem{std::move(specs)}});
    DataItem::Array gallery;
    for (int64_t i = rng.Between(1, 6); i > 0; --i) {
      DataItem::Map image;
      image["mediaId"] = DataItem{Value::Integer(RandomPk(rng, "Media"))};
      image["caption"] = DataItem{Value::String(Text(rng, 2, 5))};
      gallery.push_back(DataItem{std::move(image)});
    }
    e->associated_data.global.emplace("gallery", AssociatedDataValue{DataItem{std::move(gallery)}});
    DataItem::Map seo;
    seo["canonical"] = DataItem{Value::String("/p/" + std::to_string(pk))};
    seo["noindex"] = DataItem{Value::Boolean(rng.Chance(0.02))};
    e->associated_data.global.emplace("seo", AssociatedDataValue{DataItem{std::move(seo)}});
    std::vector<Scalar> videos;
    for (int64_t i = rng.Between(0, 2); i > 0; --i) {
      videos.push_back("https://video.example/" + std::to_string(pk * 10 + i));
    }
    e->associated_data.global.emplace("videoUrls", AssociatedDataValue{StringArray(std::move(videos))});

    // Prices: every price list in CZK and EUR; "action" lists have validity.
    const bool variants = rng.Chance(0.05);
    e->price_inner_record_handling =
        variants ? PriceInnerRecordHandling::kLowestPrice : PriceInnerRecordHandling::kNone;
    const int64_t base = rng.Between(5'000, 5'000'000);  // in hundredths
    int32_t price_id = 1;
    for (const char* currency : {"CZK", "EUR"}) {
      const int64_t in_currency = currency[0] == 'E' ? base / 25 : base;
      for (int list = 1; list <= kPriceListsPerCurrency; ++list) {
        Price p;
        p.price_id = price_id++;
        p.price_list = list == 1
                           ? "basic"
                           : (list <= 4 ? "action" + std::to_string(list) : "b2b" + std::to_string(list));
        p.currency = MakeCurrency(currency);
        if (variants) p.inner_record_id = static_cast<int32_t>(rng.Between(1, 4));
        const int64_t with_tax = in_currency * rng.Between(80, 100) / 100;
        p.price_with_tax = Decimal(with_tax, 2);
        p.price_without_tax = Decimal(with_tax * 100 / 121, 2);
        p.tax_rate = Decimal(21, 0);
        if (list > 1 && list <= 4) p.validity = std::get<DateTimeRange>(ValidityValue(rng).scalar());
        p.indexed = list <= 20;
        e->prices.push_back(std::move(p));
      }
    }

    // References.
    auto add = [&](const char* name, const char* target, std::optional<EntityRef> group = std::nullopt,
                   Attributes attributes = {}) {
      e->references.push_back(
          {name, {target, RandomPk(rng, target)}, std::move(group), std::move(attributes)});
    };
    for (int64_t i = rng.Between(1, 3); i > 0; --i) {
      Attributes a;
      a.global.emplace("order", Value::Integer(static_cast<int32_t>(rng.Between(0, 1000))));
      add("categories", "Category", std::nullopt, std::move(a));
    }
    add("brand", "Brand");
    for (int64_t i = rng.Between(0, 2); i > 0; --i) add("groups", "Group");
    for (int64_t i = rng.Between(4, 12); i > 0; --i) {
      add("parameterValues", "ParameterValue", EntityRef{"Parameter", RandomPk(rng, "Parameter")});
    }
    for (int64_t i = rng.Between(1, 3); i > 0; --i) {
      Attributes a;
      a.global.emplace("quantityOnStock", Value::Integer(static_cast<int32_t>(rng.Between(0, 200))));
      add("stocks", "Stock", std::nullopt, std::move(a));
    }
    for (int64_t i = rng.Between(0, 3); i > 0; --i) add("tags", "Tag");
    for (int64_t i = rng.Between(0, 4); i > 0; --i) add("relatedProducts", "Product");
    for (int64_t i = rng.Between(1, 4); i > 0; --i) {
      Attributes a;
      a.global.emplace("order", Value::Integer(static_cast<int32_t>(i)));
      add("media", "Media", std::nullopt, std::move(a));
    }
    Dedupe(&e->references);
    if (shape_ == SenesiShape::kProduction) ShapeAsProduction(e);
  }

  // The references of production's shape, drawn apart from the product's own
  // stream, so that a product differs from its senesi twin in these alone.
  void ShapeAsProduction(Entity* e) const {
    Rng rng(Rng::Derive(seed_, "Product/production-shape", e->primary_key));
    auto& refs = e->references;
    bool related_seen = false;
    const bool keep_related = rng.Chance(kRelatedKept);
    refs.erase(std::remove_if(refs.begin(), refs.end(),
                              [&](const Reference& r) {
                                if (r.name != "relatedProducts") return false;
                                const bool drop = related_seen || !keep_related;
                                related_seen = true;
                                return drop;
                              }),
               refs.end());
    if (rng.Chance(kLargestCategoryShare)) {
      Attributes a;
      a.global.emplace("order", Value::Integer(static_cast<int32_t>(rng.Between(0, 1000))));
      refs.push_back({"categories", {"Category", 1}, std::nullopt, std::move(a)});
      Dedupe(&refs);
    }
  }

  void BuildSchema() {
    auto& globals = schema_.attributes;
    AttributeSchema code = Unique(Sortable(Attr("code", ValueType::kString)));
    code.kind = AttributeSchemaKind::kGlobal;
    code.globally_unique_in_scopes = {{Scope::kLive, GlobalAttributeUniqueness::kUniqueWithinCatalog}};
    code.representative = true;
    AttributeSchema url = Unique(Localized(Attr("url", ValueType::kString)));
    url.kind = AttributeSchemaKind::kGlobal;
    url.globally_unique_in_scopes = {{Scope::kLive, GlobalAttributeUniqueness::kUniqueWithinCatalogLocale}};
    globals.emplace("code", code);
    globals.emplace("url", url);
    schema_.evolution_modes = {CatalogEvolutionMode::kAddingEntityTypes};

    const std::vector<Locale> locales = {MakeLocale("cs"), MakeLocale("sk")};
    for (const auto& plan : plans_) {
      EntitySchema e;
      e.name = plan.entity_type;
      e.evolution_modes = AllEvolutionModes();
      e.attributes.emplace("code", code);
      if (plan.entity_type != "Media" && plan.entity_type != "Stock") {
        e.locales = locales;
        e.attributes.emplace("name", Sortable(Filterable(Localized(Attr("name", ValueType::kString)))));
      }
      schema_.entities.emplace(e.name, std::move(e));
    }
    auto& s = schema_.entities;
    for (const char* type : {"Brand", "Category", "Group", "Tag", "Product"}) {
      s.at(type).attributes.emplace("url", url);
    }

    EntitySchema& category = s.at("Category");
    category.with_hierarchy = true;
    category.hierarchy_indexed_in_scopes = {Scope::kLive};
    category.attributes.emplace("order", Sortable(Attr("order", ValueType::kInteger)));
    category.attributes.emplace("visible", Filterable(Attr("visible", ValueType::kBoolean)));

    EntitySchema& media = s.at("Media");
    media.locales = locales;
    media.attributes.emplace("path", Attr("path", ValueType::kString));
    media.attributes.emplace("width", Attr("width", ValueType::kInteger));
    media.attributes.emplace("height", Attr("height", ValueType::kInteger));
    media.attributes.emplace("mimeType", Filterable(Attr("mimeType", ValueType::kString)));
    media.attributes.emplace("bytes", Attr("bytes", ValueType::kLong));
    media.attributes.emplace("alt", Localized(Attr("alt", ValueType::kString)));

    s.at("ParameterValue").attributes.emplace("order", Sortable(Attr("order", ValueType::kInteger)));
    s.at("ParameterValue")
        .references.emplace("parameter", Ref("parameter", "Parameter", Cardinality::kExactlyOne,
                                             ReferenceIndexType::kForFiltering));
    s.at("Parameter").attributes.emplace("filterable", Filterable(Attr("filterable", ValueType::kBoolean)));
    s.at("Parameter")
        .references.emplace("parameterGroup", Ref("parameterGroup", "ParameterGroup", Cardinality::kZeroOrOne,
                                                  ReferenceIndexType::kForFiltering));
    EntitySchema& voucher = s.at("Voucher");
    voucher.attributes.emplace("discount", Attr("discount", ValueType::kBigDecimal));
    voucher.attributes.at("discount").indexed_decimal_places = 2;
    voucher.attributes.emplace("used", Filterable(Attr("used", ValueType::kBoolean)));
    voucher.attributes.emplace("validity", Filterable(Attr("validity", ValueType::kDateTimeRange)));
    s.at("PriceList").attributes.emplace("priority", Sortable(Attr("priority", ValueType::kLong)));
    s.at("PriceList").attributes.emplace("currency", Filterable(Attr("currency", ValueType::kCurrency)));
    EntitySchema& pickup = s.at("PickupPoint");
    pickup.attributes.emplace("address", Attr("address", ValueType::kString));
    pickup.attributes.emplace("latitude", Filterable(Attr("latitude", ValueType::kBigDecimal)));
    pickup.attributes.emplace("longitude", Filterable(Attr("longitude", ValueType::kBigDecimal)));
    pickup.attributes.at("latitude").indexed_decimal_places = 6;
    pickup.attributes.at("longitude").indexed_decimal_places = 6;
    s.at("ProductBundle")
        .references.emplace("products", Ref("products", "Product", Cardinality::kOneOrMore,
                                            ReferenceIndexType::kForFiltering));

    EntitySchema& product = s.at("Product");
    product.with_price = true;
    product.price_indexed_in_scopes = {Scope::kLive};
    product.currencies = {MakeCurrency("CZK"), MakeCurrency("EUR")};
    auto add = [&](AttributeSchema a) { product.attributes.emplace(a.name, std::move(a)); };
    add(Unique(Attr("ean", ValueType::kString)));
    add(Filterable(Attr("catalogNumber", ValueType::kString)));
    for (const char* flag : {"visible", "saleable", "new", "recommended"}) {
      add(Filterable(Attr(flag, ValueType::kBoolean)));
    }
    add(Sortable(Attr("priority", ValueType::kLong)));
    add(Filterable(Attr("weight", ValueType::kBigDecimal)));
    product.attributes.at("weight").indexed_decimal_places = 3;
    for (const char* dim : {"width", "height", "depth"}) add(Filterable(Attr(dim, ValueType::kInteger)));
    add(Sortable(Filterable(Attr("stockQuantity", ValueType::kInteger))));
    add(Filterable(Attr("availability", ValueType::kString)));
    add(Filterable(Attr("deliveryDays", ValueType::kInteger)));
    add(Attr("warrantyMonths", ValueType::kInteger));
    add(Attr("vatRate", ValueType::kBigDecimal));
    add(Filterable(Attr("validity", ValueType::kDateTimeRange)));
    add(Sortable(Attr("createdAt", ValueType::kOffsetDateTime)));
    add(Sortable(Attr("updatedAt", ValueType::kOffsetDateTime)));
    add(Filterable(Attr("releaseDate", ValueType::kLocalDate)));
    add(Filterable(Attr("manufacturerCode", ValueType::kString)));
    add(Filterable(Attr("variantCode", ValueType::kString)));
    add(Attr("colorHex", ValueType::kString));
    add(Filterable(Attr("sizeLabel", ValueType::kString)));
    add(Sortable(Attr("rating", ValueType::kBigDecimal)));
    product.attributes.at("rating").indexed_decimal_places = 2;
    add(Attr("ratingCount", ValueType::kInteger));
    add(Sortable(Attr("soldCount", ValueType::kLong)));
    add(Localized(Attr("shortDescription", ValueType::kString)));
    add(Localized(Attr("metaTitle", ValueType::kString)));
    add(Localized(Attr("metaDescription", ValueType::kString)));
    add(Filterable(Localized(Attr("keywords", ValueType::kStringArray))));
    for (auto [name, type, localized] : {std::tuple{"descriptionHtml", ValueType::kString, true},
                                         std::tuple{"specs", ValueType::kComplexDataObject, false},
                                         std::tuple{"gallery", ValueType::kComplexDataObject, false},
                                         std::tuple{"seo", ValueType::kComplexDataObject, false},
                                         std::tuple{"videoUrls", ValueType::kStringArray, false}}) {
      AssociatedDataSchema d;
      d.name = name;
      d.type = type;
      d.localized = localized;
      d.nullable = true;
      product.associated_data.emplace(d.name, d);
    }
    SortableAttributeCompoundSchema rank;
    rank.name = "priorityRating";
    rank.elements = {{"priority", OrderDirection::kDesc, OrderBehaviour::kNullsLast},
                     {"rating", OrderDirection::kDesc, OrderBehaviour::kNullsLast}};
    rank.indexed_in_scopes = {Scope::kLive};
    product.sortable_attribute_compounds.emplace(rank.name, rank);

    using RIT = ReferenceIndexType;
    auto ref = [&](ReferenceSchema r) { product.references.emplace(r.name, std::move(r)); };
    ReferenceSchema categories =
        Ref("categories", "Category", Cardinality::kOneOrMore, RIT::kForFilteringAndPartitioning);
    categories.attributes.emplace("order", Attr("order", ValueType::kInteger));
    categories.attributes.at("order").kind = AttributeSchemaKind::kReference;
    categories.attributes.at("order").sortable_in_scopes = {Scope::kLive};
    categories.faceted_in_scopes = {Scope::kLive};
    ref(categories);
    ReferenceSchema brand = Ref("brand", "Brand", Cardinality::kZeroOrOne, RIT::kForFilteringAndPartitioning);
    brand.faceted_in_scopes = {Scope::kLive};
    ref(brand);
    ref(Ref("groups", "Group", Cardinality::kZeroOrMore, RIT::kForFilteringAndPartitioning));
    ReferenceSchema parameters =
        Ref("parameterValues", "ParameterValue", Cardinality::kZeroOrMore, RIT::kForFiltering);
    parameters.group_type = "Parameter";
    parameters.group_type_managed = true;
    // Indexed by group too: the production catalog keeps REFERENCED_GROUP_ENTITY indexes for Product.
    parameters.indexed_components = {
        {Scope::kLive,
         {ReferenceIndexedComponent::kReferencedEntity, ReferenceIndexedComponent::kReferencedGroupEntity}}};
    parameters.faceted_in_scopes = {Scope::kLive};
    ref(parameters);
    ReferenceSchema stocks = Ref("stocks", "Stock", Cardinality::kZeroOrMore, RIT::kForFiltering);
    stocks.attributes.emplace("quantityOnStock", Filterable(Attr("quantityOnStock", ValueType::kInteger)));
    stocks.attributes.at("quantityOnStock").kind = AttributeSchemaKind::kReference;
    ref(stocks);
    ReferenceSchema tags = Ref("tags", "Tag", Cardinality::kZeroOrMore, RIT::kForFiltering);
    tags.faceted_in_scopes = {Scope::kLive};
    ref(tags);
    // Indexed in production's shape: the two references with the most
    // distinct targets, standing in for production's unrecorded ones.
    const RIT wide = shape_ == SenesiShape::kProduction ? RIT::kForFiltering : RIT::kNone;
    ref(Ref("relatedProducts", "Product", Cardinality::kZeroOrMore, wide));
    ReferenceSchema product_media = Ref("media", "Media", Cardinality::kZeroOrMore, wide);
    product_media.attributes.emplace("order", Attr("order", ValueType::kInteger));
    product_media.attributes.at("order").kind = AttributeSchemaKind::kReference;
    ref(product_media);

    // Category.products mirrors Product.categories: maintained by the engine, never copied.
    ReferenceSchema reflected;
    reflected.name = "products";
    reflected.referenced_entity_type = "Product";
    reflected.referenced_entity_type_managed = true;
    reflected.reflected_reference_name = "categories";
    reflected.description_inherited = true;
    reflected.deprecation_notice_inherited = true;
    reflected.cardinality_inherited = false;
    reflected.cardinality = Cardinality::kZeroOrMore;
    // Not faceted: a faceted reflected reference puts every product of a
    // category into each of that category's reduced indexes as a facet, which
    // grows with the square of a category's size; no shop facets categories
    // by their products (tiny keeps it faceted, to exercise that path).
    reflected.faceted_inherited = false;
    reflected.faceted_in_scopes = {};
    reflected.indexed_inherited = true;
    reflected.index_types = categories.index_types;
    AttributeSchema inherited_order = categories.attributes.at("order");
    inherited_order.inherited = true;
    reflected.attributes.emplace("order", inherited_order);
    category.references.emplace(reflected.name, reflected);
  }

  uint64_t seed_;
  SenesiShape shape_;
  std::vector<CollectionPlan> plans_;
  CatalogSchema schema_;
};

}  // namespace

int64_t ScaleCount(int64_t count, double scale) {
  return std::max<int64_t>(1, static_cast<int64_t>(std::llround(static_cast<double>(count) * scale)));
}

std::unique_ptr<Profile> MakeSenesiProfile(const GeneratorOptions& options, SenesiShape shape) {
  return std::make_unique<SenesiProfile>(options, shape);
}

}  // namespace warmup::generator
