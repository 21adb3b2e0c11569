#include "engine/index_keys.h"

#include <unicode/coll.h>
#include <unicode/locid.h>
#include <unicode/unistr.h>

#include <limits>
#include <map>

namespace warmup::engine {
namespace {

void AppendOrderedInt(std::string* out, int64_t v) {
  const uint64_t u = static_cast<uint64_t>(v) ^ (1ull << 63);
  for (int i = 7; i >= 0; --i) out->push_back(static_cast<char>(u >> (8 * i)));
}

void AppendDateTime(std::string* out, const DateTime& dt) {
  AppendOrderedInt(out, dt.epoch_seconds);
  AppendOrderedInt(out, dt.nanos);
}

// GCC's 128-bit integer: wide enough for any int64 value times ten.
__extension__ typedef __int128 Int128;

}  // namespace

int64_t ScaleDecimal(const BigDecimal& value, int places) {
  // text = [sign] digits [. digits] [e exp]
  const std::string& t = value.text();
  size_t i = 0;
  bool negative = false;
  if (i < t.size() && (t[i] == '+' || t[i] == '-')) negative = t[i++] == '-';
  std::string digits;
  int scale = 0;
  bool fraction = false;
  for (; i < t.size() && t[i] != 'e' && t[i] != 'E'; ++i) {
    if (t[i] == '.') {
      fraction = true;
    } else {
      digits += t[i];
      if (fraction) ++scale;
    }
  }
  if (i < t.size()) scale -= std::stoi(t.substr(i + 1));
  // value = digits * 10^-scale; want round(value * 10^places).
  Int128 n = 0;
  const Int128 limit = static_cast<Int128>(std::numeric_limits<int64_t>::max());
  for (char c : digits) {
    n = n * 10 + (c - '0');
    if (n > limit * 10) break;
  }
  int shift = places - scale;
  if (shift >= 0) {
    while (shift-- > 0 && n <= limit) n *= 10;
  } else {
    Int128 divisor = 1;
    for (int k = 0; k < -shift && divisor <= limit; ++k) divisor *= 10;
    const Int128 remainder = n % divisor;
    n /= divisor;
    if (remainder * 2 >= divisor) ++n;
  }
  if (n > limit) n = limit;
  return static_cast<int64_t>(negative ? -n : n);
}

std::string ScalarKey(const Scalar& item, ValueType element_type, int decimal_places) {
  std::string out;
  std::visit(
      [&](const auto& v) {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, std::string>) {
          out = v;
        } else if constexpr (std::is_same_v<T, int64_t>) {
          AppendOrderedInt(&out, v);
        } else if constexpr (std::is_same_v<T, bool>) {
          out.push_back(v ? 1 : 0);
        } else if constexpr (std::is_same_v<T, BigDecimal>) {
          AppendOrderedInt(&out, ScaleDecimal(v, decimal_places));
        } else if constexpr (std::is_same_v<T, DateTime>) {
          AppendDateTime(&out, v);
        } else if constexpr (std::is_same_v<T, DateTimeRange>) {
          AppendDateTime(&out, v.from.value_or(DateTime{std::numeric_limits<int64_t>::min(), 0, 0}));
          AppendDateTime(&out, v.to.value_or(DateTime{std::numeric_limits<int64_t>::max(), 0, 0}));
        } else if constexpr (std::is_same_v<T, BigDecimalRange>) {
          AppendOrderedInt(
              &out, v.from ? ScaleDecimal(*v.from, decimal_places) : std::numeric_limits<int64_t>::min());
          AppendOrderedInt(&out,
                           v.to ? ScaleDecimal(*v.to, decimal_places) : std::numeric_limits<int64_t>::max());
        } else if constexpr (std::is_same_v<T, NumberRange>) {
          AppendOrderedInt(&out, v.from.value_or(std::numeric_limits<int64_t>::min()));
          AppendOrderedInt(&out, v.to.value_or(std::numeric_limits<int64_t>::max()));
        } else if constexpr (std::is_same_v<T, Locale>) {
          out = v.tag();
        } else if constexpr (std::is_same_v<T, Currency>) {
          out = v.code();
        } else if constexpr (std::is_same_v<T, Uuid>) {
          AppendOrderedInt(&out, v.most_significant);
          AppendOrderedInt(&out, v.least_significant);
        } else {
          AppendOrderedInt(&out, v.predecessor_pk.value_or(-1));
        }
      },
      item);
  (void)element_type;
  return out;
}

bool IsRangeType(ValueType element_type) {
  switch (element_type) {
    case ValueType::kDateTimeRange:
    case ValueType::kBigDecimalNumberRange:
    case ValueType::kLongNumberRange:
    case ValueType::kIntegerNumberRange:
    case ValueType::kShortNumberRange:
    case ValueType::kByteNumberRange:
      return true;
    default:
      return false;
  }
}

std::pair<std::string, std::string> RangeBoundKeys(const Scalar& range, int decimal_places) {
  const std::string both = ScalarKey(range, ValueType::kDateTimeRange, decimal_places);
  const size_t half = both.size() / 2;  // every range key is its two bounds, each of one fixed width
  return {both.substr(0, half), both.substr(half)};
}

struct CollationKeys::Collators {
  std::map<std::string, std::unique_ptr<icu::Collator>> by_tag;
};

CollationKeys::CollationKeys() : collators_(std::make_unique<Collators>()) {}
CollationKeys::~CollationKeys() = default;

std::string CollationKeys::Key(const std::string& tag, std::string_view text) {
  auto& collators = collators_->by_tag;
  auto it = collators.find(tag);
  if (it == collators.end()) {
    UErrorCode error = U_ZERO_ERROR;
    std::unique_ptr<icu::Collator> collator(
        icu::Collator::createInstance(icu::Locale::forLanguageTag(tag, error), error));
    if (U_FAILURE(error)) collator.reset();
    it = collators.emplace(tag, std::move(collator)).first;
  }
  if (!it->second) return std::string(text);  // no collation for the tag: byte order
  const icu::UnicodeString u =
      icu::UnicodeString::fromUTF8(icu::StringPiece(text.data(), static_cast<int32_t>(text.size())));
  std::string key(static_cast<size_t>(u.length()) * 4 + 16, '\0');
  int32_t n =
      it->second->getSortKey(u, reinterpret_cast<uint8_t*>(key.data()), static_cast<int32_t>(key.size()));
  if (n > static_cast<int32_t>(key.size())) {
    key.resize(static_cast<size_t>(n));
    n = it->second->getSortKey(u, reinterpret_cast<uint8_t*>(key.data()), n);
  }
  key.resize(n > 0 ? static_cast<size_t>(n - 1) : 0);  // drop the terminating NUL
  return key;
}

}  // namespace warmup::engine
