#include "rules/sow/scenario.h"

#include <map>
#include <set>
#include <string>

#include "rules/sow/economy.h"
#include "schema/scenario_generated.h"

namespace adjutant::rules::sow {
namespace {

Status Bad(const std::string& field, size_t i, const std::string& sub, const std::string& why) {
  return Status::InvalidArgument("sow." + field + "[" + std::to_string(i) + "]" + (sub.empty() ? "" : "." + sub) +
                                 ": " + why);
}

}  // namespace

Status CheckSow(const fb::SowScenario& sc, const std::set<std::string>& map_sea_areas);

Status CheckScenario(const fb::Scenario& scenario, const std::set<std::string>& map_sea_areas) {
  // The players and their roles are checked alike for every kind
  // (GameKind::Offices, replay/create.cc).
  if (scenario.sow()) ADJ_RETURN_IF_ERROR(CheckSow(*scenario.sow(), map_sea_areas));
  return Status::Ok();
}

Status CheckSow(const fb::SowScenario& sc, const std::set<std::string>& map_sea_areas) {
  if (sc.piracy()) {
    return Status::InvalidArgument("sow.piracy: SOW 2.9 leaves piracy out of play, so a scenario may not switch it on");
  }
  std::set<std::string> states, nations, cities, sea_areas = map_sea_areas, ids;
  std::map<std::string, std::pair<int, int>> city_square;
  if (sc.states()) {
    for (size_t i = 0; i < sc.states()->size(); ++i) {
      const auto* s = sc.states()->Get(static_cast<flatbuffers::uoffset_t>(i));
      std::string id = s->id()->str();
      if (id.empty() || id.size() > 8) return Bad("states", i, "id", "must be 1..8 characters");
      if (!states.insert(id).second) return Bad("states", i, "id", "'" + id + "' appears twice");
      if (s->nation()->size() == 0) return Bad("states", i, "nation", "must not be empty");
      nations.insert(s->nation()->str());
      if (s->treasury_cc() < 0) return Bad("states", i, "treasury_cc", "must not be negative");
      if (s->manpower() < 0) return Bad("states", i, "manpower", "must not be negative");
    }
  }
  if (states.empty()) return Status::InvalidArgument("sow.states: a sow game needs at least one state");
  if (sc.cities()) {
    for (size_t i = 0; i < sc.cities()->size(); ++i) {
      const auto* c = sc.cities()->Get(static_cast<flatbuffers::uoffset_t>(i));
      std::string name = c->name()->str();
      if (name.empty()) return Bad("cities", i, "name", "must not be empty");
      if (!cities.insert(name).second) return Bad("cities", i, "name", "'" + name + "' appears twice");
      if (!states.count(c->controller()->str())) return Bad("cities", i, "controller", "no state '" + c->controller()->str() + "'");
      if (c->level() < 1 || c->level() > 5) return Bad("cities", i, "level", "must be 1..5 (SOW 2.2, 4.6)");
      if (c->kind() == fb::SowCityKind_Inland && c->dockyards() > 0) return Bad("cities", i, "dockyards", "an inland city has none");
      if (c->militia_pool() < 0 || c->transport_pool() < 0) return Bad("cities", i, "", "pools must not be negative");
      if (c->supplies() < 0 || c->stores() < 0) return Bad("cities", i, "", "supplies and stores must not be negative");
      if (c->fort_level() > c->fort_start()) return Bad("cities", i, "fort_level", "is above fort_start (SOW 7.1)");
      if (c->sea_area() && c->sea_area()->size()) sea_areas.insert(c->sea_area()->str());
      nations.insert(c->nation()->str());
      if (c->square()) city_square[name] = {c->square()->x(), c->square()->y()};
    }
  }
  if (sc.units()) {
    for (size_t i = 0; i < sc.units()->size(); ++i) {
      const auto* u = sc.units()->Get(static_cast<flatbuffers::uoffset_t>(i));
      std::string id = u->id()->str();
      if (id.empty() || !ids.insert(id).second) return Bad("units", i, "id", "'" + id + "' is empty or used twice");
      if (!states.count(u->state()->str())) return Bad("units", i, "state", "no state '" + u->state()->str() + "'");
      if (u->men() < 0 || !WithinSizeLimit(u->type(), u->men(), u->batteries())) {
        auto lim = UnitSizeLimit(u->type());
        return Bad("units", i, "men", "a " + std::string(fb::EnumNameSowUnitType(u->type())) + " holds 0.." +
                                          std::to_string(lim.max_men) + " men and at most " +
                                          std::to_string(lim.max_batteries) + " batteries (SOW 4.7)");
      }
      if (u->city() && u->city()->size()) {
        if (!cities.count(u->city()->str())) return Bad("units", i, "city", "no city '" + u->city()->str() + "'");
        auto sq = city_square.find(u->city()->str());
        std::pair<int, int> at = u->square() ? std::make_pair(int{u->square()->x()}, int{u->square()->y()}) : std::make_pair(0, 0);
        if (sq != city_square.end() && sq->second != at) {
          return Bad("units", i, "square", "a unit in " + u->city()->str() + " stands on its square {" +
                                               std::to_string(sq->second.first) + ", " + std::to_string(sq->second.second) + "}");
        }
      }
      if (u->raised_in() && u->raised_in()->size() && !cities.count(u->raised_in()->str())) {
        return Bad("units", i, "raised_in", "no city '" + u->raised_in()->str() + "'");
      }
    }
  }
  if (sc.ships()) {
    for (size_t i = 0; i < sc.ships()->size(); ++i) {
      const auto* s = sc.ships()->Get(static_cast<flatbuffers::uoffset_t>(i));
      std::string id = s->id()->str();
      if (id.empty() || !ids.insert(id).second) return Bad("ships", i, "id", "'" + id + "' is empty or used twice");
      if (!states.count(s->state()->str())) return Bad("ships", i, "state", "no state '" + s->state()->str() + "'");
      if (s->crew() < 0) return Bad("ships", i, "crew", "must not be negative");
      if (s->type() == fb::SowShipType_FR && s->frigates() < 1) return Bad("ships", i, "frigates", "a frigate group has at least one");
      if (s->type() == fb::SowShipType_TR && s->capacity() <= 0) return Bad("ships", i, "capacity", "a transport group needs capacity");
      // PATE 2.2, 2.4: an id is the state, a number and the type: BR1FL, NE4TR.
      std::string type = fb::EnumNameSowShipType(s->type());
      std::string st = s->state()->str();
      bool form = id.size() > st.size() + type.size() && id.compare(0, st.size(), st) == 0 &&
                  id.compare(id.size() - type.size(), type.size(), type) == 0;
      std::string number = form ? id.substr(st.size(), id.size() - st.size() - type.size()) : "";
      form = form && !number.empty() && number[0] != '0' &&
             number.find_first_not_of("0123456789") == std::string::npos;
      if (!form) {
        return Bad("ships", i, "id", "'" + id + "' is not " + st + ", a number and " + type + " (PATE 2.2, e.g. " + st +
                                         "1" + type + ")");
      }
      if (s->hull() > 4) return Bad("ships", i, "hull", "damage is 0..4 for a ship afloat (5 is sunk, PATE 2.2)");
      if (s->rigging() > 5) return Bad("ships", i, "rigging", "damage is 0..5 (PATE 2.2)");
      int stores_max = 24 + (s->type() == fb::SowShipType_TR ? s->capacity() / 20 : 0);
      if (s->stores() > stores_max) {
        return Bad("ships", i, "stores", "at most " + std::to_string(stores_max) + " (PATE 3.4)");
      }
      if (s->attached_to() && s->attached_to()->str() == id) return Bad("ships", i, "attached_to", "a ship cannot attach to herself (PATE 4.4)");
      if (s->type() == fb::SowShipType_TR && s->marines() != 0) return Bad("ships", i, "marines", "transport groups carry no marines (PATE 2.4)");
      if (s->type() != fb::SowShipType_TR) {
        ShipComplement full = FullComplement(s->type(), s->frigates(), s->capacity());
        if (s->crew() > full.crew) {
          return Bad("ships", i, "crew", "a " + type + " holds at most " + std::to_string(full.crew) +
                                             " crew besides its Marines (PATE 2.7)");
        }
        if (s->marines() < 0 || s->marines() > full.marines) {
          return Bad("ships", i, "marines", "a " + type + " holds 0.." + std::to_string(full.marines) +
                                                " Marines (PATE 2.7)");
        }
      }
      if (s->base() && s->base()->size() && !cities.count(s->base()->str())) return Bad("ships", i, "base", "no port '" + s->base()->str() + "'");
      if (s->location() && s->location()->size() && !cities.count(s->location()->str()) &&
          !sea_areas.count(s->location()->str())) {
        return Bad("ships", i, "location", "'" + s->location()->str() + "' is neither a city nor a sea area of one" +
                                                 std::string(map_sea_areas.empty() ? " (no naval map given)" : " nor of the map"));
      }
    }
  }
  if (sc.relations()) {
    for (size_t i = 0; i < sc.relations()->size(); ++i) {
      const auto* r = sc.relations()->Get(static_cast<flatbuffers::uoffset_t>(i));
      if (!states.count(r->a()->str())) return Bad("relations", i, "a", "no state '" + r->a()->str() + "'");
      if (!states.count(r->b()->str())) return Bad("relations", i, "b", "no state '" + r->b()->str() + "'");
      if (r->a()->str() == r->b()->str()) return Bad("relations", i, "", "a state has no relation with itself");
    }
  }
  if (sc.trade()) {
    for (size_t i = 0; i < sc.trade()->size(); ++i) {
      const auto* t = sc.trade()->Get(static_cast<flatbuffers::uoffset_t>(i));
      if (t->share_bp() > 10000) return Bad("trade", i, "share_bp", "must be 0..10000");
      if (!nations.count(t->nation()->str())) return Bad("trade", i, "nation", "no state or city of nation '" + t->nation()->str() + "'");
      if (!nations.count(t->partner()->str())) return Bad("trade", i, "partner", "no state or city of nation '" + t->partner()->str() + "'");
    }
  }
  return Status::Ok();
}

}  // namespace adjutant::rules::sow
