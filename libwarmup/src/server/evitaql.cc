#include "server/evitaql.h"

#include <algorithm>
#include <cctype>
#include <set>

namespace warmup::server {
namespace {

// A constraint as parsed: a name and its arguments (constraints or `?`).
struct Node {
  std::string name;    // empty for a `?` placeholder
  int parameter = -1;  // index of the placeholder
  size_t offset = 0;
  std::vector<Node> children;
};

class Parser {
 public:
  explicit Parser(std::string_view text) : text_(text) {}

  StatusOr<Node> Parse() {
    auto node = Constraint();
    if (!node.ok()) return node;
    Skip();
    if (pos_ != text_.size()) return Error("unexpected text");
    return node;
  }

 private:
  void Skip() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  Status Error(const std::string& what) const {
    return InvalidArgumentError("query: offset " + std::to_string(pos_) + ": " + what);
  }
  StatusOr<Node> Constraint() {
    Skip();
    Node node;
    node.offset = pos_;
    if (pos_ < text_.size() && text_[pos_] == '?') {
      ++pos_;
      node.parameter = next_parameter_++;
      return node;
    }
    while (pos_ < text_.size() && std::isalnum(static_cast<unsigned char>(text_[pos_]))) {
      node.name += text_[pos_++];
    }
    if (node.name.empty()) {
      if (pos_ < text_.size() &&
          (text_[pos_] == '\'' || text_[pos_] == '"' || std::isdigit(text_[pos_]) || text_[pos_] == '@')) {
        return Error("literal values and named parameters are not supported; use ? placeholders");
      }
      return Error("expected a constraint or ?");
    }
    Skip();
    if (pos_ >= text_.size() || text_[pos_] != '(') return Error("expected ( after " + node.name);
    ++pos_;
    Skip();
    if (pos_ < text_.size() && text_[pos_] == ')') {
      ++pos_;
      return node;
    }
    while (true) {
      auto child = Constraint();
      if (!child.ok()) return child;
      node.children.push_back(std::move(child).value());
      Skip();
      if (pos_ < text_.size() && text_[pos_] == ',') {
        ++pos_;
        continue;
      }
      if (pos_ < text_.size() && text_[pos_] == ')') {
        ++pos_;
        return node;
      }
      return Error("expected , or ) in " + node.name);
    }
  }

  std::string_view text_;
  size_t pos_ = 0;
  int next_parameter_ = 0;
};

Status Unsupported(const Node& node) {
  return InvalidArgumentError("query: constraint " + node.name + " (offset " + std::to_string(node.offset) +
                              ") is not supported");
}

class Binder {
 public:
  explicit Binder(const std::vector<pb::GrpcQueryParam>& parameters) : parameters_(parameters) {}

  StatusOr<const pb::GrpcQueryParam*> Parameter(const Node& node, pb::GrpcQueryParam::QueryParamCase expected,
                                                const char* what) const {
    if (node.parameter < 0) {
      return InvalidArgumentError("query: " + std::string(what) + " must be a ? placeholder");
    }
    if (node.parameter >= static_cast<int>(parameters_.size())) {
      return InvalidArgumentError("query: placeholder " + std::to_string(node.parameter + 1) +
                                  " has no parameter");
    }
    const pb::GrpcQueryParam& p = parameters_[static_cast<size_t>(node.parameter)];
    if (p.queryParam_case() != expected) {
      return InvalidArgumentError("query: parameter " + std::to_string(node.parameter + 1) + " (" + what +
                                  ") has the wrong type");
    }
    return &p;
  }

