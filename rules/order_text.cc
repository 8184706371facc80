// The text order form (order_text.h): a reader and a printer driven by the
// binary schema (flatbuffers reflection) and the words of
// rules/order_words.cc. The reader writes the orders as the schema's JSON
// and hands it to schema::ParseJson, so the bytes (and every check on the
// strings) are those of the JSON form; nothing here builds a buffer by hand.
#include "rules/order_text.h"

#include <flatbuffers/reflection.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <optional>

#include "base/text.h"
#include "rules/spelling.h"
#include "schema/codec.h"
#include "schema/inputs_generated.h"

namespace adjutant::rules {
namespace {

using reflection::BaseType;

constexpr std::string_view kNs = "adjutant.fb.";

const reflection::Schema& Schema() { return *reflection::GetSchema(schema::BinarySchema().data()); }

const reflection::Object* ObjectNamed(std::string_view name) {
  std::string q = std::string(kNs) + std::string(name);
  return Schema().objects()->LookupByKey(q.c_str());
}

std::string_view ShortName(const flatbuffers::String* s) {
  std::string_view n = s->string_view();
  if (n.substr(0, kNs.size()) == kNs) n.remove_prefix(kNs.size());
  return n;
}

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// "attach_to" -> "attach-to"; a money field "amount_cc" -> "amount" (it is
// written in crowns).
std::string Dashed(std::string_view field) {
  if (field.size() > 3 && field.substr(field.size() - 3) == "_cc") field.remove_suffix(3);
  std::string out = Lower(field);
  std::replace(out.begin(), out.end(), '_', '-');
  return out;
}

// "LineAhead" -> "line-ahead", "IN" -> "in", "VeryGood" -> "very-good".
std::string EnumWord(std::string_view name) {
  // The book's abbreviations (IN, SL) stay as they are written.
  if (std::all_of(name.begin(), name.end(), [](char c) { return std::isupper(static_cast<unsigned char>(c)) != 0; })) {
    return std::string(name);
  }
  std::string out;
  for (size_t i = 0; i < name.size(); ++i) {
    const char c = name[i];
    const bool upper = std::isupper(static_cast<unsigned char>(c)) != 0;
    if (upper && i > 0 && std::islower(static_cast<unsigned char>(name[i - 1])) != 0) out += '-';
    out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return out;
}

std::vector<std::string_view> SplitSpaces(std::string_view s) {
  std::vector<std::string_view> out;
  size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && s[i] == ' ') ++i;
    size_t j = i;
    while (j < s.size() && s[j] != ' ') ++j;
    if (j > i) out.push_back(s.substr(i, j - i));
    i = j;
  }
  return out;
}

// "; did you mean 'sail'?" when a candidate is near enough (rules/spelling), else "".
std::string Nearest(std::string_view word, const std::vector<std::string>& candidates) {
  const std::optional<std::string> near = NearestSpelling(word, candidates);
  return near ? "; did you mean '" + *near + "'?" : "";
}

std::vector<const reflection::Field*> FieldsById(const reflection::Object& obj) {
  std::vector<const reflection::Field*> out(obj.fields()->begin(), obj.fields()->end());
  std::sort(out.begin(), out.end(), [](auto* a, auto* b) { return a->id() < b->id(); });
  return out;
}

const reflection::Field* FieldNamed(const reflection::Object& obj, std::string_view name) {
  return obj.fields()->LookupByKey(std::string(name).c_str());
}

bool IsIntType(BaseType t) { return t >= reflection::Byte && t <= reflection::ULong; }
bool IsFloatType(BaseType t) { return t == reflection::Float || t == reflection::Double; }

const reflection::Enum* EnumOf(const reflection::Type& t) {
  const BaseType bt = t.base_type() == reflection::Vector ? t.element() : t.base_type();
  if (!IsIntType(bt) || t.index() < 0) return nullptr;
  return Schema().enums()->Get(static_cast<uint32_t>(t.index()));
}

// The table of a table field or of a list of tables (not of structs).
const reflection::Object* ObjOf(const reflection::Type& t) {
  if (t.index() < 0) return nullptr;
  if (t.base_type() == reflection::Vector && t.element() == reflection::Obj &&
      Schema().objects()->Get(static_cast<uint32_t>(t.index()))->is_struct()) {
    return nullptr;
  }
  const BaseType bt = t.base_type();
  if (bt == reflection::Obj || (bt == reflection::Vector && t.element() == reflection::Obj)) {
    return Schema().objects()->Get(static_cast<uint32_t>(t.index()));
  }
  return nullptr;
}

// A union's type field ("body_type") is written with its union, never alone.
bool IsUnionTypeField(const reflection::Field& f) { return f.type()->base_type() == reflection::UType; }

std::vector<std::string> EnumValueWords(const reflection::Enum& e, std::string_view value_name) {
  std::vector<std::string> out{Lower(EnumWord(value_name))};
  if (Lower(value_name) != out[0]) out.push_back(Lower(value_name));
  for (const auto& a : EnumAliases()) {
    if (a.enum_name == ShortName(e.name()) && a.value == value_name) {
      for (auto w : SplitSpaces(a.aliases)) out.push_back(Lower(w));
    }
  }
  return out;
}

// ---- JSON out (in the schema's field order, so the bytes match) --------------

struct JVal {
  enum Kind { kRaw, kStr, kList, kObj } kind = kRaw;
  std::string text;                                // kRaw: a JSON literal; kStr: the string
  std::vector<JVal> items;                         // kList
  std::map<std::string, JVal, std::less<>> fields;  // kObj
  const reflection::Object* obj = nullptr;          // kObj
};

void JsonString(std::string& out, std::string_view s) {
  out += '"';
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else {
      out += static_cast<char>(c);
    }
  }
  out += '"';
}

