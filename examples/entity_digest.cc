// Builds an evitaDB entity with the public model and prints its content
// digest; shows the error a malformed value gets. Uses only include/warmup.
#include <iostream>

#include "warmup/digest.h"
#include "warmup/entity.h"

int main() {
  using warmup::Value;
  warmup::Entity product;
  product.type = "Product";
  product.primary_key = 42;
  product.attributes.global.emplace("code", Value::String("SKU-42"));
  product.attributes.localized["cs"].emplace("name", Value::String("Čajová konvice"));
  product.attributes.localized["sk"].emplace("name", Value::String("Čajová kanvica"));

  warmup::Price price;
  price.price_id = 1;
  price.price_list = "basic";
  price.currency = *warmup::Currency::Parse("CZK");
  price.price_without_tax = *warmup::BigDecimal::Parse("826.45");
  price.tax_rate = *warmup::BigDecimal::Parse("21");
  price.price_with_tax = *warmup::BigDecimal::Parse("1000.00");
  product.prices.push_back(price);
  product.references.push_back({"brand", {"Brand", 7}, std::nullopt, {}});
  product.locales = warmup::DeriveLocales(product);

  std::cout << "entity " << warmup::EntityLabel(product) << " in " << product.locales.size() << " locales\n"
            << "digest " << warmup::EntityDigest(product).ToHex() << "\n";

  auto bad = warmup::BigDecimal::Parse("1.000,00");
  std::cout << "a malformed price is refused: " << bad.status().ToString() << "\n";
  return 0;
}
