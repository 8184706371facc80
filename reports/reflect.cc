#include "reports/reflect.h"

#include "schema/codec.h"
#include "schema/event_generated.h"

namespace adjutant::reports {

namespace {
constexpr std::string_view kNs = "adjutant.fb.";
}  // namespace

const reflection::Schema& Schema() { return *reflection::GetSchema(schema::BinarySchema().data()); }

std::string_view ShortName(const reflection::Object& o) {
  std::string_view n = o.name()->string_view();
  if (n.substr(0, kNs.size()) == kNs) n.remove_prefix(kNs.size());
  return n;
}

const reflection::Field* FieldOf(const reflection::Object& o, std::string_view name) {
  return o.fields()->LookupByKey(std::string(name).c_str());
}

const reflection::Object* UnionMember(const flatbuffers::Table& t, const reflection::Object& o, std::string_view field,
                                      const flatbuffers::Table** value) {
  const reflection::Field* u = FieldOf(o, field);
  const reflection::Field* ut = FieldOf(o, std::string(field) + "_type");
  if (u == nullptr || ut == nullptr || u->type()->base_type() != reflection::Union) return nullptr;
  const int64_t type = flatbuffers::GetAnyFieldI(t, *ut);
  if (type == 0) return nullptr;
  const auto* e = Schema().enums()->Get(static_cast<uint32_t>(u->type()->index()));
  const auto* v = e->values()->LookupByKey(type);
  if (v == nullptr || v->union_type()->index() < 0) return nullptr;
  *value = flatbuffers::GetFieldT(t, *u);
  if (*value == nullptr) return nullptr;
  return Schema().objects()->Get(static_cast<uint32_t>(v->union_type()->index()));
}

const reflection::Object* EventBody(const fb::Event& e, const flatbuffers::Table** body) {
  static const reflection::Object* event_obj = Schema().objects()->LookupByKey("adjutant.fb.Event");
  const auto* et = reinterpret_cast<const flatbuffers::Table*>(&e);
  const flatbuffers::Table* payload = nullptr;
  const reflection::Object* po = UnionMember(*et, *event_obj, "payload", &payload);
  if (po == nullptr) return nullptr;
  const flatbuffers::Table* inner = nullptr;
  if (const reflection::Object* io = UnionMember(*payload, *po, "body", &inner)) {
    *body = inner;
    return io;
  }
  *body = payload;
  return po;
}

std::optional<std::string> StringField(const flatbuffers::Table& t, const reflection::Object& o, std::string_view name) {
  const reflection::Field* f = FieldOf(o, name);
  if (f == nullptr || f->type()->base_type() != reflection::String) return std::nullopt;
  const flatbuffers::String* s = flatbuffers::GetFieldS(t, *f);
  if (s == nullptr) return std::nullopt;
  return s->str();
}

}  // namespace adjutant::reports