void Emit(std::string& out, const JVal& v) {
  switch (v.kind) {
    case JVal::kRaw: out += v.text; return;
    case JVal::kStr: JsonString(out, v.text); return;
    case JVal::kList: {
      out += '[';
      for (size_t i = 0; i < v.items.size(); ++i) {
        if (i) out += ',';
        Emit(out, v.items[i]);
      }
      out += ']';
      return;
    }
    case JVal::kObj: {
      out += '{';
      bool first = true;
      for (const auto* f : FieldsById(*v.obj)) {
        auto it = v.fields.find(f->name()->string_view());
        if (it == v.fields.end()) continue;
        if (!first) out += ',';
        first = false;
        JsonString(out, f->name()->string_view());
        out += ':';
        Emit(out, it->second);
      }
      out += '}';
      return;
    }
  }
}

JVal Obj(const reflection::Object* o) {
  JVal v;
  v.kind = JVal::kObj;
  v.obj = o;
  return v;
}
JVal Raw(std::string s) {
  JVal v;
  v.text = std::move(s);
  return v;
}
JVal Str(std::string s) {
  JVal v;
  v.kind = JVal::kStr;
  v.text = std::move(s);
  return v;
}
JVal List() {
  JVal v;
  v.kind = JVal::kList;
  return v;
}

// ---- the words of one table ----------------------------------------------------

struct Key {
  const reflection::Field* field = nullptr;
  bool negated = false;                     // `no-WORD` on a flag
  const reflection::Field* sets = nullptr;  // a flag the word also sets
  std::string sets_value;
  bool item_word = false;                   // starts an item of a list of tables
  const TableWords* item = nullptr;         // that item's words
  const reflection::Object* item_obj = nullptr;
};

const TableWords* ItemWords(std::string_view table) {
  for (const auto& t : ItemTables()) {
    if (t.table == table) return &t;
  }
  return nullptr;
}

struct Vocabulary {
  const reflection::Object* obj = nullptr;
  const TableWords* words = nullptr;
  std::map<std::string, Key, std::less<>> keys;  // lower-case spellings

  void Add(const std::string& spelling, const Key& k) { keys.emplace(spelling, k); }

  static Vocabulary For(const reflection::Object* obj, const TableWords* words) {
    Vocabulary v;
    v.obj = obj;
    v.words = words;
    if (words != nullptr) {
      for (const auto& w : words->words) {
        Key k;
        k.field = FieldNamed(*obj, w.field);
        if (k.field == nullptr) continue;  // the registry test names it
        if (!w.sets.empty()) {
          k.sets = FieldNamed(*obj, w.sets);
          k.sets_value = std::string(w.sets_value);
        }
        if (const auto* item_obj = ObjOf(*k.field->type());
            item_obj != nullptr && k.field->type()->base_type() == reflection::Vector) {
          k.item_word = true;
          k.item = ItemWords(ShortName(item_obj->name()));
          k.item_obj = item_obj;
          k.sets = nullptr;
          if (!w.sets.empty()) k.sets = FieldNamed(*item_obj, w.sets);
        }
        v.Add(std::string(w.word), k);
        for (auto a : SplitSpaces(w.aliases)) v.Add(Lower(a), k);
        if (k.field->type()->base_type() == reflection::Bool && k.sets == nullptr) {
          Key n = k;
          n.negated = true;
          v.Add("no-" + std::string(w.word), n);
        }
      }
    }
    for (const auto* f : FieldsById(*obj)) {
      if (IsUnionTypeField(*f) || f->type()->base_type() == reflection::Union) continue;
      Key k;
      k.field = f;
      if (const auto* item_obj = ObjOf(*f->type()); item_obj != nullptr && f->type()->base_type() == reflection::Vector) {
        k.item_obj = item_obj;  // the list itself: `amphibious` alone makes it (empty)
      }
      const std::string d = Dashed(f->name()->string_view());
      v.Add(d, k);
      if (f->type()->base_type() == reflection::Bool) {
        Key n = k;
        n.negated = true;
        v.Add("no-" + d, n);
      }
    }
    return v;
  }

  const Key* Find(std::string_view token) const {
    auto it = keys.find(Lower(token));
    return it == keys.end() ? nullptr : &it->second;
  }

  std::vector<std::string> Spellings() const {
    std::vector<std::string> out;
    for (const auto& [s, k] : keys) out.push_back(s);
    return out;
  }

  // The word the printer writes for `f` (no flag set with it).
  std::string WordFor(const reflection::Field& f) const {
    if (words != nullptr) {
      for (const auto& w : words->words) {
        if (w.field == f.name()->string_view() && w.sets.empty()) return std::string(w.word);
      }
    }
    return Dashed(f.name()->string_view());
  }
};

// ---- tokens ------------------------------------------------------------------------

struct Token {
  std::string text;
  bool quoted = false;
  size_t column = 0;  // 1-based
};

Status SyntaxError(std::string_view file, size_t line, size_t column, const std::string& what) {
  return Status::InvalidArgument(std::string(file) + ":" + std::to_string(line) + ":" + std::to_string(column) + ": " +
                                 what);
}

bool IsSeparator(char c) { return c == ' ' || c == '\t' || c == ',' || c == ';' || c == '\r'; }

Result<std::vector<Token>> Tokenize(std::string_view line, std::string_view file, size_t line_no) {
  std::vector<Token> out;
  size_t i = 0;
  while (i < line.size()) {
    if (IsSeparator(line[i])) {
      ++i;
      continue;
    }
    if (line[i] == '#') break;
    Token t;
    t.column = i + 1;
    if (line[i] == '"') {
      t.quoted = true;
      ++i;
      bool closed = false;
      while (i < line.size()) {
        char c = line[i];
        if (c == '\\' && i + 1 < line.size()) {
          char n = line[i + 1];
          t.text += n == 'n' ? '\n' : n == 't' ? '\t' : n;
          i += 2;
          continue;
        }
        if (c == '"') {
          closed = true;
          ++i;
          break;
        }
        t.text += c;
        ++i;
      }
      if (!closed) return SyntaxError(file, line_no, t.column, "a quoted word is not closed (\")");
    } else {
      while (i < line.size() && !IsSeparator(line[i]) && line[i] != '"' && line[i] != '#') t.text += line[i++];
    }
    out.push_back(std::move(t));
  }
  return out;
}

