// How orders were carried out (order_outcomes.h). The events are read
// through the binary schema (flatbuffers reflection): an event is one of an
// order's outcomes when its body's `order_seq` is the order's, or when the
// table below links the order's kind to the event's kind and every pair of
// fields it names holds the same value in both ("@slot": the slot the order
// stood in — a y1820 nation). The words come from the event's own fields.
#include "reports/order_outcomes.h"

#include <flatbuffers/reflection.h>

#include <algorithm>
#include <cctype>
#include <set>

#include "base/money.h"
#include "reports/reflect.h"
#include "ledger/ledger.h"
#include "schema/codec.h"
#include "schema/event_generated.h"

namespace adjutant::reports {
namespace {

struct Pair {
  std::string_view order_field;  // a field of the order's table, "@slot", or "=TEXT" (that text)
  std::string_view event_field;
};

struct Link {
  std::string_view order;  // the order's table ("ShipOrders")
  std::string_view event;  // the event's table ("ShipMoved")
  std::vector<Pair> pairs;
  // The event's fields told, where not all may be: what the order's owner
  // did not see stays out (a prize's new id under her captor). "-": none.
  std::vector<std::string_view> show = {};
};

// What befell an order's subject in its turn, order kind by event kind (the
// events that name the order by order_seq need no row). PATE 6 (movement:
// a ship's moves, the moves it could not make, PATE 6.6) and 7 (a ship sunk
// or taken); SOW 4.5 (a build's progress, by its id); Y1–Y14 (the nation's
// own events for each order, its slot being the nation); D1–D5 (a unit's
// formation, moves and state, and an intention the engine refused).
const Link kLinks[] = {
    {"ShipOrders", "ShipMoved", {{"ship", "ship"}}},
    {"ShipOrders", "MoveFailed", {{"ship", "ship"}}},
    {"ShipOrders", "ShipSunk", {{"ship", "ship"}}, {"men_lost"}},
    {"ShipOrders", "ShipCaptured", {{"ship", "ship"}}, {"-"}},
    {"TransferCrewOrder", "ShipRated", {{"from", "ship"}, {"=PATE 2.7", "rule"}}},
    {"TransferCrewOrder", "ShipRated", {{"to", "ship"}, {"=PATE 2.7", "rule"}}},
    {"TransferCrewOrder", "ShipSunk", {{"from", "ship"}, {"=PATE 2.7", "rule"}}, {"men_lost"}},
    {"BuildUnitOrder", "BuildProgressed", {{"id", "build_id"}}},
    {"BuildUnitOrder", "BuildCompleted", {{"id", "build_id"}}},
    {"BuildShipOrder", "BuildProgressed", {{"id", "build_id"}}},
    {"BuildShipOrder", "BuildCompleted", {{"id", "build_id"}}},
    {"StandingSupplyOrder", "StandingOrderCancelled", {{"city", "city"}}},
    {"RepairOrder", "RepairCompleted", {{"city", "city"}}},
    {"Y1820Deploy", "Y1820Deployed", {{"@slot", "nation"}, {"province", "province"}}},
    {"Y1820Move", "Y1820ArmiesMoved", {{"@slot", "nation"}, {"from", "from"}, {"to", "to"}}},
    {"Y1820FleetMove", "Y1820FleetsMoved",
     {{"@slot", "nation"}, {"from_port", "from_port"}, {"from_sea", "from_sea"}, {"to_port", "to_port"}, {"to_sea", "to_sea"}}},
    {"Y1820RaiseFleet", "Y1820FleetRaised", {{"@slot", "nation"}, {"port", "port"}}},
    {"Y1820DismantleFleet", "Y1820FleetsLost", {{"@slot", "nation"}, {"port", "port"}}},
    {"Y1820Build", "Y1820ImprovementBuilt", {{"@slot", "nation"}, {"province", "province"}, {"improvement", "improvement"}}},
    {"Y1820Dismantle", "Y1820ImprovementRemoved", {{"@slot", "nation"}, {"province", "province"}, {"improvement", "improvement"}}},
    {"Y1820Research", "Y1820ResearchChosen", {{"@slot", "nation"}, {"tech", "tech"}}},
    {"Y1820Research", "Y1820ResearchPoints", {{"@slot", "nation"}, {"tech", "tech"}}},
    {"Y1820Research", "Y1820TechAcquired", {{"@slot", "nation"}, {"tech", "tech"}}},
    {"Y1820Reform", "Y1820ReformChosen", {{"@slot", "nation"}, {"reform", "reform"}}},
    {"Y1820Reform", "Y1820ReformRolled", {{"@slot", "nation"}, {"reform", "reform"}}},
    {"Y1820Reform", "Y1820GovernmentChanged", {{"@slot", "nation"}, {"reform", "reform"}}},
    {"Y1820DeclareWar", "Y1820WarDeclared", {{"@slot", "nation"}, {"nation", "target"}}},
    {"Y1820Treaty", "Y1820TreatyAnnounced", {{"@slot", "nation"}, {"nation", "other"}, {"kind", "kind"}}},
    {"Y1820RallyPoints", "Y1820RallyPointsSet", {{"@slot", "nation"}}},
    {"Y1820GiveProvince", "Y1820TradePending", {{"@slot", "from"}, {"nation", "to"}, {"province", "province"}}},
    {"Y1820GiveProvince", "Y1820ProvinceTransferred", {{"@slot", "from"}, {"nation", "to"}, {"province", "province"}}},
    {"Y1820GiveTech", "Y1820TradePending", {{"@slot", "from"}, {"nation", "to"}, {"tech", "tech"}}},
    {"DogIntent", "DogFormationChanged", {{"unit", "unit"}}},
    {"DogIntent", "DogMoved", {{"unit", "unit"}}},
    {"DogIntent", "DogReformed", {{"unit", "unit"}}},
    {"DogIntent", "DogIntentRefused", {{"unit", "unit"}}},
};

// Events that say an order could not be carried out (besides those with a
// `failed` text).
const std::set<std::string_view> kFailures = {"MoveFailed", "DogIntentRefused", "StandingOrderCancelled"};

// A field's value in words (enums by name), "" when absent.
std::string ValueOf(const flatbuffers::Table& t, const reflection::Field& f) {
  const reflection::Type& type = *f.type();
  const auto bt = type.base_type();
  if (bt == reflection::String) {
    const auto* s = flatbuffers::GetFieldS(t, f);
    return s ? s->str() : "";
  }
  if (bt == reflection::Vector) {
    const auto* v = flatbuffers::GetFieldAnyV(t, f);
    if (v == nullptr) return "";
    std::string out;
    for (size_t i = 0; i < v->size(); ++i) {
      if (i) out += ",";
      if (type.element() == reflection::String) {
        out += flatbuffers::GetAnyVectorElemPointer<const flatbuffers::String>(v, i)->str();
      } else if (type.element() >= reflection::Bool && type.element() <= reflection::ULong) {
        out += std::to_string(flatbuffers::GetAnyVectorElemI(v, type.element(), i));
      }
    }
    return out;
  }
  if (bt >= reflection::Bool && bt <= reflection::ULong) {
    const int64_t n = flatbuffers::GetAnyFieldI(t, f);
    if (type.index() >= 0) {
      const auto* e = Schema().enums()->Get(static_cast<uint32_t>(type.index()));
      if (const auto* v = e->values()->LookupByKey(n)) return v->name()->str();
    }
    if (bt == reflection::Bool) return n ? "true" : "false";
    return std::to_string(n);
  }
  return "";
}

bool AtDefault(const flatbuffers::Table& t, const reflection::Field& f) {
  const auto bt = f.type()->base_type();
  if (bt >= reflection::Bool && bt <= reflection::ULong) return flatbuffers::GetAnyFieldI(t, f) == f.default_integer();
  if (bt == reflection::Float || bt == reflection::Double) return flatbuffers::GetAnyFieldF(t, f) == f.default_real();
  return ValueOf(t, f).empty();
}

// "ArmiesMoved" -> "armies moved" (the ruleset's prefix dropped).
std::string Words(std::string_view table) {
  for (std::string_view prefix : {"Y1820", "Dog"}) {
    if (table.substr(0, prefix.size()) == prefix && table.size() > prefix.size()) table.remove_prefix(prefix.size());
  }
  std::string out;
  for (char c : table) {
    if (std::isupper(static_cast<unsigned char>(c)) != 0 && !out.empty()) out += ' ';
    out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return out;
}

OrderOutcome Describe(uint64_t seq, const flatbuffers::Table& t, const reflection::Object& o,
                      const std::set<std::string>& known, const std::vector<std::string_view>* show) {
  OrderOutcome out;
  out.seq = seq;
  out.what = Words(ShortName(o));
  std::vector<const reflection::Field*> fields(o.fields()->begin(), o.fields()->end());
  std::sort(fields.begin(), fields.end(), [](auto* a, auto* b) { return a->id() < b->id(); });
  std::string parts;
  for (const auto* f : fields) {
    const std::string name = f->name()->str();
    const auto bt = f->type()->base_type();
    if (name == "rule") {
      out.rule = ValueOf(t, *f);
      continue;
    }
    if (show != nullptr && !show->empty() && std::find(show->begin(), show->end(), name) == show->end()) continue;
    if (name == "order_seq" || known.count(name) || bt == reflection::Obj || bt == reflection::Union ||
        bt == reflection::UType || AtDefault(t, *f)) {
      continue;
    }
    if (name == "failed" || name == "stopped") out.failed = true;
    std::string label = name;
    std::string value = ValueOf(t, *f);
    // Money (hundredths of a crown) in crowns.
    if (label.size() > 3 && label.substr(label.size() - 3) == "_cc" && bt >= reflection::Byte && bt <= reflection::ULong) {
      label.resize(label.size() - 3);
      value = FormatCc(flatbuffers::GetAnyFieldI(t, *f));
    }
    std::replace(label.begin(), label.end(), '_', ' ');
    parts += (parts.empty() ? "" : ", ") + (bt == reflection::Bool ? label : label + " " + value);
  }
  if (!parts.empty()) out.what += ": " + parts;
  if (kFailures.count(ShortName(o))) out.failed = true;
  return out;
}

struct Asked {
  uint64_t seq;
  std::string slot;
  const flatbuffers::Table* body;  // the order's own table (inside its ruleset's wrapper)
  const reflection::Object* obj;
};

}  // namespace

std::vector<std::pair<std::string, std::string>> OutcomeLinks() {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& l : kLinks) out.emplace_back(std::string(l.order), std::string(l.event));
  return out;
}

Result<std::map<uint64_t, std::vector<OrderOutcome>>> OutcomesOf(ledger::Ledger& db, const std::string& game,
                                                                 const std::string& branch, uint64_t first,
                                                                 uint64_t last, const std::vector<OrderAsked>& orders) {
  std::map<uint64_t, std::vector<OrderOutcome>> out;
  const reflection::Object* event_obj = Schema().objects()->LookupByKey("adjutant.fb.Event");
  const reflection::Object* submitted_obj = Schema().objects()->LookupByKey("adjutant.fb.OrderSubmitted");
  std::vector<Asked> asked;
  for (const OrderAsked& o : orders) {
    const auto* e = flatbuffers::GetRoot<fb::Event>(o.event->data());
    const auto* sub = e->payload_as_OrderSubmitted();
    if (sub == nullptr) continue;
    const auto* t = reinterpret_cast<const flatbuffers::Table*>(sub);
    const flatbuffers::Table* wrap = nullptr;
    const reflection::Object* wo = UnionMember(*t, *submitted_obj, "body", &wrap);
    if (wo == nullptr) continue;
    const flatbuffers::Table* inner = nullptr;
    const reflection::Object* io = UnionMember(*wrap, *wo, "body", &inner);
    if (io == nullptr) {  // an order table of its own (a WrittenOrder)
      io = wo;
      inner = wrap;
    }
    asked.push_back({o.seq, o.slot, inner, io});
  }
  if (asked.empty() || first > last) return out;
  ADJ_RETURN_IF_ERROR(db.Read(game, branch, first, last, [&](const ledger::EventView& ev) {
    const auto* et = reinterpret_cast<const flatbuffers::Table*>(ev.event());
    const flatbuffers::Table* payload = nullptr;
    const reflection::Object* po = UnionMember(*et, *event_obj, "payload", &payload);
    if (po == nullptr) return Status::Ok();
    const flatbuffers::Table* body = nullptr;
    const reflection::Object* bo = UnionMember(*payload, *po, "body", &body);
    if (bo == nullptr) return Status::Ok();
    const std::string_view name = ShortName(*bo);
    const reflection::Field* seq_field = FieldOf(*bo, "order_seq");
    const uint64_t by = seq_field ? static_cast<uint64_t>(flatbuffers::GetAnyFieldI(*body, *seq_field)) : 0;
    for (const Asked& a : asked) {
      bool linked = by != 0 && by == a.seq;
      std::set<std::string> known;
      const std::vector<std::string_view>* show = nullptr;
      if (!linked) {
        for (const Link& l : kLinks) {
          if (l.order != ShortName(*a.obj) || l.event != name) continue;
          bool all = true;
          for (const Pair& p : l.pairs) {
            const reflection::Field* ef = FieldOf(*bo, p.event_field);
            if (ef == nullptr) {
              all = false;
              break;
            }
            std::string want;
            if (p.order_field == "@slot") {
              want = a.slot;
            } else if (p.order_field.substr(0, 1) == "=") {
              want = std::string(p.order_field.substr(1));
            } else {
              const reflection::Field* of = FieldOf(*a.obj, p.order_field);
              if (of == nullptr) {
                all = false;
                break;
              }
              want = ValueOf(*a.body, *of);
            }
            if (ValueOf(*body, *ef) != want) {
              all = false;
              break;
            }
            // What the order was for goes without saying: the nation, the ship, unit or build.
            if (p.order_field == "@slot" || p.event_field == "ship" || p.event_field == "unit" ||
                p.event_field == "build_id") {
              known.insert(std::string(p.event_field));
            }
          }
          if (all) {
            linked = true;
            show = &l.show;
            break;
          }
        }
      }
      if (linked) out[a.seq].push_back(Describe(ev.seq, *body, *bo, known, show));
    }
    return Status::Ok();
  }));
  return out;
}

}  // namespace adjutant::reports
