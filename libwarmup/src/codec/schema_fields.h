// The field mappings that the schema's read model (schema_convert), the
// client's write model (schema_mutations) and the server's interpreter
// (schema_interpreter) share: evitaDB's read messages and its create mutations
// carry most schema fields under the same names, so one template reads or
// writes either. Internal to codec/.
#ifndef WARMUP_SRC_CODEC_SCHEMA_FIELDS_H_
#define WARMUP_SRC_CODEC_SCHEMA_FIELDS_H_

#include <optional>
#include <string>
#include <vector>

#include "GrpcEntitySchema.pb.h"
#include "base/status_macros.h"
#include "codec/pb.h"
#include "codec/value_convert.h"
#include "warmup/schema.h"
#include "warmup/status.h"

namespace warmup::codec {

using google::protobuf::RepeatedField;
using google::protobuf::RepeatedPtrField;

// Reads a protocol enum number into one of the model's enums, whose numbers
// equal evitaDB's; numbers beyond `max` (open proto3 enums) are errors.
template <typename E>
StatusOr<E> EnumFrom(int number, E max, const char* field) {
  if (number < 0 || number > static_cast<int>(max)) {
    return InvalidArgumentError(std::string(field) + ": unknown value " + std::to_string(number));
  }
  return static_cast<E>(number);
}

inline std::optional<std::string> OptionalString(bool present, const google::protobuf::StringValue& value) {
  return present ? std::optional<std::string>(value.value()) : std::nullopt;
}

inline StatusOr<std::vector<Scope>> ScopesFrom(const RepeatedField<int>& scopes, const char* field) {
  std::vector<Scope> out;
  for (int s : scopes) {
    WARMUP_ASSIGN_OR_RETURN(Scope scope, EnumFrom(s, Scope::kArchived, field));
    out.push_back(scope);
  }
  return out;
}

inline void ScopesTo(const std::vector<Scope>& scopes, RepeatedField<int>* out) {
  for (Scope s : scopes) out->Add(static_cast<int>(s));
}

template <typename ScopedMessage, typename E>
StatusOr<std::vector<Scoped<E>>> ScopedFrom(const RepeatedPtrField<ScopedMessage>& items, E max,
                                            const char* field) {
  std::vector<Scoped<E>> out;
  for (const auto& item : items) {
    WARMUP_ASSIGN_OR_RETURN(Scope scope, EnumFrom(item.scope(), Scope::kArchived, field));
    int value = 0;
    if constexpr (requires { item.uniquenesstype(); }) {
      value = item.uniquenesstype();
    } else {
      value = item.indextype();
    }
    WARMUP_ASSIGN_OR_RETURN(E e, EnumFrom(value, max, field));
    out.push_back({scope, e});
  }
  return out;
}

template <typename ScopedMessage, typename E>
void ScopedTo(const std::vector<Scoped<E>>& items, RepeatedPtrField<ScopedMessage>* out) {
  for (const auto& item : items) {
    auto* m = out->Add();
    m->set_scope(static_cast<pb::GrpcEntityScope>(item.scope));
    if constexpr (requires { m->uniquenesstype(); }) {
      m->set_uniquenesstype(static_cast<decltype(m->uniquenesstype())>(item.value));
    } else {
      m->set_indextype(static_cast<pb::GrpcReferenceIndexType>(item.value));
    }
  }
}

// Writes the fields shared by the two read messages and the two create mutations.
template <typename Message>
void AttributeTo(const AttributeSchema& a, Message* p) {
  p->set_name(a.name);
  if (a.description) p->mutable_description()->set_value(*a.description);
  if (a.deprecation_notice) p->mutable_deprecationnotice()->set_value(*a.deprecation_notice);
  p->set_localized(a.localized);
  p->set_nullable(a.nullable);
  p->set_representative(a.representative);
  p->set_type(ValueTypeToProto(a.type));
  if (a.default_value) ValueToProto(*a.default_value, p->mutable_defaultvalue());
  p->set_indexeddecimalplaces(a.indexed_decimal_places);
  ScopedTo(a.unique_in_scopes, p->mutable_uniqueinscopes());
  if constexpr (requires { p->mutable_uniquegloballyinscopes(); }) {
    ScopedTo(a.globally_unique_in_scopes, p->mutable_uniquegloballyinscopes());
  }
  ScopesTo(a.filterable_in_scopes, p->mutable_filterableinscopes());
  ScopesTo(a.sortable_in_scopes, p->mutable_sortableinscopes());
}

// Errors: kInvalidArgument naming the field that is wrong.
StatusOr<SortableAttributeCompoundSchema> CompoundFrom(const pb::GrpcSortableAttributeCompoundSchema& p);

// Compound fields shared by the read message and the create mutation.
template <typename Message>
void CompoundTo(const SortableAttributeCompoundSchema& c, Message* p) {
  p->set_name(c.name);
  if (c.description) p->mutable_description()->set_value(*c.description);
  if (c.deprecation_notice) p->mutable_deprecationnotice()->set_value(*c.deprecation_notice);
  for (const auto& e : c.elements) {
    auto* element = p->add_attributeelements();
    element->set_attributename(e.attribute_name);
    element->set_direction(static_cast<pb::GrpcOrderDirection>(e.direction));
    element->set_behaviour(static_cast<pb::GrpcOrderBehaviour>(e.behaviour));
  }
  ScopesTo(c.indexed_in_scopes, p->mutable_indexedinscopes());
}

// Per scope, an optional expression (facetedPartially, bucketedPartially).
template <typename ScopedMessage>
StatusOr<std::vector<Scoped<std::optional<std::string>>>> ScopedExpressionsFrom(
    const RepeatedPtrField<ScopedMessage>& items, const char* field) {
  std::vector<Scoped<std::optional<std::string>>> out;
  for (const auto& item : items) {
    Scoped<std::optional<std::string>> scoped;
    WARMUP_ASSIGN_OR_RETURN(scoped.scope, EnumFrom(item.scope(), Scope::kArchived, field));
    scoped.value = OptionalString(item.has_expression(), item.expression());
    out.push_back(std::move(scoped));
  }
  return out;
}

template <typename ScopedMessage>
void ScopedExpressionsTo(const std::vector<Scoped<std::optional<std::string>>>& in,
                         RepeatedPtrField<ScopedMessage>* out) {
  for (const auto& scoped : in) {
    auto* item = out->Add();
    item->set_scope(static_cast<pb::GrpcEntityScope>(scoped.scope));
    if (scoped.value) item->mutable_expression()->set_value(*scoped.value);
  }
}

// The histogram fields: `bucketed` and `bucketedPartially` in the read
// message, `bucketedInScopes` and `bucketedPartiallyInScopes` in both create
// mutations (the templates; the read message takes the plain overloads).
inline const auto& Bucketed(const pb::GrpcReferenceSchema& p) { return p.bucketed(); }
inline auto* MutableBucketed(pb::GrpcReferenceSchema* p) { return p->mutable_bucketed(); }
inline const auto& BucketedPartially(const pb::GrpcReferenceSchema& p) { return p.bucketedpartially(); }
inline auto* MutableBucketedPartially(pb::GrpcReferenceSchema* p) { return p->mutable_bucketedpartially(); }
template <typename Create>
const auto& Bucketed(const Create& p) {
  return p.bucketedinscopes();
}
template <typename Create>
auto* MutableBucketed(Create* p) {
  return p->mutable_bucketedinscopes();
}
template <typename Create>
const auto& BucketedPartially(const Create& p) {
  return p.bucketedpartiallyinscopes();
}
template <typename Create>
auto* MutableBucketedPartially(Create* p) {
  return p->mutable_bucketedpartiallyinscopes();
}

// Index settings shared by the reference read message and both create mutations.
template <typename Message>
Status ReferenceIndexingFrom(const Message& p, ReferenceSchema* r) {
  WARMUP_ASSIGN_OR_RETURN(
      r->index_types,
      ScopedFrom(p.scopedindextypes(), ReferenceIndexType::kForFilteringAndPartitioning, "scopedIndexTypes"));
  for (const auto& item : p.scopedindexedcomponents()) {
    Scoped<std::vector<ReferenceIndexedComponent>> scoped;
    WARMUP_ASSIGN_OR_RETURN(scoped.scope,
                            EnumFrom(item.scope(), Scope::kArchived, "scopedIndexedComponents"));
    for (int component : item.indexedcomponents()) {
      WARMUP_ASSIGN_OR_RETURN(auto c, EnumFrom(component, ReferenceIndexedComponent::kReferencedGroupEntity,
                                               "scopedIndexedComponents"));
      scoped.value.push_back(c);
    }
    r->indexed_components.push_back(std::move(scoped));
  }
  WARMUP_ASSIGN_OR_RETURN(r->faceted_in_scopes, ScopesFrom(p.facetedinscopes(), "facetedInScopes"));
  WARMUP_ASSIGN_OR_RETURN(r->faceted_partially,
                          ScopedExpressionsFrom(p.facetedpartially(), "facetedPartially"));
  for (const auto& item : Bucketed(p)) {
    HistogramIndexDefinition histogram;
    WARMUP_ASSIGN_OR_RETURN(histogram.scope, EnumFrom(item.scope(), Scope::kArchived, "bucketed"));
    histogram.name = item.nameoftheindex();
    histogram.value_expression = OptionalString(item.has_valueexpression(), item.valueexpression());
    histogram.assigned_when = OptionalString(item.has_assignedwhen(), item.assignedwhen());
    r->bucketed.push_back(std::move(histogram));
  }
  WARMUP_ASSIGN_OR_RETURN(r->bucketed_partially,
                          ScopedExpressionsFrom(BucketedPartially(p), "bucketedPartially"));
  return OkStatus();
}

template <typename Message>
void ReferenceIndexingTo(const ReferenceSchema& r, Message* p) {
  ScopedTo(r.index_types, p->mutable_scopedindextypes());
  for (const auto& scoped : r.indexed_components) {
    auto* item = p->add_scopedindexedcomponents();
    item->set_scope(static_cast<pb::GrpcEntityScope>(scoped.scope));
    for (auto c : scoped.value) {
      item->add_indexedcomponents(static_cast<pb::GrpcReferenceIndexedComponents>(c));
    }
  }
  ScopesTo(r.faceted_in_scopes, p->mutable_facetedinscopes());
  ScopedExpressionsTo(r.faceted_partially, p->mutable_facetedpartially());
  for (const auto& histogram : r.bucketed) {
    auto* item = MutableBucketed(p)->Add();
    item->set_scope(static_cast<pb::GrpcEntityScope>(histogram.scope));
    item->set_nameoftheindex(histogram.name);
    if (histogram.value_expression) item->mutable_valueexpression()->set_value(*histogram.value_expression);
    if (histogram.assigned_when) item->mutable_assignedwhen()->set_value(*histogram.assigned_when);
  }
  ScopedExpressionsTo(r.bucketed_partially, MutableBucketedPartially(p));
}

template <typename Message>
void AssociatedDataTo(const AssociatedDataSchema& d, Message* p) {
  p->set_name(d.name);
  if (d.description) p->mutable_description()->set_value(*d.description);
  if (d.deprecation_notice) p->mutable_deprecationnotice()->set_value(*d.deprecation_notice);
  p->set_type(AssociatedDataTypeToProto(d.type));
  p->set_localized(d.localized);
  p->set_nullable(d.nullable);
}

}  // namespace warmup::codec

#endif  // WARMUP_SRC_CODEC_SCHEMA_FIELDS_H_