// ---- values ----------------------------------------------------------------------

template <typename T>
bool InRange(int64_t v) {
  return v >= static_cast<int64_t>(std::numeric_limits<T>::min()) &&
         v <= static_cast<int64_t>(std::numeric_limits<T>::max());
}

bool IntFits(BaseType t, std::string_view s) {
  if (t == reflection::ULong || t == reflection::UInt || t == reflection::UShort || t == reflection::UByte) {
    uint64_t u = 0;
    auto r = std::from_chars(s.data(), s.data() + s.size(), u);
    if (r.ec != std::errc() || r.ptr != s.data() + s.size()) return false;
    switch (t) {
      case reflection::UByte: return u <= 0xff;
      case reflection::UShort: return u <= 0xffff;
      case reflection::UInt: return u <= 0xffffffffULL;
      default: return true;
    }
  }
  int64_t v = 0;
  auto r = std::from_chars(s.data(), s.data() + s.size(), v);
  if (r.ec != std::errc() || r.ptr != s.data() + s.size()) return false;
  switch (t) {
    case reflection::Byte: return InRange<int8_t>(v);
    case reflection::Short: return InRange<int16_t>(v);
    case reflection::Int: return InRange<int32_t>(v);
    default: return true;
  }
}

// Money fields (`amount_cc`: hundredths of a crown, ARCHITECTURE I4) are
// written in crowns: "1200", "12.50".
bool IsCrowns(const reflection::Field& f) {
  std::string_view n = f.name()->string_view();
  return n.size() > 3 && n.substr(n.size() - 3) == "_cc" && IsIntType(f.type()->base_type());
}

std::optional<int64_t> CrownsToCc(std::string_view s) {
  bool neg = false;
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) {
    neg = s[0] == '-';
    s.remove_prefix(1);
  }
  size_t dot = s.find('.');
  std::string_view whole = s.substr(0, dot);
  std::string_view frac = dot == std::string_view::npos ? std::string_view() : s.substr(dot + 1);
  if (whole.empty() || (dot != std::string_view::npos && (frac.empty() || frac.size() > 2))) return std::nullopt;
  uint64_t w = 0;
  auto r = std::from_chars(whole.data(), whole.data() + whole.size(), w);
  if (r.ec != std::errc() || r.ptr != whole.data() + whole.size()) return std::nullopt;
  uint64_t f = 0;
  if (!frac.empty()) {
    auto rf = std::from_chars(frac.data(), frac.data() + frac.size(), f);
    if (rf.ec != std::errc() || rf.ptr != frac.data() + frac.size()) return std::nullopt;
    if (frac.size() == 1) f *= 10;
  }
  const uint64_t limit = neg ? uint64_t{1} << 63 : (uint64_t{1} << 63) - 1;
  if (w > (limit - f) / 100) return std::nullopt;
  const uint64_t cc = w * 100 + f;
  return neg ? static_cast<int64_t>(0 - cc) : static_cast<int64_t>(cc);
}

std::string CcToCrowns(int64_t cc) {
  const bool neg = cc < 0;
  const uint64_t a = neg ? 0 - static_cast<uint64_t>(cc) : static_cast<uint64_t>(cc);
  std::string out = (neg ? "-" : "") + std::to_string(a / 100);
  if (a % 100 != 0) {
    char buf[8];
    std::snprintf(buf, sizeof buf, ".%02u", static_cast<unsigned>(a % 100));
    out += buf;
  }
  return out;
}

struct Ctx {
  std::string_view file;
  size_t line = 0;
};

// One value token of type `type` (a scalar, a string, an enum, or a struct
// written "a/b").
Result<JVal> ReadValue(const Ctx& cx, const Token& t, const reflection::Type& type, BaseType bt,
                       std::string_view field) {
  auto fail = [&](const std::string& what) { return SyntaxError(cx.file, cx.line, t.column, what); };
  if (bt == reflection::String) return Str(t.text);
  if (const reflection::Enum* e = EnumOf(type)) {
    std::vector<std::string> all;
    for (const auto* v : *e->values()) {
      for (const auto& w : EnumValueWords(*e, v->name()->string_view())) {
        if (Lower(t.text) == w) return Raw("\"" + v->name()->str() + "\"");
        all.push_back(w);
      }
    }
    std::string list;
    for (const auto* v : *e->values()) list += (list.empty() ? "" : ", ") + EnumWord(v->name()->string_view());
    return fail("'" + t.text + "' is not one of " + list + " (" + std::string(field) + ")" + Nearest(t.text, all));
  }
  if (IsIntType(bt)) {
    if (!IntFits(bt, t.text)) return fail("'" + t.text + "' is not a whole number " + std::string(field) + " can hold");
    std::string s = t.text;
    if (s.size() > 1 && s[0] == '+') s.erase(0, 1);
    return Raw(s);
  }
  if (IsFloatType(bt)) {
    double d = 0;
    auto r = std::from_chars(t.text.data(), t.text.data() + t.text.size(), d);
    if (r.ec != std::errc() || r.ptr != t.text.data() + t.text.size() || !std::isfinite(d)) {
      return fail("'" + t.text + "' is not a number (" + std::string(field) + ")");
    }
    return Raw(t.text);
  }
  if (bt == reflection::Obj) {
    const reflection::Object* so = Schema().objects()->Get(static_cast<uint32_t>(type.index()));
    if (!so->is_struct()) return fail(std::string(field) + " is not written as one word");
    auto fields = FieldsById(*so);
    JVal v = Obj(so);
    size_t start = 0;
    for (size_t i = 0; i < fields.size(); ++i) {
      size_t end = i + 1 == fields.size() ? t.text.size() : t.text.find('/', start);
      if (end == std::string::npos) {
        return fail("'" + t.text + "': " + std::string(field) + " is written with " + std::to_string(fields.size()) +
                    " numbers joined by '/'");
      }
      Token part{t.text.substr(start, end - start), false, t.column};
      auto pv = ReadValue(cx, part, *fields[i]->type(), fields[i]->type()->base_type(), fields[i]->name()->string_view());
      if (!pv.ok()) return pv.status();
      v.fields.emplace(fields[i]->name()->str(), std::move(*pv));
      start = end + 1;
    }
    return v;
  }
  return fail(std::string(field) + " cannot be written in the text form");
}

