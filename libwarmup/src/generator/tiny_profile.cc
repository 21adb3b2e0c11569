#include "generator/tiny_profile.h"

#include "generator/profile.h"

#include <algorithm>
#include <string>

namespace warmup::generator {
namespace {

// For values built from constants known to be valid.
template <typename T>
T Unwrap(StatusOr<T> s) {
  return std::move(s).value();
}

std::string RandomText(Rng& rng) {
  static const std::vector<std::string> kWords = {"chata", "hrad", "čaj", "Cesta", "žluť", "kůň",
                                                  "abc",   "x",    "",    "ß",     "日本", "Ünïcödé"};
  std::string out = rng.Pick(kWords);
  if (rng.Coin()) out += " " + rng.Pick(kWords) + std::to_string(rng.Between(0, 999));
  return out;
}

BigDecimal RandomDecimal(Rng& rng) {
  static const std::vector<std::string> kForms = {"0",    "12.50",     "-0.001", "2.5e8",
                                                  "1e-7", "199990.00", "-3",     "7.125"};
  if (rng.Coin()) return Unwrap(BigDecimal::Parse(rng.Pick(kForms)));
  return Unwrap(BigDecimal::Parse(std::to_string(rng.Between(-99999, 99999)) + "." +
                                  std::to_string(rng.Between(10, 99))));
}

DateTime RandomDateTime(Rng& rng, ValueType type) {
  const int64_t seconds = rng.Between(-2'000'000'000, 4'000'000'000);
  const int32_t nanos = static_cast<int32_t>(rng.Coin() ? 0 : rng.Between(0, 999'999'999));
  switch (type) {
    case ValueType::kLocalDateTime:
      return {seconds, nanos, 0};
    case ValueType::kLocalDate:
      return {seconds - ((seconds % 86'400) + 86'400) % 86'400, 0, 0};
    case ValueType::kLocalTime:
      return {rng.Between(0, 86'399), nanos, 0};
    default:
      return {seconds, nanos, static_cast<int32_t>(rng.Between(-48, 56) * 900)};
  }
}

// A range of [lo, 0] to [0, hi], open on one side a quarter of the time
// each, never on both (CheckRangeBounds).
NumberRange RandomNumberRange(Rng& rng, int64_t lo, int64_t hi) {
  NumberRange r{rng.Between(lo, 0), rng.Between(0, hi)};
  const int64_t open = rng.Between(0, 3);
  if (open == 0) r.from.reset();
  if (open == 1) r.to.reset();
  return r;
}

Scalar RandomScalar(Rng& rng, ValueType type) {
  switch (type) {
    case ValueType::kString:
      return RandomText(rng);
    case ValueType::kCharacter:
      return rng.Pick(std::vector<std::string>{"a", "Z", "č", "7", "€"});
    case ValueType::kByte:
      return rng.Between(-128, 127);
    case ValueType::kShort:
      return rng.Between(-32768, 32767);
    case ValueType::kInteger:
      return rng.Between(INT32_MIN, INT32_MAX);
    case ValueType::kLong:
      return rng.Between(INT64_MIN, INT64_MAX);
    case ValueType::kBoolean:
      return rng.Coin();
    case ValueType::kBigDecimal:
      return RandomDecimal(rng);
    case ValueType::kOffsetDateTime:
    case ValueType::kLocalDateTime:
    case ValueType::kLocalDate:
    case ValueType::kLocalTime:
      return RandomDateTime(rng, type);
    // Ranges as evitaDB can hold them (CheckRangeBounds): one bound at
    // least, the lower one first; an open side half the time.
    case ValueType::kDateTimeRange: {
      DateTimeRange r;
      // Whole seconds: evitaDB keeps no fraction of a range's bound that
      // came over gRPC (EvitaDataTypesConverter.toDateTimeRange).
      DateTime a = RandomDateTime(rng, ValueType::kOffsetDateTime);
      DateTime b = RandomDateTime(rng, ValueType::kOffsetDateTime);
      a.nanos = b.nanos = 0;
      if (std::pair(b.epoch_seconds, b.nanos) < std::pair(a.epoch_seconds, a.nanos)) std::swap(a, b);
      const int64_t open = rng.Between(0, 3);  // 0: from only, 1: to only, else both
      if (open != 1) r.from = a;
      if (open != 0) r.to = b;
      return r;
    }
    case ValueType::kBigDecimalNumberRange: {
      BigDecimalRange r;
      BigDecimal a = RandomDecimal(rng);
      BigDecimal b = RandomDecimal(rng);
      if (CompareBigDecimals(b, a) < 0) std::swap(a, b);
      const int64_t open = rng.Between(0, 3);
      if (open != 1) r.from = a;
      if (open != 0) r.to = b;
      r.decimal_places_to_compare = static_cast<int32_t>(rng.Between(0, 4));
      return r;
    }
    case ValueType::kLongNumberRange:
      return RandomNumberRange(rng, INT64_MIN, INT64_MAX);
    case ValueType::kIntegerNumberRange:
      return RandomNumberRange(rng, INT32_MIN, INT32_MAX);
    case ValueType::kShortNumberRange:
      return RandomNumberRange(rng, -32768, 32767);
    case ValueType::kByteNumberRange:
      return RandomNumberRange(rng, -128, 127);
    case ValueType::kLocale:
      return Unwrap(
          // No script subtag: evitaDB stores a locale without it (Kryo's
          // LocaleSerializer), so "sr-Latn-RS" would read back as "sr-RS".
          Locale::Parse(rng.Pick(std::vector<std::string>{"cs", "sk", "en-US", "cs-CZ", "sr-RS"})));
    case ValueType::kCurrency:
      return Unwrap(Currency::Parse(rng.Pick(std::vector<std::string>{"CZK", "EUR", "USD"})));
    case ValueType::kUuid:
      return Uuid{rng.Between(INT64_MIN, INT64_MAX), rng.Between(INT64_MIN, INT64_MAX)};
    case ValueType::kPredecessor:
    case ValueType::kReferencedEntityPredecessor:
      return rng.Coin() ? Predecessor{} : Predecessor{static_cast<int32_t>(rng.Between(1, 1000))};
    default:
      return std::string();  // array types never reach here: RandomValue asks for element types
  }
}

AttributeSchema Attribute(const std::string& name, ValueType type, AttributeSchemaKind kind) {
  AttributeSchema a;
  a.name = name;
  a.type = type;
  a.kind = kind;
  return a;
}

std::string AttributeNameFor(ValueType type) {
  std::string name = "a";
  for (char c : ValueTypeName(type)) {
    if (c != '_') name += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return name;
}

// Attributes for one map of values as the schema describes them.
// A value of a unique attribute: derived from the owner, so no two entities
// share it (`owner` is "<type>/<pk>", plus the locale for localized ones).
Value UniqueValue(ValueType type, const std::string& owner, int32_t pk) {
  if (type == ValueType::kString) return Value::String(owner);
  return *Value::Make(type, {int64_t{pk}});
}

bool IsUnique(const AttributeSchema& a) {
  return !a.unique_in_scopes.empty() || !a.globally_unique_in_scopes.empty();
}

void FillAttributes(Rng& rng, const std::map<std::string, AttributeSchema>& schemas,
                    const std::vector<Locale>& locales, const std::string& owner, int32_t pk,
                    Attributes* out) {
  for (const auto& [name, schema] : schemas) {
    if (schema.nullable && rng.Between(0, 3) == 0) continue;
    if (schema.localized) {
      for (const Locale& locale : locales) {
        if (rng.Coin() || !schema.nullable) {
          out->localized[locale.tag()].emplace(
              name, IsUnique(schema) ? UniqueValue(schema.type, owner + "/" + locale.tag(), pk)
                                     : RandomValue(rng, schema.type));
        }
      }
    } else {
      out->global.emplace(
          name, IsUnique(schema) ? UniqueValue(schema.type, owner, pk) : RandomValue(rng, schema.type));
    }
  }
}

}  // namespace

Value RandomValue(Rng& rng, ValueType type) {
  std::vector<Scalar> items;
  const int64_t count = IsArrayType(type) ? rng.Between(0, 3) : 1;
  for (int64_t i = 0; i < count; ++i) items.push_back(RandomScalar(rng, ElementType(type)));
  return Unwrap(Value::Make(type, std::move(items)));
}

DataItem RandomDataItem(Rng& rng, int depth) {
  // No null node: evitaDB can neither take one over gRPC nor send one.
  const int64_t kind = depth <= 0 ? 1 : rng.Between(1, 3);
  DataItem item;
  if (kind == 1) {
    item.content = RandomValue(
        rng, rng.Pick(std::vector<ValueType>{ValueType::kString, ValueType::kInteger, ValueType::kBigDecimal,
                                             ValueType::kBoolean, ValueType::kLocalDate}));
  } else if (kind == 2) {
    DataItem::Array array;
    for (int64_t i = rng.Between(0, 3); i > 0; --i) array.push_back(RandomDataItem(rng, depth - 1));
    item.content = std::move(array);
  } else {
    DataItem::Map map;
    for (int64_t i = rng.Between(0, 3); i > 0; --i) {
      map["k" + std::to_string(i)] = RandomDataItem(rng, depth - 1);
    }
    item.content = std::move(map);
  }
  return item;
}

DataItem RandomDataRoot(Rng& rng, int depth) {
  DataItem item = RandomDataItem(rng, depth);
  if (std::holds_alternative<Value>(item.content)) {
    DataItem::Array wrapped{std::move(item)};
    item = DataItem{std::move(wrapped)};
  }
  return item;
}

CatalogSchema RandomCatalogSchema(uint64_t seed) {
  Rng rng(seed);
  CatalogSchema catalog;
  catalog.name = "testCatalog";
  catalog.version = static_cast<int32_t>(rng.Between(1, 50));
  catalog.description = "generated for tests";
  if (rng.Coin()) catalog.evolution_modes = {CatalogEvolutionMode::kAddingEntityTypes};

  AttributeSchema code = Attribute("code", ValueType::kString, AttributeSchemaKind::kGlobal);
  code.unique_in_scopes = {{Scope::kLive, AttributeUniqueness::kUniqueWithinCollection}};
  code.globally_unique_in_scopes = {{Scope::kLive, GlobalAttributeUniqueness::kUniqueWithinCatalog}};
  code.filterable_in_scopes = {Scope::kLive, Scope::kArchived};
  code.sortable_in_scopes = {Scope::kLive};
  code.representative = true;
  AttributeSchema url = Attribute("url", ValueType::kString, AttributeSchemaKind::kGlobal);
  url.localized = true;
  url.unique_in_scopes = {{Scope::kLive, AttributeUniqueness::kUniqueWithinCollectionLocale}};
  url.globally_unique_in_scopes = {{Scope::kLive, GlobalAttributeUniqueness::kUniqueWithinCatalogLocale}};
  url.filterable_in_scopes = {Scope::kLive};
  url.deprecation_notice = "use slug";
  AttributeSchema priority = Attribute("priority", ValueType::kLong, AttributeSchemaKind::kGlobal);
  priority.nullable = true;
  priority.default_value = Value::Long(rng.Between(0, 10));
  priority.sortable_in_scopes = {Scope::kLive};
  for (auto* a : {&code, &url, &priority}) catalog.attributes.emplace(a->name, *a);

  auto add_entity = [&](const std::string& name) -> EntitySchema& {
    EntitySchema e;
    e.name = name;
    e.version = static_cast<int32_t>(rng.Between(1, 9));
    e.evolution_modes = AllEvolutionModes();
    e.attributes.emplace("code", catalog.attributes.at("code"));
    return catalog.entities.emplace(name, std::move(e)).first->second;
  };

  auto& brand = add_entity("Brand");
  brand.description = "manufacturers";
  auto& parameter = add_entity("Parameter");
  parameter.with_generated_primary_key = rng.Coin();
  add_entity("ParameterValue");

  auto& category = add_entity("Category");
  category.with_hierarchy = true;
  category.hierarchy_indexed_in_scopes = {Scope::kLive};
  category.locales = {Unwrap(Locale::Parse("cs")), Unwrap(Locale::Parse("sk"))};
  category.attributes.emplace("url", catalog.attributes.at("url"));
  AttributeSchema category_name = Attribute("name", ValueType::kString, AttributeSchemaKind::kEntity);
  category_name.localized = true;
  category_name.sortable_in_scopes = {Scope::kLive};
  category.attributes.emplace("name", category_name);

  auto& product = add_entity("Product");
  product.description = "goods";
  product.deprecation_notice = "never";
  product.with_price = true;
  product.indexed_price_places = static_cast<int32_t>(rng.Between(0, 4));
  product.price_indexed_in_scopes = {Scope::kLive};
  product.locales = {Unwrap(Locale::Parse("cs")), Unwrap(Locale::Parse("sk"))};
  product.currencies = {Unwrap(Currency::Parse("CZK")), Unwrap(Currency::Parse("EUR"))};
  product.evolution_modes = {EvolutionMode::kAddingAttributes, EvolutionMode::kAddingLocales};
  product.attributes.emplace("url", catalog.attributes.at("url"));
  product.attributes.emplace("priority", catalog.attributes.at("priority"));
  for (ValueType type : AllValueTypes()) {
    // A catalog with these could not be published into evitaDB.
    if (!WhyEvitaCannotTakeOverGrpc(type, TypeUse::kAttribute).empty()) continue;
    AttributeSchema a = Attribute(AttributeNameFor(type), type, AttributeSchemaKind::kEntity);
    a.nullable = rng.Coin();
    a.localized = type == ValueType::kString;
    if (!IsArrayType(type) && type != ValueType::kPredecessor &&
        type != ValueType::kReferencedEntityPredecessor) {
      if (rng.Coin()) a.filterable_in_scopes = {Scope::kLive};
      if (rng.Coin()) a.sortable_in_scopes = {Scope::kLive, Scope::kArchived};
    }
    if (type == ValueType::kBigDecimal) a.indexed_decimal_places = 2;
    if (type == ValueType::kInteger) {
      a.unique_in_scopes = {{Scope::kLive, AttributeUniqueness::kUniqueWithinCollection},
                            {Scope::kArchived, AttributeUniqueness::kUniqueWithinCollection}};
    }
    if (rng.Between(0, 4) == 0) a.default_value = RandomValue(rng, type);
    if (rng.Between(0, 5) == 0) a.description = "type " + std::string(ValueTypeName(type));
    product.attributes.emplace(a.name, a);
  }
  for (ValueType type : AllValueTypes()) {
    if (type == ValueType::kPredecessor || type == ValueType::kReferencedEntityPredecessor) continue;
    // A catalog with these could not be published into evitaDB.
    if (!WhyEvitaCannotTakeOverGrpc(type, TypeUse::kAssociatedData).empty()) continue;
    AssociatedDataSchema d;
    d.name = "d" + AttributeNameFor(type).substr(1);
    d.type = type;
    d.nullable = true;
    d.localized = type == ValueType::kString;
    product.associated_data.emplace(d.name, d);
  }
  AssociatedDataSchema specs;
  specs.name = "specs";
  specs.type = ValueType::kComplexDataObject;
  specs.localized = true;
  specs.nullable = true;
  specs.description = "technical specification";
  product.associated_data.emplace(specs.name, specs);

  SortableAttributeCompoundSchema by_code_priority;
  by_code_priority.name = "codePriority";
  by_code_priority.elements = {{"code", OrderDirection::kAsc, OrderBehaviour::kNullsLast},
                               {"priority", OrderDirection::kDesc, OrderBehaviour::kNullsFirst}};
  by_code_priority.indexed_in_scopes = {Scope::kLive};
  product.sortable_attribute_compounds.emplace(by_code_priority.name, by_code_priority);

  ReferenceSchema brand_ref;
  brand_ref.name = "brand";
  brand_ref.cardinality = Cardinality::kZeroOrOne;
  brand_ref.referenced_entity_type = "Brand";
  brand_ref.referenced_entity_type_managed = true;
  brand_ref.index_types = {{Scope::kLive, ReferenceIndexType::kForFilteringAndPartitioning}};
  brand_ref.faceted_in_scopes = {Scope::kLive};
  product.references.emplace(brand_ref.name, brand_ref);

  ReferenceSchema categories;
  categories.name = "categories";
  categories.description = "where the product is listed";
  categories.cardinality = Cardinality::kZeroOrMore;
  categories.referenced_entity_type = "Category";
  categories.referenced_entity_type_managed = true;
  categories.index_types = {{Scope::kLive, ReferenceIndexType::kForFilteringAndPartitioning},
                            {Scope::kArchived, ReferenceIndexType::kForFiltering}};
  categories.indexed_components = {{Scope::kLive, {ReferenceIndexedComponent::kReferencedEntity}}};
  categories.faceted_in_scopes = {Scope::kLive};
  AttributeSchema order = Attribute("order", ValueType::kPredecessor, AttributeSchemaKind::kReference);
  order.nullable = true;
  AttributeSchema label = Attribute("label", ValueType::kString, AttributeSchemaKind::kReference);
  label.localized = true;
  label.nullable = true;
  label.sortable_in_scopes = {Scope::kLive};
  AttributeSchema rank = Attribute("rank", ValueType::kInteger, AttributeSchemaKind::kReference);
  rank.nullable = true;
  categories.attributes = {{"order", order}, {"label", label}, {"rank", rank}};
  SortableAttributeCompoundSchema by_label;
  by_label.name = "byLabel";
  by_label.elements = {{"label", OrderDirection::kAsc, OrderBehaviour::kNullsLast},
                       {"rank", OrderDirection::kDesc, OrderBehaviour::kNullsFirst}};
  by_label.indexed_in_scopes = {Scope::kLive};
  categories.sortable_attribute_compounds.emplace(by_label.name, by_label);
  product.references.emplace(categories.name, categories);

  ReferenceSchema parameter_values;
  parameter_values.name = "parameterValues";
  parameter_values.cardinality = Cardinality::kZeroOrMore;
  parameter_values.referenced_entity_type = "ParameterValue";
  parameter_values.referenced_entity_type_managed = true;
  parameter_values.group_type = "Parameter";
  parameter_values.group_type_managed = true;
  parameter_values.index_types = {{Scope::kLive, ReferenceIndexType::kForFiltering}};
  parameter_values.indexed_components = {
      {Scope::kLive,
       {ReferenceIndexedComponent::kReferencedEntity, ReferenceIndexedComponent::kReferencedGroupEntity}}};
  parameter_values.faceted_in_scopes = {Scope::kLive};
  parameter_values.faceted_partially = {
      {Scope::kLive, std::string("$reference.groupEntity?.attributes['code'] != 'x'")},
      {Scope::kArchived, std::nullopt}};
  product.references.emplace(parameter_values.name, parameter_values);

  ReferenceSchema related;
  related.name = "relatedProducts";
  related.cardinality = Cardinality::kZeroOrMoreWithDuplicates;
  related.referenced_entity_type = "Product";
  related.referenced_entity_type_managed = true;
  product.references.emplace(related.name, related);

  ReferenceSchema tags;
  tags.name = "tags";
  tags.cardinality = Cardinality::kZeroOrMore;
  tags.referenced_entity_type = "ExternalTag";
  tags.referenced_entity_type_managed = false;
  tags.deprecation_notice = "replaced by labels";
  product.references.emplace(tags.name, tags);

  // Category.products mirrors Product.categories, inheriting some of its settings.
  ReferenceSchema products;
  products.name = "products";
  products.referenced_entity_type = "Product";
  products.referenced_entity_type_managed = true;
  products.reflected_reference_name = "categories";
  products.description_inherited = true;
  products.description = categories.description;
  products.deprecation_notice = "only for navigation";
  products.cardinality = Cardinality::kZeroOrMore;
  products.faceted_inherited = true;
  products.faceted_in_scopes = categories.faceted_in_scopes;
  products.index_types = {{Scope::kLive, ReferenceIndexType::kForFiltering}};
  products.attribute_inheritance_behavior = AttributeInheritanceBehavior::kInheritOnlySpecified;
  products.attribute_inheritance_filter = {"label", "rank"};  // byLabel's attributes
  AttributeSchema inherited_label = label;
  inherited_label.inherited = true;
  AttributeSchema inherited_rank = rank;
  inherited_rank.inherited = true;
  SortableAttributeCompoundSchema inherited_by_label = by_label;
  inherited_by_label.inherited = true;
  AttributeSchema note = Attribute("note", ValueType::kString, AttributeSchemaKind::kReference);
  note.nullable = true;
  products.attributes = {{"label", inherited_label}, {"rank", inherited_rank}, {"note", note}};
  products.sortable_attribute_compounds.emplace(inherited_by_label.name, inherited_by_label);
  category.references.emplace(products.name, products);
  return catalog;
}

Entity RandomEntity(Rng& rng, const CatalogSchema& schema, const std::string& type, int32_t pk) {
  const EntitySchema& es = *schema.FindEntity(type);
  Entity e;
  e.type = type;
  e.primary_key = pk;
  e.scope = rng.Between(0, 9) == 0 ? Scope::kArchived : Scope::kLive;
  if (es.with_hierarchy && pk > 1 && rng.Coin()) e.parent = static_cast<int32_t>(rng.Between(1, pk - 1));
  FillAttributes(rng, es.attributes, es.locales, type + "/" + std::to_string(pk), pk, &e.attributes);
  for (const auto& [name, data_schema] : es.associated_data) {
    if (rng.Between(0, 2) == 0) continue;
    const AssociatedDataSchema& d = data_schema;  // (clang before 16 cannot capture a structured binding)
    auto make = [&] {
      return d.type == ValueType::kComplexDataObject ? AssociatedDataValue{RandomDataRoot(rng, 3)}
                                                     : AssociatedDataValue{RandomValue(rng, d.type)};
    };
    if (d.localized) {
      for (const Locale& l : es.locales) {
        if (rng.Coin()) e.associated_data.localized[l.tag()].emplace(name, make());
      }
    } else {
      e.associated_data.global.emplace(name, make());
    }
  }
  if (es.with_price) {
    e.price_inner_record_handling = static_cast<PriceInnerRecordHandling>(rng.Between(0, 2));
    for (int64_t i = rng.Between(0, 5); i > 0; --i) {
      Price p;
      p.price_id = static_cast<int32_t>(i);
      p.price_list = rng.Pick(std::vector<std::string>{"basic", "vip", "action"});
      p.currency = rng.Pick(es.currencies);
      if (rng.Coin()) p.inner_record_id = static_cast<int32_t>(rng.Between(1, 5));
      p.price_without_tax = RandomDecimal(rng);
      p.tax_rate = Unwrap(BigDecimal::Parse("21"));
      p.price_with_tax = RandomDecimal(rng);
      if (rng.Coin()) p.validity = std::get<DateTimeRange>(RandomScalar(rng, ValueType::kDateTimeRange));
      p.indexed = rng.Between(0, 4) != 0;
      e.prices.push_back(std::move(p));
    }
  }
  for (const auto& [name, rs] : es.references) {
    int64_t count = rng.Between(0, 3);
    if (rs.cardinality == Cardinality::kZeroOrOne) count = std::min<int64_t>(count, 1);
    std::vector<int32_t> used;
    for (int64_t i = 0; i < count; ++i) {
      Reference r;
      r.name = name;
      int32_t target = static_cast<int32_t>(rng.Between(1, 20));
      const bool duplicates = rs.cardinality == Cardinality::kZeroOrMoreWithDuplicates;
      if (!duplicates && std::find(used.begin(), used.end(), target) != used.end()) continue;
      used.push_back(target);
      r.referenced = {rs.referenced_entity_type, target};
      if (rs.group_type && rng.Coin()) {
        r.group = EntityRef{*rs.group_type, static_cast<int32_t>(rng.Between(1, 5))};
      }
      FillAttributes(rng, rs.attributes, es.locales, type + "/" + std::to_string(pk) + "/" + name, pk,
                     &r.attributes);
      e.references.push_back(std::move(r));
    }
  }
  e.locales = DeriveLocales(e);
  ApplyDefaultValues(es, e);
  return e;
}

Entity WithoutReflectedReferences(Entity entity, const EntitySchema& schema) {
  RemoveReflectedReferences(schema, entity);
  return entity;
}

}  // namespace warmup::generator

namespace warmup::generator {
namespace {

// Collection sizes of the tiny catalog at scale 1.0 (300 entities).
const std::vector<CollectionPlan>& TinyCounts() {
  static const std::vector<CollectionPlan> kCounts = {
      {"Brand", 20}, {"Category", 30}, {"Parameter", 10}, {"ParameterValue", 40}, {"Product", 200}};
  return kCounts;
}

class TinyProfile : public Profile {
 public:
  explicit TinyProfile(const GeneratorOptions& options)
      : seed_(options.seed), schema_(RandomCatalogSchema(options.seed)) {
    schema_.name = options.catalog_name.empty() ? "tiny" : options.catalog_name;
    for (const auto& plan : TinyCounts()) {
      plans_.push_back({plan.entity_type, ScaleCount(plan.count, options.scale)});
    }
  }
  const CatalogSchema& schema() const override { return schema_; }
  const std::vector<CollectionPlan>& collections() const override { return plans_; }
  void MakeEntity(const std::string& type, int32_t pk, Entity* entity) const override {
    Rng rng(Rng::Derive(seed_, type, pk));
    *entity = RandomEntity(rng, schema_, type, pk);
  }

 private:
  uint64_t seed_;
  CatalogSchema schema_;
  std::vector<CollectionPlan> plans_;
};

}  // namespace

std::unique_ptr<Profile> MakeTinyProfile(const GeneratorOptions& options) {
  return std::make_unique<TinyProfile>(options);
}

}  // namespace warmup::generator
