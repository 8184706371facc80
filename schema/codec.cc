#include "schema/codec.h"

#include <flatbuffers/idl.h>
#include <flatbuffers/reflection.h>

#include <cstdio>
#include <map>
#include <memory>
#include <mutex>
#include <regex>

#include "base/hash.h"
#include "schema/event_generated.h"
#include "schema/embedded_schema.h"
#include "schema/text.h"

namespace adjutant::schema {
namespace {

constexpr std::string_view kNamespace = "adjutant.fb.";

// One parser per root type and use, built once from the embedded schema.
// kRender's lets a string's bytes that are not UTF-8 through to its output
// as flatbuffers' "\xHH" escapes (ToJson turns each into "\ufffd"), so that
// a record an older version made with such bytes still renders; kParse's
// refuses them in the JSON it reads.
enum class Use { kParse, kRender };

flatbuffers::Parser* ParserFor(std::string_view table, Use use = Use::kParse) {
  static std::mutex mu;
  static std::map<std::pair<std::string, Use>, std::unique_ptr<flatbuffers::Parser>, std::less<>> parsers;
  std::lock_guard<std::mutex> lock(mu);
  auto key = std::make_pair(std::string(table), use);
  auto it = parsers.find(key);
  if (it != parsers.end()) return it->second.get();
  auto p = std::make_unique<flatbuffers::Parser>();
  p->opts.strict_json = true;
  p->opts.allow_non_utf8 = use == Use::kRender;
  p->opts.indent_step = -1;  // one line
  p->opts.output_default_scalars_in_json = true;
  auto bfbs = BinarySchema();
  if (!p->Deserialize(bfbs.data(), bfbs.size())) return nullptr;
  std::string qualified = std::string(kNamespace) + std::string(table);
  if (!p->SetRootType(qualified.c_str())) return nullptr;
  auto* raw = p.get();
  parsers.emplace(std::move(key), std::move(p));
  return raw;
}

const reflection::Schema& ReflectionSchema() {
  return *reflection::GetSchema(BinarySchema().data());
}

// flatc's messages look like "file.json:3: 12: error: expecting: ...";
// make them "file.json:3:12: expecting: ...".
std::string TidyParseError(const std::string& raw) {
  static const std::regex kShape(R"(^(.*?):(\d+): (\d+): error: ([\s\S]*?)\s*$)");
  std::smatch m;
  if (std::regex_match(raw, m, kShape)) {
    return m[1].str() + ":" + m[2].str() + ":" + m[3].str() + ": " + m[4].str();
  }
  return raw;
}

// Fields people write prose in: a ruling's or a written order's text, a
// directive's reason, a scenario's description; and a GA's dice script (the
// desk's DeskRun.script: values a line, # comments). Only these may hold a
// line break or a tab.
bool FreeTextField(std::string_view name) {
  return name == "text" || name == "reason" || name == "description" || name == "detail" || name == "script";
}

Status CheckStringAt(const std::string& path, std::string_view field, const flatbuffers::String* s) {
  if (s == nullptr) return Status::Ok();
  // A login's password is a secret that is compared, never shown: only a NUL is refused in it.
  const bool secret = field == "password";
  const TextRule rule = secret ? TextRule::kSecret : FreeTextField(field) ? TextRule::kFreeText : TextRule::kName;
  return CheckText(path, s->string_view(), rule);
}

// Walks every string reachable from table `t` of type `obj`: fields, vectors
// of strings, tables, vectors of tables and unions. `path` is the field path
// so far ("orders[2].body").
Status CheckStrings(const reflection::Schema& s, const reflection::Object& obj, const flatbuffers::Table& t,
                    std::string* path, int depth) {
  if (depth > 64) return Status::InvalidArgument(*path + ": nested too deeply");
  for (const reflection::Field* f : *obj.fields()) {
    const auto bt = f->type()->base_type();
    if (bt != reflection::String && bt != reflection::Obj && bt != reflection::Union && bt != reflection::Vector) continue;
    if (t.GetOptionalFieldOffset(f->offset()) == 0) continue;
    const size_t mark = path->size();
    if (!path->empty()) *path += ".";
    *path += f->name()->str();
    Status st = Status::Ok();
    if (bt == reflection::String) {
      st = CheckStringAt(*path, f->name()->string_view(), t.GetPointer<const flatbuffers::String*>(f->offset()));
    } else if (bt == reflection::Obj) {
      const reflection::Object* o = s.objects()->Get(static_cast<flatbuffers::uoffset_t>(f->type()->index()));
      const auto* sub = t.GetPointer<const flatbuffers::Table*>(f->offset());
      if (!o->is_struct() && sub) st = CheckStrings(s, *o, *sub, path, depth + 1);
    } else if (bt == reflection::Union) {
      const uint8_t type = t.GetField<uint8_t>(static_cast<flatbuffers::voffset_t>(f->offset() - sizeof(flatbuffers::voffset_t)), 0);
      const reflection::Enum* e = s.enums()->Get(static_cast<flatbuffers::uoffset_t>(f->type()->index()));
      const reflection::EnumVal* ev = e->values()->LookupByKey(type);
      const auto* sub = t.GetPointer<const flatbuffers::Table*>(f->offset());
      if (ev && ev->union_type() && ev->union_type()->index() >= 0 && sub) {
        const reflection::Object* member = s.objects()->Get(static_cast<flatbuffers::uoffset_t>(ev->union_type()->index()));
        if (!member->is_struct()) st = CheckStrings(s, *member, *sub, path, depth + 1);
      }
    } else if (f->type()->element() == reflection::String) {
      const auto* v = t.GetPointer<const flatbuffers::Vector<flatbuffers::Offset<flatbuffers::String>>*>(f->offset());
      for (flatbuffers::uoffset_t i = 0; v && st.ok() && i < v->size(); ++i) {
        st = CheckStringAt(*path + "[" + std::to_string(i) + "]", f->name()->string_view(), v->Get(i));
      }
    } else if (f->type()->element() == reflection::Obj) {
      const reflection::Object* o = s.objects()->Get(static_cast<flatbuffers::uoffset_t>(f->type()->index()));
      const auto* v = t.GetPointer<const flatbuffers::Vector<flatbuffers::Offset<flatbuffers::Table>>*>(f->offset());
      for (flatbuffers::uoffset_t i = 0; v && !o->is_struct() && st.ok() && i < v->size(); ++i) {
        const size_t at = path->size();
        *path += "[" + std::to_string(i) + "]";
        st = CheckStrings(s, *o, *v->Get(i), path, depth + 1);
        if (st.ok()) path->resize(at);
      }
    }
    if (!st.ok()) return st;
    path->resize(mark);
  }
  return Status::Ok();
}

}  // namespace

Status CheckText(std::string_view field, std::string_view text, TextRule rule) {
  const auto f = FindTextFault(text, rule);
  if (!f) return Status::Ok();
  if (!f->code_point) {
    return Status::InvalidArgument(std::string(field) + ": invalid UTF-8 at byte " + std::to_string(f->at));
  }
  const std::string what = f->what;
  return Status::InvalidArgument(std::string(field) + ": " + TextFaultName(text, *f) + " is not allowed" +
                                 (rule == TextRule::kFreeText && what == "a control character"
                                      ? " (free text may hold line breaks and tabs only)"
                                      : ""));
}

std::span<const uint8_t> BinarySchema() {
  return {kEmbeddedSchema, kEmbeddedSchemaSize};
}

uint64_t SchemaHash() {
  static const uint64_t h = Hash64(std::string_view(
      reinterpret_cast<const char*>(kEmbeddedSchema), kEmbeddedSchemaSize));
  return h;
}

Result<std::vector<uint8_t>> ParseJson(std::string_view table, std::string_view json,
                                       std::string_view filename) {
  flatbuffers::Parser* p = ParserFor(table);
  if (p == nullptr) return Status::InvalidArgument("schema has no table " + std::string(table));
  std::string text(json);  // the parser needs a terminating NUL
  std::string name(filename);
  static std::mutex mu;
  std::lock_guard<std::mutex> lock(mu);
  p->builder_.Clear();
  if (!p->ParseJson(text.c_str(), name.c_str())) {
    return Status::InvalidArgument(TidyParseError(p->error_));
  }
  const uint8_t* b = p->builder_.GetBufferPointer();
  std::vector<uint8_t> out(b, b + p->builder_.GetSize());
  // Every string of every input document, one check (schema/codec.h).
  const auto& schema = ReflectionSchema();
  const std::string qualified = std::string(kNamespace) + std::string(table);
  if (const reflection::Object* obj = schema.objects()->LookupByKey(qualified.c_str())) {
    std::string path;
    Status st = CheckStrings(schema, *obj, *flatbuffers::GetAnyRoot(out.data()), &path, 0);
    if (!st.ok()) return Status::InvalidArgument(name + ": " + st.message());
  }
  return out;
}

namespace {

// Whether FlatBuffers' text generator can print a (verified) table: every
// union value present has its type, and the type is one this schema knows
// (the generator asserts on the first, and a buffer from damage or from a
// newer schema can have either). Walks the tables reachable through fields,
// vectors of tables and unions.
bool Renderable(const reflection::Schema& s, const reflection::Object& obj, const flatbuffers::Table& t, int depth) {
  if (depth > 64) return false;
  for (const reflection::Field* f : *obj.fields()) {
    const auto bt = f->type()->base_type();
    if (bt == reflection::Union) {
      if (t.GetOptionalFieldOffset(f->offset()) == 0) continue;
      const uint8_t type = t.GetField<uint8_t>(static_cast<flatbuffers::voffset_t>(f->offset() - sizeof(flatbuffers::voffset_t)), 0);
      if (type == 0) return false;  // a value without its type
      const reflection::Enum* e = s.enums()->Get(static_cast<flatbuffers::uoffset_t>(f->type()->index()));
      const reflection::EnumVal* ev = e->values()->LookupByKey(type);
      if (!ev || !ev->union_type() || ev->union_type()->index() < 0) return false;  // a member this schema does not know
      const reflection::Object* member = s.objects()->Get(static_cast<flatbuffers::uoffset_t>(ev->union_type()->index()));
      const auto* sub = t.GetPointer<const flatbuffers::Table*>(f->offset());
      if (sub && !member->is_struct() && !Renderable(s, *member, *sub, depth + 1)) return false;
    } else if (bt == reflection::Obj) {
      const reflection::Object* o = s.objects()->Get(static_cast<flatbuffers::uoffset_t>(f->type()->index()));
      if (o->is_struct()) continue;
      const auto* sub = t.GetPointer<const flatbuffers::Table*>(f->offset());
      if (sub && !Renderable(s, *o, *sub, depth + 1)) return false;
    } else if (bt == reflection::Vector && f->type()->element() == reflection::Obj) {
      const reflection::Object* o = s.objects()->Get(static_cast<flatbuffers::uoffset_t>(f->type()->index()));
      if (o->is_struct()) continue;
      const auto* v = t.GetPointer<const flatbuffers::Vector<flatbuffers::Offset<flatbuffers::Table>>*>(f->offset());
      if (!v) continue;
      for (flatbuffers::uoffset_t i = 0; i < v->size(); ++i) {
        if (!Renderable(s, *o, *v->Get(i), depth + 1)) return false;
      }
    }
  }
  return true;
}

// flatbuffers' text generator writes a string's byte that is not UTF-8 as
// "\xHH", which JSON does not have: each becomes "\ufffd", the replacement
// character, as base's SafeText mends such a byte. Field names are
// identifiers, so a backslash is always within a string and begins an escape.
void MendByteEscapes(std::string& json) {
  std::string out;
  out.reserve(json.size());
  for (size_t i = 0; i < json.size(); ++i) {
    if (json[i] != '\\' || i + 1 >= json.size()) {
      out += json[i];
    } else if (json[i + 1] == 'x' && i + 3 < json.size()) {
      out += "\\ufffd";
      i += 3;
    } else {
      out += json[i];
      out += json[++i];
    }
  }
  json = std::move(out);
}

}  // namespace

Result<std::string> ToJson(std::string_view table, const uint8_t* buffer) {
  flatbuffers::Parser* p = ParserFor(table, Use::kRender);
  if (p == nullptr) return Status::InvalidArgument("schema has no table " + std::string(table));
  {
    const auto& schema = ReflectionSchema();
    const std::string qualified = std::string(kNamespace) + std::string(table);
    const reflection::Object* obj = schema.objects()->LookupByKey(qualified.c_str());
    if (obj && !Renderable(schema, *obj, *flatbuffers::GetAnyRoot(buffer), 0)) {
      return Status::Corruption("cannot render " + std::string(table) +
                                " as JSON: a union's value without a type this schema knows");
    }
  }
  std::string out;
  if (!flatbuffers::GenerateText(*p, buffer, &out)) {
    return Status::Corruption("cannot render " + std::string(table) + " as JSON");
  }
  if (out.find("\\x") != std::string::npos) MendByteEscapes(out);
  return out;
}

uint32_t CopyRootTable(flatbuffers::FlatBufferBuilder& fbb, std::string_view table,
                       const uint8_t* buffer) {
  const auto& schema = ReflectionSchema();
  std::string qualified = std::string(kNamespace) + std::string(table);
  const reflection::Object* obj = schema.objects()->LookupByKey(qualified.c_str());
  assert(obj != nullptr);
  const auto& root = *flatbuffers::GetAnyRoot(buffer);
  return flatbuffers::CopyTable(fbb, schema, *obj, root).o;
}

uint32_t CopyTable(flatbuffers::FlatBufferBuilder& fbb, std::string_view table, const void* table_ptr) {
  const auto& schema = ReflectionSchema();
  std::string qualified = std::string(kNamespace) + std::string(table);
  const reflection::Object* obj = schema.objects()->LookupByKey(qualified.c_str());
  assert(obj != nullptr);
  return flatbuffers::CopyTable(fbb, schema, *obj, *reinterpret_cast<const flatbuffers::Table*>(table_ptr)).o;
}

bool VerifyEventBuffer(const uint8_t* data, size_t size) {
  flatbuffers::Verifier v(data, size);
  return fb::VerifyEventBuffer(v);
}

bool VerifyTableBuffer(std::string_view table, const uint8_t* data, size_t size) {
  const auto& schema = ReflectionSchema();
  std::string qualified = std::string(kNamespace) + std::string(table);
  const reflection::Object* obj = schema.objects()->LookupByKey(qualified.c_str());
  if (obj == nullptr) return false;
  return flatbuffers::Verify(schema, *obj, data, size);
}

std::string PayloadKind(const fb::Event& e) { return fb::EnumNamePayload(e.payload_type()); }

std::string EventKind(const fb::Event& e) {
  if (auto* s = e.payload_as_SowEvent()) return fb::EnumNameSowEventBody(s->body_type());
  if (auto* p = e.payload_as_PateEvent()) return fb::EnumNamePateEventBody(p->body_type());
  if (auto* y = e.payload_as_Y1820Event()) return fb::EnumNameY1820EventBody(y->body_type());
  if (auto* d = e.payload_as_DogEvent()) return fb::EnumNameDogEventBody(d->body_type());
  return PayloadKind(e);
}

}  // namespace adjutant::schema