// Reads the rest of `toks` from `i` into `obj` with vocabulary `voc`: the
// positional fields, then keywords. Stops at the end, or (for an item of a
// list) at a token that is a keyword of `outer`.
Status ReadFields(const Ctx& cx, const std::vector<Token>& toks, size_t& i, const Vocabulary& voc,
                  const Vocabulary* outer, JVal& obj, std::string_view what) {
  auto is_key = [&](const Token& t) { return !t.quoted && voc.Find(t.text) != nullptr; };
  auto ends_item = [&](const Token& t) {
    if (outer == nullptr || t.quoted) return false;
    const Key* k = outer->Find(t.text);
    return k != nullptr && (voc.Find(t.text) == nullptr || k->item_word);
  };
  auto already = [&](const reflection::Field* f, const Token& t) -> Status {
    if (obj.fields.count(f->name()->string_view()) != 0) {
      return SyntaxError(cx.file, cx.line, t.column, "'" + t.text + "': " + voc.WordFor(*f) + " is given twice");
    }
    return Status::Ok();
  };
  // Values of one field: a list takes every word up to the next keyword.
  auto read_into = [&](const reflection::Field* f, const Token& at) -> Status {
    const reflection::Type& type = *f->type();
    const std::string name = voc.WordFor(*f);
    if (type.base_type() == reflection::Vector) {
      JVal list = List();
      while (i < toks.size() && !is_key(toks[i]) && !ends_item(toks[i])) {
        auto v = ReadValue(cx, toks[i], type, type.element(), name);
        if (!v.ok()) return v.status();
        list.items.push_back(std::move(*v));
        ++i;
      }
      obj.fields.emplace(f->name()->str(), std::move(list));
      return Status::Ok();
    }
    if (i >= toks.size() || is_key(toks[i]) || ends_item(toks[i])) {
      return SyntaxError(cx.file, cx.line, at.column + at.text.size(), "'" + at.text + "' wants a value (" + name + ")");
    }
    if (IsCrowns(*f)) {
      auto cc = CrownsToCc(toks[i].text);
      if (!cc) {
        return SyntaxError(cx.file, cx.line, toks[i].column,
                           "'" + toks[i].text + "' is not an amount in crowns, like 1200 or 12.50 (" + name + ")");
      }
      obj.fields.emplace(f->name()->str(), Raw(std::to_string(*cc)));
      ++i;
      return Status::Ok();
    }
    auto v = ReadValue(cx, toks[i], type, type.base_type(), name);
    if (!v.ok()) return v.status();
    obj.fields.emplace(f->name()->str(), std::move(*v));
    ++i;
    return Status::Ok();
  };

  if (voc.words != nullptr) {
    for (auto pname : voc.words->positional) {
      if (i >= toks.size() || is_key(toks[i]) || ends_item(toks[i])) break;
      const reflection::Field* f = FieldNamed(*voc.obj, pname);
      if (f == nullptr) break;
      Token at = toks[i];
      at.text.clear();
      ADJ_RETURN_IF_ERROR(read_into(f, at));
    }
  }
  while (i < toks.size()) {
    const Token& t = toks[i];
    if (ends_item(t)) return Status::Ok();
    const Key* k = t.quoted ? nullptr : voc.Find(t.text);
    if (k == nullptr) {
      return SyntaxError(cx.file, cx.line, t.column,
                         "'" + t.text + "' is not a word of " + std::string(what) + Nearest(t.text, voc.Spellings()));
    }
    ++i;
    const reflection::Field* f = k->field;
    if (k->item_word || (k->item_obj != nullptr && f->type()->base_type() == reflection::Vector)) {
      auto it = obj.fields.find(f->name()->string_view());
      if (it == obj.fields.end()) it = obj.fields.emplace(f->name()->str(), List()).first;
      if (!k->item_word) continue;  // `amphibious` alone: the list, empty so far
      JVal item = Obj(k->item_obj);
      if (k->sets != nullptr) item.fields.emplace(k->sets->name()->str(), Raw(k->sets_value));
      Vocabulary iv = Vocabulary::For(k->item_obj, k->item);
      ADJ_RETURN_IF_ERROR(ReadFields(cx, toks, i, iv, &voc, item, t.text));
      it->second.items.push_back(std::move(item));
      continue;
    }
    ADJ_RETURN_IF_ERROR(already(f, t));
    if (k->sets != nullptr) {
      ADJ_RETURN_IF_ERROR(already(k->sets, t));
      obj.fields.emplace(k->sets->name()->str(), Raw(k->sets_value));
    }
    if (f->type()->base_type() == reflection::Bool) {
      obj.fields.emplace(f->name()->str(), Raw(k->negated ? "false" : "true"));
      continue;
    }
    ADJ_RETURN_IF_ERROR(read_into(f, t));
  }
  return Status::Ok();
}

// ---- the registry for a game ---------------------------------------------------------

bool PlaysRuleset(std::string_view ruleset, std::span<const std::string_view> rulesets) {
  if (ruleset.empty()) return true;
  return std::find(rulesets.begin(), rulesets.end(), ruleset) != rulesets.end();
}

struct Verbs {
  std::map<std::string, const OrderKindWords*, std::less<>> by_spelling;
  std::vector<std::string> spellings;

