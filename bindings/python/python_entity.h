// Entities and values between Python and the model: an entity is a dict (the
// layout in warmup/_warmup.pyi), a value the Python object of its type. The
// schema decides each value's type, so a Python int can be an INTEGER or a
// LONG as the attribute says.
#ifndef WARMUP_BINDINGS_PYTHON_PYTHON_ENTITY_H_
#define WARMUP_BINDINGS_PYTHON_PYTHON_ENTITY_H_

#include <pybind11/pybind11.h>

#include <string>

#include "warmup/entity.h"
#include "warmup/schema.h"
#include "warmup/status.h"
#include "warmup/value.h"

namespace warmup::python {

// Raises the warmup.Error subclass of `status`'s code with its message.
// REQUIRES: !status.ok().
[[noreturn]] void Raise(const Status& status);
inline void Check(const Status& status) {
  if (!status.ok()) Raise(status);
}
template <typename T>
T Unwrap(StatusOr<T> value) {
  if (!value.ok()) Raise(value.status());
  return std::move(value).value();
}

// Creates warmup.Error and one subclass per status code in `module`.
void RegisterErrors(pybind11::module_& module);

// `object` as a value of `type`: str for STRING, CHARACTER, LOCALE and
// CURRENCY; int for the integer types; bool; str, int or decimal.Decimal for
// BIG_DECIMAL; an aware datetime.datetime for OFFSET_DATE_TIME, a naive one
// for LOCAL_DATE_TIME, datetime.date for LOCAL_DATE; a list of those for the
// array types. Errors: kInvalidArgument naming `what`, the type and the object.
StatusOr<Value> ToValue(const pybind11::handle& object, ValueType type, const std::string& what);
// The Python object of `value` (as ToValue takes it); the types ToValue does
// not take come back as their text (DebugString).
pybind11::object FromValue(const Value& value);

// The entity a dict describes, its values typed by `schema`.
// Errors: kInvalidArgument naming the key or value that is wrong.
StatusOr<Entity> ToEntity(const pybind11::dict& entity, const EntitySchema& schema);

// A primary key (or any 32-bit key) from Python: an int in int32's range.
// Errors: kInvalidArgument naming `what` and the value (a bool, a float, an
// int beyond 32 bits such as 2**70).
StatusOr<int32_t> KeyFrom(const pybind11::handle& value, const std::string& what);
pybind11::dict FromEntity(const Entity& entity);

}  // namespace warmup::python

#endif  // WARMUP_BINDINGS_PYTHON_PYTHON_ENTITY_H_
