#include "rules/y1820/tables.h"

namespace adjutant::rules::y1820 {

namespace {
template <class Row, size_t N>
const Row* FindIn(const Row (&rows)[N], std::string_view id) {
  for (const Row& r : rows) if (r.id == id) return &r;
  return nullptr;
}
}  // namespace

const Government* FindGovernment(std::string_view id) { return FindIn(kGovernments, id); }
const Improvement* FindImprovement(std::string_view id) { return FindIn(kImprovements, id); }
const Reform* FindReform(std::string_view id) { return FindIn(kReforms, id); }
const Tech* FindTech(std::string_view id) { return FindIn(kTechs, id); }
const Tech* FindTech(std::string_view id, uint32_t version) {
  const Tech* t = FindIn(kTechs, id);
  return t && t->since <= version ? t : nullptr;
}

}  // namespace adjutant::rules::y1820