  explicit Verbs(std::span<const std::string_view> rulesets) {
    for (const auto& k : AllOrderKinds()) {
      if (!PlaysRuleset(k.ruleset, rulesets)) continue;
      by_spelling.emplace(std::string(k.verb), &k);
      for (auto a : SplitSpaces(k.aliases)) by_spelling.emplace(Lower(a), &k);
    }
    for (const auto& [s, k] : by_spelling) spellings.push_back(s);
  }
  const OrderKindWords* Find(const Token& t) const {
    if (t.quoted) return nullptr;
    auto it = by_spelling.find(Lower(t.text));
    return it == by_spelling.end() ? nullptr : it->second;
  }
};

// One line's order as an OrderItem JSON object.
Result<JVal> ReadOrder(const Ctx& cx, std::vector<Token> toks, const Verbs& verbs, const std::optional<std::string>& role) {
  const reflection::Object* item_obj = ObjectNamed("OrderItem");
  std::optional<Token> subject;
  const OrderKindWords* kind = verbs.Find(toks[0]);
  size_t i = 1;
  if (kind == nullptr || !kind->subject.empty()) {
    // A subject first: strip a ':' written after it ("BR2SL: orders …").
    if (!toks[0].quoted && toks[0].text.size() > 1 && toks[0].text.back() == ':') toks[0].text.pop_back();
    subject = toks[0];
    if (toks.size() < 2) {
      return SyntaxError(cx.file, cx.line, toks[0].column,
                         "'" + toks[0].text + "' is not an order; an order is a ship's, unit's or state's id and an "
                         "order word, or an order word" + Nearest(toks[0].text, verbs.spellings));
    }
    kind = verbs.Find(toks[1]);
    if (kind == nullptr && !toks[0].quoted) {
      // An order of another rule book than this game's.
      for (const auto& k : AllOrderKinds()) {
        bool named = Lower(toks[0].text) == k.verb;
        for (auto a : SplitSpaces(k.aliases)) named = named || Lower(toks[0].text) == Lower(a);
        if (named) {
          return SyntaxError(cx.file, cx.line, toks[0].column,
                             "'" + toks[0].text + "' is an order of " + std::string(k.ruleset) +
                                 ", not of this game's rule books");
        }
      }
    }
    if (kind == nullptr) {
      const Token& t = toks[1];
      return SyntaxError(cx.file, cx.line, t.column, "'" + t.text + "' is not an order word of this game" +
                                                         Nearest(t.text, verbs.spellings));
    }
    if (kind->subject.empty()) {
      return SyntaxError(cx.file, cx.line, toks[1].column,
                         "'" + toks[1].text + "' is written first on its line, with nothing before it");
    }
    i = 2;
  }
  const reflection::Object* table = ObjectNamed(kind->table.table);
  const reflection::Object* wrapper = kind->wrapper.empty() ? nullptr : ObjectNamed(kind->wrapper);
  if (table == nullptr || (!kind->wrapper.empty() && wrapper == nullptr)) {
    return Status::InvalidArgument("order words name table " + std::string(kind->table.table) + " not in the schema");
  }
  JVal body = Obj(table);
  JVal wrap = wrapper != nullptr ? Obj(wrapper) : JVal{};
  if (subject) {
    const reflection::Object* on = kind->subject_on_wrapper ? wrapper : table;
    const reflection::Field* f = FieldNamed(*on, kind->subject);
    auto v = ReadValue(cx, *subject, *f->type(), f->type()->base_type(), kind->subject);
    if (!v.ok()) return v.status();
    (kind->subject_on_wrapper ? wrap : body).fields.emplace(std::string(kind->subject), std::move(*v));
  }
  if (!kind->sets.empty()) body.fields.emplace(std::string(kind->sets), Raw(std::string(kind->sets_value)));
  Vocabulary voc = Vocabulary::For(table, &kind->table);
  const std::string what = "'" + std::string(kind->verb) + "' (" + std::string(kind->table.table) +
                           (kind->rule.empty() ? "" : ", " + std::string(kind->rule)) + ")";
  ADJ_RETURN_IF_ERROR(ReadFields(cx, toks, i, voc, nullptr, body, what));
  for (const auto* f : FieldsById(*table)) {
    if (!f->required() || body.fields.count(f->name()->string_view()) != 0) continue;
    const Token& last = toks.back();
    return SyntaxError(cx.file, cx.line, last.column + last.text.size() + (last.quoted ? 2 : 0),
                       "'" + std::string(kind->verb) + "' wants a value (" + voc.WordFor(*f) + ")");
  }
  JVal item = Obj(item_obj);
  if (role) item.fields.emplace("role", Str(*role));
  if (wrapper != nullptr) {
    wrap.fields.emplace("body_type", Raw("\"" + std::string(kind->table.table) + "\""));
    wrap.fields.emplace("body", std::move(body));
    item.fields.emplace("body_type", Raw("\"" + std::string(kind->wrapper) + "\""));
    item.fields.emplace("body", std::move(wrap));
  } else {
    item.fields.emplace("body_type", Raw("\"" + std::string(kind->table.table) + "\""));
    item.fields.emplace("body", std::move(body));
  }
  return item;
}

// ---- printing -------------------------------------------------------------------------

bool NeedsQuotes(std::string_view s, const std::vector<const Vocabulary*>& vocs, const Verbs* verbs) {
  if (s.empty() || s[0] == '"') return true;
  for (unsigned char c : s) {
    if (c <= 0x20 || c == 0x7f || c == ',' || c == ';' || c == '#' || c == '"' || c == '\\') return true;
  }
  for (const auto* v : vocs) {
    if (v->Find(s) != nullptr) return true;
  }
  if (verbs != nullptr) {
    Token t{std::string(s), false, 0};
    if (verbs->Find(t) != nullptr || Lower(s) == "as") return true;
  }
  return false;
}

