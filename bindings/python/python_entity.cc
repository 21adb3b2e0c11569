#include "python_entity.h"

#include <pybind11/stl.h>

#include <map>
#include <set>
#include <utility>
#include <vector>

namespace warmup::python {
namespace py = pybind11;

namespace {

std::map<StatusCode, py::object>& ErrorTypes() {
  static auto* types = new std::map<StatusCode, py::object>();  // never destroyed: the interpreter owns them
  return *types;
}

// The Python class name of each code: kNotFound -> "NotFoundError".
std::string ErrorName(StatusCode code) {
  std::string name;
  bool upper = true;
  for (char c : StatusCodeName(code)) {
    if (c == '_') {
      upper = true;
      continue;
    }
    name += upper ? c : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    upper = false;
  }
  return name + "Error";
}

Status Wrong(const std::string& what, const std::string& why) {
  return InvalidArgumentError(what + ": " + why);
}

std::string Repr(const py::handle& object) { return py::repr(object).cast<std::string>(); }

// Seconds and microseconds of a datetime.timedelta.
std::pair<int64_t, int32_t> DeltaParts(const py::handle& delta) {
  const auto days = delta.attr("days").cast<int64_t>();
  const auto seconds = delta.attr("seconds").cast<int64_t>();
  const auto micros = delta.attr("microseconds").cast<int32_t>();
  return {days * 86400 + seconds, micros};
}

StatusOr<Scalar> ToScalar(const py::handle& object, ValueType type, const std::string& what) {
  const py::module_ datetime = py::module_::import("datetime");
  auto expected = [&](const std::string& kind) {
    return Wrong(what, std::string(ValueTypeName(type)) + " wants " + kind + ", got " + Repr(object));
  };
  switch (type) {
    case ValueType::kString:
    case ValueType::kCharacter:
      if (!py::isinstance<py::str>(object)) return expected("a str");
      return Scalar(object.cast<std::string>());
    case ValueType::kLocale: {
      if (!py::isinstance<py::str>(object)) return expected("a language tag (str)");
      auto locale = Locale::Parse(object.cast<std::string>());
      if (!locale.ok()) return locale.status().WithContext(what);
      return Scalar(*locale);
    }
    case ValueType::kCurrency: {
      if (!py::isinstance<py::str>(object)) return expected("a currency code (str)");
      auto currency = Currency::Parse(object.cast<std::string>());
      if (!currency.ok()) return currency.status().WithContext(what);
      return Scalar(*currency);
    }
    case ValueType::kByte:
    case ValueType::kShort:
    case ValueType::kInteger:
    case ValueType::kLong:
      if (py::isinstance<py::bool_>(object) || !py::isinstance<py::int_>(object)) return expected("an int");
      try {
        return Scalar(object.cast<int64_t>());
      } catch (const py::cast_error&) {
        return expected("an int that fits 64 bits");
      }
    case ValueType::kBoolean:
      if (!py::isinstance<py::bool_>(object)) return expected("a bool");
      return Scalar(object.cast<bool>());
    case ValueType::kBigDecimal: {
      const py::object decimal = py::module_::import("decimal").attr("Decimal");
      const bool number = py::isinstance<py::int_>(object) && !py::isinstance<py::bool_>(object);
      if (!py::isinstance<py::str>(object) && !number && !py::isinstance(object, decimal)) {
        return expected("a str, an int or a decimal.Decimal");
      }
      auto parsed = BigDecimal::Parse(py::str(object).cast<std::string>());
      if (!parsed.ok()) return parsed.status().WithContext(what);
      return Scalar(*parsed);
    }
    case ValueType::kOffsetDateTime:
    case ValueType::kLocalDateTime: {
      const bool offset = type == ValueType::kOffsetDateTime;
      if (!py::isinstance(object, datetime.attr("datetime"))) return expected("a datetime.datetime");
      const py::object utcoffset = object.attr("utcoffset")();
      if (offset == utcoffset.is_none()) {
        return expected(offset ? "an aware datetime (with tzinfo)" : "a naive datetime (no tzinfo)");
      }
      py::object epoch = datetime.attr("datetime")(1970, 1, 1);
      if (offset) epoch = epoch.attr("replace")(py::arg("tzinfo") = datetime.attr("timezone").attr("utc"));
      const auto [seconds, micros] = DeltaParts(object - epoch);
      DateTime t;
      t.epoch_seconds = seconds;
      t.nanos = micros * 1000;
      if (offset) t.offset_seconds = static_cast<int32_t>(DeltaParts(utcoffset).first);
      return Scalar(t);
    }
    case ValueType::kLocalDate: {
      if (py::isinstance(object, datetime.attr("datetime")) ||
          !py::isinstance(object, datetime.attr("date"))) {
        return expected("a datetime.date");
      }
      DateTime t;
      t.epoch_seconds = DeltaParts(object - datetime.attr("date")(1970, 1, 1)).first;
      return Scalar(t);
    }
    case ValueType::kDateTimeRange: {
      if ((!py::isinstance<py::tuple>(object) && !py::isinstance<py::list>(object)) || py::len(object) != 2) {
        return expected("a (from, to) pair of aware datetimes or None");
      }
      DateTimeRange range;
      for (size_t side = 0; side < 2; ++side) {
        const py::object bound = object[py::int_(side)];
        if (bound.is_none()) continue;
        auto t = ToScalar(bound, ValueType::kOffsetDateTime, what + (side == 0 ? " from" : " to"));
        if (!t.ok()) return t.status();
        (side == 0 ? range.from : range.to) = std::get<DateTime>(*t);
      }
      return Scalar(range);
    }
    default:
      return Wrong(what, std::string(ValueTypeName(type)) + " values cannot be given from Python (yet)");
  }
}

py::object FromScalar(const Scalar& item, ValueType type) {
  const py::module_ datetime = py::module_::import("datetime");
  switch (type) {
    case ValueType::kString:
    case ValueType::kCharacter:
      return py::str(std::get<std::string>(item));
    case ValueType::kLocale:
      return py::str(std::get<Locale>(item).tag());
    case ValueType::kCurrency:
      return py::str(std::get<Currency>(item).code());
    case ValueType::kByte:
    case ValueType::kShort:
    case ValueType::kInteger:
    case ValueType::kLong:
      return py::int_(std::get<int64_t>(item));
    case ValueType::kBoolean:
      return py::bool_(std::get<bool>(item));
    case ValueType::kBigDecimal:
      return py::module_::import("decimal").attr("Decimal")(std::get<BigDecimal>(item).text());
    case ValueType::kOffsetDateTime:
    case ValueType::kLocalDateTime: {
      const DateTime& t = std::get<DateTime>(item);
      const py::object delta = datetime.attr("timedelta")(py::arg("seconds") = t.epoch_seconds,
                                                          py::arg("microseconds") = t.nanos / 1000);
      if (type == ValueType::kLocalDateTime) return datetime.attr("datetime")(1970, 1, 1) + delta;
      const py::object utc = datetime.attr("timezone").attr("utc");
      const py::object zone =
          datetime.attr("timezone")(datetime.attr("timedelta")(py::arg("seconds") = t.offset_seconds));
      return (datetime.attr("datetime")(1970, 1, 1, py::arg("tzinfo") = utc) + delta)
          .attr("astimezone")(zone);
    }
    case ValueType::kLocalDate:
      return datetime.attr("date")(1970, 1, 1) +
             datetime.attr("timedelta")(py::arg("days") = std::get<DateTime>(item).epoch_seconds / 86400);
    case ValueType::kDateTimeRange: {
      const DateTimeRange& range = std::get<DateTimeRange>(item);
      auto side = [&](const std::optional<DateTime>& t) {
        return t ? FromScalar(*t, ValueType::kOffsetDateTime) : py::object(py::none());
      };
      return py::make_tuple(side(range.from), side(range.to));
    }
    default:
      return py::str(DebugString(*Value::Make(type, {item})));
  }
}

StatusOr<DataItem> ToDataItem(const py::handle& object, const std::string& what) {
  DataItem item;
  if (object.is_none()) return item;
  if (py::isinstance<py::dict>(object)) {
    DataItem::Map map;
    for (const auto& [key, value] : object.cast<py::dict>()) {
      if (!py::isinstance<py::str>(key)) return Wrong(what, "keys must be str, got " + Repr(key));
      auto child = ToDataItem(value, what + "." + key.cast<std::string>());
      if (!child.ok()) return child.status();
      map.emplace(key.cast<std::string>(), std::move(child).value());
    }
    item.content = std::move(map);
  } else if (py::isinstance<py::list>(object)) {
    DataItem::Array array;
    for (const auto& value : object.cast<py::list>()) {
      auto child = ToDataItem(value, what + "[" + std::to_string(array.size()) + "]");
      if (!child.ok()) return child.status();
      array.push_back(std::move(child).value());
    }
    item.content = std::move(array);
  } else {
    const ValueType type = py::isinstance<py::bool_>(object)  ? ValueType::kBoolean
                           : py::isinstance<py::int_>(object) ? ValueType::kLong
                           : py::isinstance<py::str>(object)  ? ValueType::kString
                                                              : ValueType::kBigDecimal;
    auto value = ToValue(object, type, what);
    if (!value.ok()) return value.status();
    item.content = std::move(value).value();
  }
  return item;
}

py::object FromDataItem(const DataItem& item) {
  if (const auto* value = std::get_if<Value>(&item.content)) return FromValue(*value);
  if (const auto* array = std::get_if<DataItem::Array>(&item.content)) {
    py::list out;
    for (const DataItem& child : *array) out.append(FromDataItem(child));
    return out;
  }
  if (const auto* map = std::get_if<DataItem::Map>(&item.content)) {
    py::dict out;
    for (const auto& [key, child] : *map) out[py::str(key)] = FromDataItem(child);
    return out;
  }
  return py::none();
}

// Keys of `object` must be among `known`; `what` names the object in errors.
Status CheckKeys(const py::dict& object, const std::set<std::string>& known, const std::string& what) {
  for (const auto& [key, value] : object) {
    if (!py::isinstance<py::str>(key) || !known.contains(key.cast<std::string>())) {
      std::string list;
      for (const std::string& k : known) list += (list.empty() ? "" : ", ") + k;
      return Wrong(what, "unknown key " + Repr(key) + " (known: " + list + ")");
    }
  }
  return OkStatus();
}

StatusOr<py::dict> DictAt(const py::dict& object, const char* key, const std::string& what) {
  if (!object.contains(key) || object[key].is_none()) return py::dict();
  if (!py::isinstance<py::dict>(object[key])) return Wrong(what + "." + key, "wants a dict");
  return object[key].cast<py::dict>();
}

// Fills `out` from the "attributes" and "localized_attributes" of `object`.
Status ToAttributes(const py::dict& object, const std::map<std::string, AttributeSchema>& schemas,
                    const std::string& what, Attributes* out) {
  auto one = [&](const py::handle& name, const py::handle& value, const std::string& tag) -> Status {
    const std::string key = py::str(name).cast<std::string>();
    auto schema = schemas.find(key);
    const std::string label = what + " attribute '" + key + "'" + (tag.empty() ? "" : " (" + tag + ")");
    if (schema == schemas.end()) return Wrong(label, "not in the schema");
    auto converted = ToValue(value, schema->second.type, label);
    if (!converted.ok()) return converted.status();
    (tag.empty() ? out->global : out->localized[tag]).emplace(key, std::move(converted).value());
    return OkStatus();
  };
  auto global = DictAt(object, "attributes", what);
  if (!global.ok()) return global.status();
  for (const auto& [name, value] : *global) {
    if (Status s = one(name, value, ""); !s.ok()) return s;
  }
  auto localized = DictAt(object, "localized_attributes", what);
  if (!localized.ok()) return localized.status();
  for (const auto& [tag, values] : *localized) {
    if (!py::isinstance<py::dict>(values)) {
      return Wrong(what + " localized_attributes", "wants dicts by locale");
    }
    for (const auto& [name, value] : values.cast<py::dict>()) {
      if (Status s = one(name, value, py::str(tag).cast<std::string>()); !s.ok()) return s;
    }
  }
  return OkStatus();
}

void FromAttributes(const Attributes& attributes, py::dict& out) {
  py::dict global;
  for (const auto& [name, value] : attributes.global) global[py::str(name)] = FromValue(value);
  py::dict localized;
  for (const auto& [tag, values] : attributes.localized) {
    py::dict by_name;
    for (const auto& [name, value] : values) by_name[py::str(name)] = FromValue(value);
    localized[py::str(tag)] = by_name;
  }
  out["attributes"] = global;
  out["localized_attributes"] = localized;
}

}  // namespace

StatusOr<int32_t> KeyFrom(const py::handle& value, const std::string& what) {
  // Any int-like (int, numpy.int64: what __index__ gives), never a bool or a float.
  PyObject* index = py::isinstance<py::bool_>(value) ? nullptr : PyNumber_Index(value.ptr());
  if (index == nullptr) {
    PyErr_Clear();
    return Wrong(what, "wants an int, got " + Repr(value));
  }
  // Compared in Python: an int of any size is refused by its value, never
  // cut to 32 bits (2**32 + 5 is not key 5) nor left to a bare cast error.
  const auto key = py::reinterpret_steal<py::int_>(index);
  if (key < py::int_(INT32_MIN) || key > py::int_(INT32_MAX)) {
    return Wrong(what, "wants a 32-bit int (-2147483648 to 2147483647), got " + Repr(value));
  }
  return key.cast<int32_t>();
}

namespace {

StatusOr<int32_t> IntAt(const py::dict& object, const char* key, const std::string& what) {
  if (!object.contains(key)) return Wrong(what, std::string("needs \"") + key + "\"");
  return KeyFrom(object[key], what + "." + key);
}

StatusOr<Price> ToPrice(const py::handle& object, const std::string& what) {
  if (!py::isinstance<py::dict>(object)) return Wrong(what, "wants a dict");
  const auto p = object.cast<py::dict>();
  if (Status s = CheckKeys(p,
                           {"price_id", "price_list", "currency", "inner_record_id", "price_without_tax",
                            "tax_rate", "price_with_tax", "indexed", "validity"},
                           what);
      !s.ok()) {
    return s;
  }
  Price price;
  auto id = IntAt(p, "price_id", what);
  if (!id.ok()) return id.status();
  price.price_id = *id;
  if (!p.contains("price_list") || !py::isinstance<py::str>(p["price_list"])) {
    return Wrong(what, "needs a str \"price_list\"");
  }
  price.price_list = p["price_list"].cast<std::string>();
  for (auto [key, field, type] :
       {std::tuple{"currency", static_cast<void*>(&price.currency), ValueType::kCurrency},
        std::tuple{"price_without_tax", static_cast<void*>(&price.price_without_tax), ValueType::kBigDecimal},
        std::tuple{"tax_rate", static_cast<void*>(&price.tax_rate), ValueType::kBigDecimal},
        std::tuple{"price_with_tax", static_cast<void*>(&price.price_with_tax), ValueType::kBigDecimal}}) {
    if (!p.contains(key)) return Wrong(what, std::string("needs \"") + key + "\"");
    auto scalar = ToScalar(p[key], type, what + "." + key);
    if (!scalar.ok()) return scalar.status();
    if (type == ValueType::kCurrency) {
      *static_cast<Currency*>(field) = std::get<Currency>(*scalar);
    } else {
      *static_cast<BigDecimal*>(field) = std::get<BigDecimal>(*scalar);
    }
  }
  if (p.contains("inner_record_id") && !p["inner_record_id"].is_none()) {
    auto inner = IntAt(p, "inner_record_id", what);
    if (!inner.ok()) return inner.status();
    price.inner_record_id = *inner;
  }
  if (p.contains("validity") && !p["validity"].is_none()) {
    auto validity = ToScalar(p["validity"], ValueType::kDateTimeRange, what + ".validity");
    if (!validity.ok()) return validity.status();
    price.validity = std::get<DateTimeRange>(*validity);
  }
  if (p.contains("indexed")) {
    if (!py::isinstance<py::bool_>(p["indexed"])) return Wrong(what + ".indexed", "wants a bool");
    price.indexed = p["indexed"].cast<bool>();
  }
  return price;
}

}  // namespace

void Raise(const Status& status) {
  auto type = ErrorTypes().find(status.code());
  PyErr_SetString(type != ErrorTypes().end() ? type->second.ptr() : ErrorTypes().at(StatusCode::kOk).ptr(),
                  status.message().c_str());
  throw py::error_already_set();
}

void RegisterErrors(py::module_& module) {
  // Stored under kOk: the base class, raised for a code without its own.
  py::object base = py::reinterpret_steal<py::object>(PyErr_NewExceptionWithDoc(
      "warmup.Error", "A warmup call failed; the subclass names the status code.", PyExc_Exception, nullptr));
  module.attr("Error") = base;
  ErrorTypes()[StatusCode::kOk] = base;
  for (int code = 1; code <= static_cast<int>(StatusCode::kUnauthenticated); ++code) {
    const auto c = static_cast<StatusCode>(code);
    const std::string name = ErrorName(c);
    py::object type = py::reinterpret_steal<py::object>(
        PyErr_NewException(("warmup." + name).c_str(), base.ptr(), nullptr));
    module.attr(name.c_str()) = type;
    ErrorTypes()[c] = type;
  }
}

StatusOr<Value> ToValue(const py::handle& object, ValueType type, const std::string& what) {
  if (!IsArrayType(type)) {
    auto scalar = ToScalar(object, type, what);
    if (!scalar.ok()) return scalar.status();
    return Value::Make(type, {std::move(scalar).value()});
  }
  if (!py::isinstance<py::list>(object) && !py::isinstance<py::tuple>(object)) {
    return Wrong(what, std::string(ValueTypeName(type)) + " wants a list, got " + Repr(object));
  }
  std::vector<Scalar> items;
  for (const auto& element : object) {
    auto scalar = ToScalar(element, ElementType(type), what + "[" + std::to_string(items.size()) + "]");
    if (!scalar.ok()) return scalar.status();
    items.push_back(std::move(scalar).value());
  }
  auto value = Value::Make(type, std::move(items));
  if (!value.ok()) return value.status().WithContext(what);
  return value;
}

py::object FromValue(const Value& value) {
  if (!value.is_array()) return FromScalar(value.scalar(), value.type());
  py::list out;
  for (const Scalar& item : value.items()) out.append(FromScalar(item, ElementType(value.type())));
  return out;
}

StatusOr<Entity> ToEntity(const py::dict& object, const EntitySchema& schema) {
  Entity e;
  e.type = schema.name;
  auto pk = IntAt(object, "primary_key", "entity");
  if (!pk.ok()) return pk.status();
  e.primary_key = *pk;
  const std::string what = "entity " + EntityLabel(e);
  if (Status s = CheckKeys(
          object,
          {"type", "primary_key", "scope", "parent", "attributes", "localized_attributes", "associated_data",
           "localized_associated_data", "price_inner_record_handling", "prices", "references", "locales"},
          what);
      !s.ok()) {
    return s;
  }
  if (object.contains("type") && py::str(object["type"]).cast<std::string>() != schema.name) {
    return Wrong(what, "\"type\" is " + Repr(object["type"]) + ", not " + schema.name);
  }
  if (object.contains("scope")) {
    const std::string scope = py::str(object["scope"]).cast<std::string>();
    if (scope != "live" && scope != "archived") return Wrong(what + ".scope", "is \"live\" or \"archived\"");
    e.scope = scope == "live" ? Scope::kLive : Scope::kArchived;
  }
  if (object.contains("parent") && !object["parent"].is_none()) {
    auto parent = IntAt(object, "parent", what);
    if (!parent.ok()) return parent.status();
    e.parent = *parent;
  }
  if (Status s = ToAttributes(object, schema.attributes, what, &e.attributes); !s.ok()) return s;
  auto data = [&](const char* key, bool localized) -> Status {
    auto values = DictAt(object, key, what);
    if (!values.ok()) return values.status();
    auto one = [&](const py::handle& name, const py::handle& value, const std::string& tag) -> Status {
      const std::string n = py::str(name).cast<std::string>();
      const std::string label = what + " associated data '" + n + "'";
      auto it = schema.associated_data.find(n);
      if (it == schema.associated_data.end()) return Wrong(label, "not in the schema");
      AssociatedDataValue v;
      if (it->second.type == ValueType::kComplexDataObject) {
        auto item = ToDataItem(value, label);
        if (!item.ok()) return item.status();
        v.content = std::move(item).value();
      } else {
        auto converted = ToValue(value, it->second.type, label);
        if (!converted.ok()) return converted.status();
        v.content = std::move(converted).value();
      }
      (tag.empty() ? e.associated_data.global : e.associated_data.localized[tag]).emplace(n, std::move(v));
      return OkStatus();
    };
    for (const auto& [name, value] : *values) {
      if (!localized) {
        if (Status s = one(name, value, ""); !s.ok()) return s;
        continue;
      }
      if (!py::isinstance<py::dict>(value)) return Wrong(what + "." + key, "wants dicts by locale");
      for (const auto& [inner, v] : value.cast<py::dict>()) {
        if (Status s = one(inner, v, py::str(name).cast<std::string>()); !s.ok()) return s;
      }
    }
    return OkStatus();
  };
  if (Status s = data("associated_data", false); !s.ok()) return s;
  if (Status s = data("localized_associated_data", true); !s.ok()) return s;
  if (object.contains("price_inner_record_handling")) {
    const std::string h = py::str(object["price_inner_record_handling"]).cast<std::string>();
    bool known = false;
    for (auto handling : {PriceInnerRecordHandling::kNone, PriceInnerRecordHandling::kLowestPrice,
                          PriceInnerRecordHandling::kSum}) {
      if (h == PriceInnerRecordHandlingName(handling)) {
        e.price_inner_record_handling = handling;
        known = true;
      }
    }
    if (!known) return Wrong(what + ".price_inner_record_handling", "is NONE, LOWEST_PRICE or SUM, not " + h);
  }
  if (object.contains("prices")) {
    for (const auto& p : object["prices"]) {
      auto price = ToPrice(p, what + " prices[" + std::to_string(e.prices.size()) + "]");
      if (!price.ok()) return price.status();
      e.prices.push_back(std::move(price).value());
    }
  }
  if (object.contains("references")) {
    for (const auto& item : object["references"]) {
      const std::string label = what + " references[" + std::to_string(e.references.size()) + "]";
      if (!py::isinstance<py::dict>(item)) return Wrong(label, "wants a dict");
      const auto r = item.cast<py::dict>();
      if (Status s = CheckKeys(r, {"name", "pk", "group", "attributes", "localized_attributes"}, label);
          !s.ok()) {
        return s;
      }
      if (!r.contains("name")) return Wrong(label, "needs \"name\"");
      Reference reference;
      reference.name = py::str(r["name"]).cast<std::string>();
      const ReferenceSchema* rs = schema.FindReference(reference.name);
      if (rs == nullptr) return Wrong(label, "reference '" + reference.name + "' is not in the schema");
      auto target = IntAt(r, "pk", label);
      if (!target.ok()) return target.status();
      reference.referenced = {rs->referenced_entity_type, *target};
      if (r.contains("group") && !r["group"].is_none()) {
        if (!rs->group_type) return Wrong(label, "reference '" + reference.name + "' has no group type");
        auto group = IntAt(r, "group", label);
        if (!group.ok()) return group.status();
        reference.group = EntityRef{*rs->group_type, *group};
      }
      if (Status s = ToAttributes(r, rs->attributes, label, &reference.attributes); !s.ok()) return s;
      e.references.push_back(std::move(reference));
    }
  }
  e.locales = DeriveLocales(e);
  return e;
}

py::dict FromEntity(const Entity& e) {
  py::dict out;
  out["type"] = e.type;
  out["primary_key"] = e.primary_key;
  out["scope"] = e.scope == Scope::kLive ? "live" : "archived";
  out["parent"] = e.parent ? py::object(py::int_(*e.parent)) : py::object(py::none());
  FromAttributes(e.attributes, out);
  auto data = [](const AssociatedDataValue& v) {
    if (const auto* value = std::get_if<Value>(&v.content)) return FromValue(*value);
    return FromDataItem(std::get<DataItem>(v.content));
  };
  py::dict global;
  for (const auto& [name, value] : e.associated_data.global) global[py::str(name)] = data(value);
  py::dict localized;
  for (const auto& [tag, values] : e.associated_data.localized) {
    py::dict by_name;
    for (const auto& [name, value] : values) by_name[py::str(name)] = data(value);
    localized[py::str(tag)] = by_name;
  }
  out["associated_data"] = global;
  out["localized_associated_data"] = localized;
  out["price_inner_record_handling"] =
      std::string(PriceInnerRecordHandlingName(e.price_inner_record_handling));
  py::list prices;
  for (const Price& p : e.prices) {
    py::dict price;
    price["price_id"] = p.price_id;
    price["price_list"] = p.price_list;
    price["currency"] = p.currency.code();
    price["inner_record_id"] =
        p.inner_record_id ? py::object(py::int_(*p.inner_record_id)) : py::object(py::none());
    const py::object decimal = py::module_::import("decimal").attr("Decimal");
    price["price_without_tax"] = decimal(p.price_without_tax.text());
    price["tax_rate"] = decimal(p.tax_rate.text());
    price["price_with_tax"] = decimal(p.price_with_tax.text());
    price["indexed"] = p.indexed;
    price["validity"] =
        p.validity ? FromScalar(*p.validity, ValueType::kDateTimeRange) : py::object(py::none());
    prices.append(price);
  }
  out["prices"] = prices;
  py::list references;
  for (const Reference& r : e.references) {
    py::dict reference;
    reference["name"] = r.name;
    reference["pk"] = r.referenced.primary_key;
    reference["group"] = r.group ? py::object(py::int_(r.group->primary_key)) : py::object(py::none());
    FromAttributes(r.attributes, reference);
    references.append(reference);
  }
  out["references"] = references;
  py::list locales;
  for (const Locale& l : e.locales) locales.append(l.tag());
  out["locales"] = locales;
  return out;
}

}  // namespace warmup::python