 private:
  const std::vector<pb::GrpcQueryParam>& parameters_;
};

StatusOr<Scope> ScopeOf(pb::GrpcEntityScope scope) {
  switch (scope) {
    case pb::SCOPE_LIVE:
      return Scope::kLive;
    case pb::SCOPE_ARCHIVED:
      return Scope::kArchived;
    default:
      return InvalidArgumentError("query: unknown scope " + std::to_string(static_cast<int>(scope)));
  }
}

// scope(?) with a scope array, or scope(?, ...) with one scope each, as
// evitaDB's parser takes them (EvitaQL's variadic value tokens).
StatusOr<std::vector<Scope>> BindScopes(const Binder& bind, const Node& node) {
  std::vector<Scope> scopes;
  auto add = [&](pb::GrpcEntityScope scope) -> Status {
    auto s = ScopeOf(scope);
    if (!s.ok()) return s.status();
    if (std::find(scopes.begin(), scopes.end(), *s) == scopes.end()) scopes.push_back(*s);
    return OkStatus();
  };
  if (node.children.size() == 1) {
    auto array = bind.Parameter(node.children[0], pb::GrpcQueryParam::kScopeArrayValue, "scope");
    if (array.ok()) {
      for (const int value : (*array)->scopearrayvalue().value()) {
        if (Status s = add(static_cast<pb::GrpcEntityScope>(value)); !s.ok()) return s;
      }
      if (scopes.empty()) return InvalidArgumentError("query: scope(?) with no scope");
      return scopes;
    }
  }
  for (const Node& child : node.children) {
    auto one = bind.Parameter(child, pb::GrpcQueryParam::kScope, "scope");
    if (!one.ok()) return one.status();
    if (Status s = add((*one)->scope()); !s.ok()) return s;
  }
  return scopes;
}

}  // namespace

StatusOr<EntityQuery> ParseEntityQuery(std::string_view query,
                                       const std::vector<pb::GrpcQueryParam>& parameters) {
  auto root = Parser(query).Parse();
  if (!root.ok()) return root.status();
  if (root->name != "query") return Unsupported(*root);
  const Binder bind(parameters);
  EntityQuery out;
  bool have_collection = false;
  for (const Node& part : root->children) {
    if (part.name == "collection" && part.children.size() == 1) {
      auto p = bind.Parameter(part.children[0], pb::GrpcQueryParam::kStringValue, "collection");
      if (!p.ok()) return p.status();
      out.collection = (*p)->stringvalue();
      have_collection = true;
    } else if (part.name == "filterBy") {
      for (const Node& filter : part.children) {
        if (filter.name == "scope" && !filter.children.empty()) {
          auto scopes = BindScopes(bind, filter);
          if (!scopes.ok()) return scopes.status();
          out.scopes = *std::move(scopes);
          continue;
        }
        if (filter.name != "entityPrimaryKeyInSet" || filter.children.size() != 1) return Unsupported(filter);
        auto p = bind.Parameter(filter.children[0], pb::GrpcQueryParam::kIntegerArrayValue,
                                "entityPrimaryKeyInSet");
        if (!p.ok()) return p.status();
        out.primary_keys = std::vector<int32_t>((*p)->integerarrayvalue().value().begin(),
                                                (*p)->integerarrayvalue().value().end());
      }
    } else if (part.name == "orderBy") {
      for (const Node& order : part.children) {
        if (order.name != "entityPrimaryKeyNatural") return Unsupported(order);
        for (const Node& direction : order.children) {
          auto p = bind.Parameter(direction, pb::GrpcQueryParam::kOrderDirectionValue, "order direction");
          if (!p.ok()) return p.status();
          if ((*p)->orderdirectionvalue() != pb::ASC) {
            return InvalidArgumentError("query: only ascending primary-key order is supported");
          }
        }
      }
    } else if (part.name == "require") {
      static const std::set<std::string> kContent = {"attributeContentAll",
                                                     "hierarchyContent",
                                                     "associatedDataContentAll",
                                                     "priceContentAll",
                                                     "referenceContentAllWithAttributes",
                                                     "dataInLocalesAll"};
      for (const Node& requirement : part.children) {
        if (requirement.name == "page" && requirement.children.size() == 2) {
          auto number =
              bind.Parameter(requirement.children[0], pb::GrpcQueryParam::kIntegerValue, "page number");
          if (!number.ok()) return number.status();
          auto size = bind.Parameter(requirement.children[1], pb::GrpcQueryParam::kIntegerValue, "page size");
          if (!size.ok()) return size.status();
          out.page_number = (*number)->integervalue();
          out.page_size = (*size)->integervalue();
          if (out.page_number < 1 || out.page_size < 0) {
            return InvalidArgumentError("query: page(number >= 1, size >= 0) expected");
          }
        } else if (requirement.name == "entityFetch") {
          for (const Node& content : requirement.children) {
            if (!kContent.contains(content.name) || !content.children.empty()) return Unsupported(content);
          }
          out.fetch = true;
        } else {
          return Unsupported(requirement);
        }
      }
    } else {
      return Unsupported(part);
    }
  }
  if (!have_collection) return InvalidArgumentError("query: collection(?) is required");
  return out;
}

}  // namespace warmup::server