std::string Quote(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else {
      out += c;
    }
  }
  return out + "\"";
}

std::string WordOrQuoted(std::string_view s, const std::vector<const Vocabulary*>& vocs, const Verbs* verbs) {
  return NeedsQuotes(s, vocs, verbs) ? Quote(s) : std::string(s);
}

std::string ScalarText(BaseType bt, const reflection::Type& type, int64_t iv, double dv, const uint8_t* raw,
                       const std::vector<const Vocabulary*>& vocs) {
  if (const reflection::Enum* e = EnumOf(type)) {
    const auto* v = e->values()->LookupByKey(iv);
    if (v != nullptr) {
      const std::string w = EnumWord(v->name()->string_view());
      return NeedsQuotes(w, vocs, nullptr) ? Quote(w) : w;
    }
  }
  if (IsFloatType(bt)) {
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.17g", dv);
    return buf;
  }
  if (bt == reflection::ULong) return std::to_string(flatbuffers::ReadScalar<uint64_t>(raw));
  return std::to_string(iv);
}

// Whether a field holds something the printer must write.
bool Present(const flatbuffers::Table& t, const reflection::Field& f) {
  const BaseType bt = f.type()->base_type();
  if (bt == reflection::Bool || IsIntType(bt)) {
    return flatbuffers::GetAnyFieldI(t, f) != f.default_integer();
  }
  if (IsFloatType(bt)) return flatbuffers::GetAnyFieldF(t, f) != f.default_real();
  return t.GetAddressOf(f.offset()) != nullptr;
}

std::string ValueText(const flatbuffers::Table& t, const reflection::Field& f,
                      const std::vector<const Vocabulary*>& vocs) {
  const reflection::Type& type = *f.type();
  const BaseType bt = type.base_type();
  if (bt == reflection::String) return WordOrQuoted(flatbuffers::GetFieldS(t, f)->string_view(), vocs, nullptr);
  if (IsCrowns(f)) return CcToCrowns(flatbuffers::GetAnyFieldI(t, f));
  return ScalarText(bt, type, flatbuffers::GetAnyFieldI(t, f), flatbuffers::GetAnyFieldF(t, f),
                    t.GetAddressOf(f.offset()), vocs);
}

Status PrintFields(std::string& out, const flatbuffers::Table& t, const Vocabulary& voc,
                   std::vector<const Vocabulary*> vocs, std::vector<std::string_view> skip);

std::string VectorText(const flatbuffers::Table& t, const reflection::Field& f,
                       const std::vector<const Vocabulary*>& vocs) {
  const reflection::Type& type = *f.type();
  const auto* vec = flatbuffers::GetFieldAnyV(t, f);
  std::string out;
  const BaseType et = type.element();
  for (size_t i = 0; i < vec->size(); ++i) {
    out += ' ';
    if (et == reflection::String) {
      out += WordOrQuoted(flatbuffers::GetAnyVectorElemPointer<const flatbuffers::String>(vec, i)->string_view(), vocs,
                          nullptr);
    } else if (et == reflection::Obj) {
      const reflection::Object* so = Schema().objects()->Get(static_cast<uint32_t>(type.index()));
      const auto* st = flatbuffers::GetAnyVectorElemAddressOf<const flatbuffers::Struct>(vec, i, so->bytesize());
      std::string part;
      for (const auto* sf : FieldsById(*so)) {
        if (!part.empty()) part += '/';
        part += ScalarText(sf->type()->base_type(), *sf->type(), flatbuffers::GetAnyFieldI(*st, *sf),
                           flatbuffers::GetAnyFieldF(*st, *sf), st->GetAddressOf(sf->offset()), {});
      }
      out += part;
    } else {
      const uint8_t* raw = vec->Data() + flatbuffers::GetTypeSize(et) * i;
      out += ScalarText(et, type, flatbuffers::GetAnyVectorElemI(vec, et, i), flatbuffers::GetAnyVectorElemF(vec, et, i),
                        raw, vocs);
    }
  }
  return out;
}

bool FlagHolds(const flatbuffers::Table& t, const reflection::Field& f, std::string_view value) {
  const int64_t want = value == "true" ? 1 : 0;
  return flatbuffers::GetAnyFieldI(t, f) == want;
}

