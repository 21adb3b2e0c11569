#include "server/evitaql.h"

#include <doctest/doctest.h>

#include "common/status_matchers.h"

namespace warmup::server {
namespace {

pb::GrpcQueryParam Str(const std::string& s) {
  pb::GrpcQueryParam p;
  p.set_stringvalue(s);
  return p;
}
pb::GrpcQueryParam Int(int32_t n) {
  pb::GrpcQueryParam p;
  p.set_integervalue(n);
  return p;
}

constexpr const char* kPageQuery =
    "query(collection(?), orderBy(entityPrimaryKeyNatural(?)), require(page(?, ?), "
    "entityFetch(attributeContentAll(), "
    "hierarchyContent(), associatedDataContentAll(), priceContentAll(), referenceContentAllWithAttributes(), "
    "dataInLocalesAll())))";

TEST_CASE("the full-content page query parses and binds its parameters") {
  pb::GrpcQueryParam asc;
  asc.set_orderdirectionvalue(pb::ASC);
  auto q = ParseEntityQuery(kPageQuery, {Str("Product"), asc, Int(3), Int(500)});
  REQUIRE_MESSAGE(q.ok(), q.status().ToString());
  CHECK(q->collection == "Product");
  CHECK(q->page_number == 3);
  CHECK(q->page_size == 500);
  CHECK(q->fetch);
  CHECK_FALSE(q->primary_keys.has_value());
}

TEST_CASE("a primary-key set filter, and a count-only query") {
  pb::GrpcQueryParam keys;
  for (int32_t pk : {3, 1, 2}) keys.mutable_integerarrayvalue()->add_value(pk);
  auto q = ParseEntityQuery("query(collection(?), filterBy(entityPrimaryKeyInSet(?)), require(page(?, ?)))",
                            {Str("Brand"), keys, Int(1), Int(0)});
  REQUIRE_OK(q);
  CHECK(*q->primary_keys == std::vector<int32_t>{3, 1, 2});
  CHECK_FALSE(q->fetch);
  CHECK(q->page_size == 0);
}

TEST_CASE("anything outside the subset is refused, naming the constraint") {
  auto unsupported = ParseEntityQuery("query(collection(?), filterBy(attributeEquals(?, ?)))",
                                      {Str("P"), Str("a"), Str("b")});
  CHECK(unsupported.status().message() == "query: constraint attributeEquals (offset 30) is not supported");
  CHECK(ParseEntityQuery("query(collection(?), require(facetSummary()))", {Str("P")})
            .status()
            .message()
            .find("facetSummary") != std::string::npos);
  CHECK(ParseEntityQuery("query(collection('Product'))", {}).status().message().find("literal values") !=
        std::string::npos);
  CHECK(ParseEntityQuery("query(collection(?)", {Str("P")}).status().message().find("expected , or )") !=
        std::string::npos);
  CHECK(ParseEntityQuery("query(collection(?))", {}).status().message() ==
        "query: placeholder 1 has no parameter");
  CHECK(ParseEntityQuery("query(collection(?))", {Int(1)}).status().message().find("wrong type") !=
        std::string::npos);
  CHECK(ParseEntityQuery("query(require(page(?, ?)))", {Int(1), Int(2)}).status().message() ==
        "query: collection(?) is required");
  CHECK(ParseEntityQuery("select * from products", {}).status().code() == StatusCode::kInvalidArgument);
}

TEST_CASE("scope(?) takes a scope array or one scope per ?, and no scope constraint means none named") {
  pb::GrpcQueryParam both;
  both.mutable_scopearrayvalue()->add_value(pb::SCOPE_LIVE);
  both.mutable_scopearrayvalue()->add_value(pb::SCOPE_ARCHIVED);
  auto array = ParseEntityQuery("query(collection(?), filterBy(scope(?)))", {Str("Product"), both});
  REQUIRE_OK(array);
  CHECK(array->scopes == std::vector<Scope>{Scope::kLive, Scope::kArchived});
  pb::GrpcQueryParam archived;
  archived.set_scope(pb::SCOPE_ARCHIVED);
  pb::GrpcQueryParam live;
  live.set_scope(pb::SCOPE_LIVE);
  auto each =
      ParseEntityQuery("query(collection(?), filterBy(scope(?, ?)))", {Str("Product"), archived, live});
  REQUIRE_OK(each);
  CHECK(each->scopes == std::vector<Scope>{Scope::kArchived, Scope::kLive});
  auto none = ParseEntityQuery("query(collection(?))", {Str("Product")});
  REQUIRE_OK(none);
  CHECK(none->scopes.empty());  // the server answers LIVE only, as evitaDB does
  // A scope is a ? parameter: evitaDB's safe mode refuses the literal LIVE.
  CHECK_FALSE(ParseEntityQuery("query(collection(?), filterBy(scope(LIVE)))", {Str("Product")}).ok());
  CHECK_FALSE(ParseEntityQuery("query(collection(?), filterBy(scope(?)))", {Str("Product"), Int(1)}).ok());
}

}  // namespace
}  // namespace warmup::server