Status PrintFields(std::string& out, const flatbuffers::Table& t, const Vocabulary& voc,
                   std::vector<const Vocabulary*> vocs, std::vector<std::string_view> skip) {
  vocs.insert(vocs.begin(), &voc);
  auto skipped = [&](const reflection::Field& f) {
    return std::find(skip.begin(), skip.end(), f.name()->string_view()) != skip.end();
  };
  const std::vector<const reflection::Field*> fields = FieldsById(*voc.obj);
  // Positional fields, in order, while each holds something.
  if (voc.words != nullptr) {
    // A scalar at its default is still written by position when a later
    // positional field follows it (`build IN 5000`).
    size_t last = 0;
    for (size_t p = 0; p < voc.words->positional.size(); ++p) {
      const reflection::Field* f = FieldNamed(*voc.obj, voc.words->positional[p]);
      if (f != nullptr && Present(t, *f)) last = p + 1;
    }
    for (size_t p = 0; p < last; ++p) {
      const reflection::Field* f = FieldNamed(*voc.obj, voc.words->positional[p]);
      const bool scalar = f != nullptr && (IsIntType(f->type()->base_type()) || IsFloatType(f->type()->base_type()));
      if (f == nullptr || skipped(*f) || (!Present(t, *f) && !scalar)) break;
      const BaseType bt = f->type()->base_type();
      if (bt == reflection::Vector) {
        // An empty list is written by its word (nothing after it).
        if (flatbuffers::GetFieldAnyV(t, *f)->size() == 0) break;
        out += VectorText(t, *f, vocs);
      } else if (bt == reflection::Bool) {
        break;
      } else {
        out += ' ' + ValueText(t, *f, vocs);
      }
      skip.push_back(f->name()->string_view());
    }
    // Words that set a flag as well, where the flag holds.
    for (const auto& w : voc.words->words) {
      if (w.sets.empty()) continue;
      const reflection::Field* f = FieldNamed(*voc.obj, w.field);
      const reflection::Field* s = FieldNamed(*voc.obj, w.sets);
      if (f == nullptr || s == nullptr || skipped(*f) || skipped(*s)) continue;
      if (f->type()->base_type() == reflection::Vector) continue;  // item words: below
      if (!FlagHolds(t, *s, w.sets_value)) continue;
      out += ' ' + std::string(w.word);
      if (f->type()->base_type() != reflection::Bool) out += ' ' + ValueText(t, *f, vocs);
      skip.push_back(f->name()->string_view());
      skip.push_back(s->name()->string_view());
    }
  }
  // The keywords in the order the words list them, then the rest in the schema's.
  std::vector<const reflection::Field*> ordered;
  if (voc.words != nullptr) {
    for (const auto& w : voc.words->words) {
      const reflection::Field* f = FieldNamed(*voc.obj, w.field);
      if (f != nullptr && std::find(ordered.begin(), ordered.end(), f) == ordered.end()) ordered.push_back(f);
    }
  }
  for (const auto* f : fields) {
    if (std::find(ordered.begin(), ordered.end(), f) == ordered.end()) ordered.push_back(f);
  }
  for (const auto* f : ordered) {
    if (skipped(*f) || IsUnionTypeField(*f)) continue;
    const BaseType bt = f->type()->base_type();
    if (bt == reflection::Union) return Status::InvalidArgument("a union inside an order cannot be written as text");
    if (!Present(t, *f)) continue;
    const std::string word = voc.WordFor(*f);
    if (bt == reflection::Bool) {
      out += ' ' + (flatbuffers::GetAnyFieldI(t, *f) != 0 ? word : "no-" + word);
      continue;
    }
    if (bt == reflection::Vector && f->type()->element() == reflection::Obj && ObjOf(*f->type()) != nullptr &&
        !ObjOf(*f->type())->is_struct()) {
      const reflection::Object* io = ObjOf(*f->type());
      const auto* vec = flatbuffers::GetFieldAnyV(t, *f);
      if (vec->size() == 0) {
        out += ' ' + Dashed(f->name()->string_view());
        continue;
      }
      Vocabulary iv = Vocabulary::For(io, ItemWords(ShortName(io->name())));
      for (size_t i = 0; i < vec->size(); ++i) {
        const auto* it = flatbuffers::GetAnyVectorElemPointer<const flatbuffers::Table>(vec, i);
        const OrderWord* chosen = nullptr;
        static const std::vector<OrderWord> kNoWords;
        for (const auto& w : voc.words != nullptr ? voc.words->words : kNoWords) {
          if (w.field != f->name()->string_view()) continue;
          const reflection::Field* s = w.sets.empty() ? nullptr : FieldNamed(*io, w.sets);
          if (s == nullptr || FlagHolds(*it, *s, w.sets_value)) {
            chosen = &w;
            break;
          }
        }
        if (chosen == nullptr) return Status::InvalidArgument("no word writes an item of " + f->name()->str());
        out += ' ' + std::string(chosen->word);
        std::vector<std::string_view> item_skip;
        if (!chosen->sets.empty()) item_skip.push_back(chosen->sets);
        ADJ_RETURN_IF_ERROR(PrintFields(out, *it, iv, vocs, item_skip));
      }
      continue;
    }
    out += ' ' + word;
    if (bt == reflection::Vector) {
      out += VectorText(t, *f, vocs);
    } else if (bt == reflection::Obj) {
      return Status::InvalidArgument("a table inside an order cannot be written as text: " + f->name()->str());
    } else {
      out += ' ' + ValueText(t, *f, vocs);
    }
  }
  return Status::Ok();
}

}  // namespace

namespace {
// A UTF-8 byte-order mark, as some editors begin a file with.
std::string_view WithoutBom(std::string_view d) {
  if (d.substr(0, 3) == "\xEF\xBB\xBF") d.remove_prefix(3);
  return d;
}
}  // namespace

bool IsOrderText(std::string_view document) {
  for (char c : WithoutBom(document)) {
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') continue;
    return c != '{';
  }
  return true;
}

Result<std::vector<uint8_t>> ParseOrderText(std::string_view text, std::string_view filename,
                                            std::span<const std::string_view> rulesets) {
  text = WithoutBom(text);
  const Verbs verbs(rulesets);
  JVal file = Obj(ObjectNamed("OrderFile"));
  JVal orders = List();
  std::optional<std::string> role;
  size_t line_no = 0;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    start = end + 1;
    ++line_no;
    const Ctx cx{filename, line_no};
    // Text, not bytes: valid UTF-8 with no control character but the tab
    // and the carriage return (a separator), so that no refusal below quotes
    // a stray byte or a terminal's escape back to whoever reads it.
    for (size_t from = 0; from < line.size();) {
      const auto f = FindTextFault(line.substr(from), TextRule::kFreeText);
      if (!f) break;
      if (f->code_point == uint32_t{'\r'}) {
        from += f->at + 1;
        continue;
      }
      return SyntaxError(filename, line_no, from + f->at + 1,
                         TextFaultName(line.substr(from), *f) + " is not allowed in order text");
    }
    auto toks = Tokenize(line, filename, line_no);
    if (!toks.ok()) return toks.status();
    if (toks->empty()) {
      if (end == text.size()) break;
      continue;
    }
    if (!(*toks)[0].quoted && Lower((*toks)[0].text) == "as") {
      // `as ROLE`: the role giving the orders below; `as` alone: the default.
      if (toks->size() > 2) return SyntaxError(filename, line_no, (*toks)[2].column, "'as' takes one role");
      role = toks->size() == 2 ? std::optional<std::string>((*toks)[1].text) : std::nullopt;
      continue;
    }
    auto item = ReadOrder(cx, std::move(*toks), verbs, role);
    if (!item.ok()) return item.status();
    // Parsed on its own first, so a refusal of a value names this line.
    JVal one = Obj(ObjectNamed("OrderFile"));
    JVal list = List();
    list.items.push_back(*item);
    one.fields.emplace("orders", std::move(list));
    std::string json;
    Emit(json, one);
    auto checked = schema::ParseJson("OrderFile", json, std::string(filename) + ":" + std::to_string(line_no));
    if (!checked.ok()) return checked.status();
    orders.items.push_back(std::move(*item));
    if (end == text.size()) break;
  }
  file.fields.emplace("orders", std::move(orders));
  std::string json;
  Emit(json, file);
  return schema::ParseJson("OrderFile", json, filename);
}

Result<std::vector<uint8_t>> ParseOrderDocument(std::string_view document, std::string_view filename,
                                                std::span<const std::string_view> rulesets) {
  if (IsOrderText(document)) return ParseOrderText(document, filename, rulesets);
  return schema::ParseJson("OrderFile", WithoutBom(document), filename);
}

Result<std::string> PrintOrderLine(uint8_t body_type, const void* body, std::span<const std::string_view> rulesets) {
  if (body == nullptr || body_type == 0) return std::string();
  const Verbs verbs(rulesets);
  const reflection::Object* item_obj = ObjectNamed("OrderItem");
  const reflection::Field* body_field = FieldNamed(*item_obj, "body");
  const reflection::Enum* u = Schema().enums()->Get(static_cast<uint32_t>(body_field->type()->index()));
  const auto* member = u->values()->LookupByKey(body_type);
  if (member == nullptr) return Status::InvalidArgument("an order of an unknown kind (" + std::to_string(body_type) + ")");
  const std::string_view outer = ShortName(member->union_type()->index() >= 0
                                               ? Schema().objects()->Get(member->union_type()->index())->name()
                                               : member->name());
  const auto* t = static_cast<const flatbuffers::Table*>(body);
  const flatbuffers::Table* inner = t;
  std::string_view inner_name = outer;
  const reflection::Object* outer_obj = ObjectNamed(outer);
  const reflection::Field* inner_field = FieldNamed(*outer_obj, "body");
  bool wrapped = false;
  if (inner_field != nullptr && inner_field->type()->base_type() == reflection::Union) {
    wrapped = true;
    const reflection::Field* type_field = FieldNamed(*outer_obj, "body_type");
    const int64_t it = flatbuffers::GetAnyFieldI(*t, *type_field);
    const reflection::Enum* iu = Schema().enums()->Get(static_cast<uint32_t>(inner_field->type()->index()));
    const auto* im = iu->values()->LookupByKey(it);
    inner = flatbuffers::GetFieldT(*t, *inner_field);
    if (im == nullptr || inner == nullptr) return Status::InvalidArgument("a " + std::string(outer) + " with no order in it");
    inner_name = ShortName(Schema().objects()->Get(im->union_type()->index())->name());
  }
  const OrderKindWords* kind = nullptr;
  const reflection::Object* inner_obj = ObjectNamed(inner_name);
  for (const auto& k : AllOrderKinds()) {
    if (!PlaysRuleset(k.ruleset, rulesets) || k.table.table != inner_name) continue;
    if (wrapped ? k.wrapper != outer : !k.wrapper.empty()) continue;
    if (!k.sets.empty() && !FlagHolds(*inner, *FieldNamed(*inner_obj, k.sets), k.sets_value)) continue;
    kind = &k;
    break;
  }
  if (kind == nullptr) {
    return Status::InvalidArgument("a " + std::string(inner_name) + " order is not an order of this game's rule books");
  }
  Vocabulary voc = Vocabulary::For(inner_obj, &kind->table);
  std::string line;
  std::vector<std::string_view> skip;
  if (!kind->subject.empty()) {
    const flatbuffers::Table& on = kind->subject_on_wrapper ? *t : *inner;
    const reflection::Object* on_obj = kind->subject_on_wrapper ? outer_obj : inner_obj;
    const reflection::Field* f = FieldNamed(*on_obj, kind->subject);
    const flatbuffers::String* s = flatbuffers::GetFieldS(on, *f);
    if (s == nullptr) return Status::InvalidArgument("a " + std::string(inner_name) + " order names no " + std::string(kind->subject));
    // Quoted if it could be read as an order word (or holds a separator).
    line = WordOrQuoted(s->string_view(), {}, &verbs);
    if (!s->string_view().empty() && s->string_view().back() == ':' && line.front() != '"') line = Quote(s->string_view());
    line += ' ';
    if (!kind->subject_on_wrapper) skip.push_back(kind->subject);
  }
  line += std::string(kind->verb);
  if (!kind->sets.empty()) skip.push_back(kind->sets);
  ADJ_RETURN_IF_ERROR(PrintFields(line, *inner, voc, {}, skip));
  return line;
}

Result<std::string> PrintOrderText(const uint8_t* order_file, std::span<const std::string_view> rulesets) {
  const auto* file = flatbuffers::GetRoot<fb::OrderFile>(order_file);
  std::string out;
  std::optional<std::string> role;
  if (file->orders() == nullptr) return out;
  for (const auto* item : *file->orders()) {
    std::optional<std::string> r = item->role() ? std::optional<std::string>(item->role()->str()) : std::nullopt;
    if (r != role) {
      if (!r) {
        out += "as\n";
      } else {
        out += "as " + WordOrQuoted(*r, {}, nullptr) + "\n";
      }
      role = r;
    }
    auto line = PrintOrderLine(static_cast<uint8_t>(item->body_type()), item->body(), rulesets);
    if (!line.ok()) return line.status();
    if (line->empty()) return Status::InvalidArgument("an order with nothing in it cannot be written as text");
    out += *line + "\n";
  }
  return out;
}

}  // namespace adjutant::rules
