#include "rules/sow/directives.h"

#include "schema/event_generated.h"

namespace adjutant::rules::sow {

namespace P = projections;

namespace {

Status Bad(const std::string& m) { return Status::InvalidArgument(m); }

Status NeedState(const P::TreasuryState& s, const std::string& field, const flatbuffers::String* id) {
  if (!s.State(id->str())) return Bad(field + ": there is no state '" + id->str() + "' in this game");
  return Status::Ok();
}
Status NeedCity(const P::TreasuryState& s, const std::string& field, const flatbuffers::String* id) {
  if (!s.cities.count(id->str())) return Bad(field + ": there is no city '" + id->str() + "'");
  return Status::Ok();
}

std::pair<int32_t, int32_t> SeasonOf(const Turn& t) { return {t.major, t.minor}; }

}  // namespace

Status CheckDirective(const P::TreasuryState& s, const P::FleetState& fleet, const fb::SowDirective& d) {
  if (!s.active) return Bad("this game does not play sow");
  switch (d.body_type()) {
    case fb::SowDirectiveBody_SetSeasonKind: {
      auto* x = d.body_as_SetSeasonKind();
      if (x->season() < 1 || x->season() > 4) return Bad("season: must be 1 (Spring) to 4 (Winter)");
      if (std::make_pair(x->year(), x->season()) <= SeasonOf(s.turn)) {
        return Bad("SetSeasonKind: only a season not yet begun can be set (the game is in " +
                   std::to_string(s.turn.major) + " season " + std::to_string(s.turn.minor) + ")");
      }
      return Status::Ok();
    }
    case fb::SowDirectiveBody_EndCampaign:
      if (s.season_kind != P::SeasonKind::War) return Bad("EndCampaign: the season is not a campaign");
      return Status::Ok();
    case fb::SowDirectiveBody_SetRelation: {
      auto* x = d.body_as_SetRelation();
      ADJ_RETURN_IF_ERROR(NeedState(s, "a", x->a()));
      ADJ_RETURN_IF_ERROR(NeedState(s, "b", x->b()));
      if (x->a()->str() == x->b()->str()) return Bad("SetRelation: a state has no relation with itself");
      return Status::Ok();
    }
    case fb::SowDirectiveBody_DeclareBlockade: {
      auto* x = d.body_as_DeclareBlockade();
      ADJ_RETURN_IF_ERROR(NeedState(s, "by", x->by()));
      ADJ_RETURN_IF_ERROR(NeedState(s, "against", x->against()));
      if (!x->lift() && s.RelationOf(x->by()->str(), x->against()->str()) != P::Relation::War) {
        return Bad("SOW 2.5: " + x->by()->str() + " may blockade only a state it is at war with");
      }
      return Status::Ok();
    }
    case fb::SowDirectiveBody_DeclareEmbargo: {
      auto* x = d.body_as_DeclareEmbargo();
      ADJ_RETURN_IF_ERROR(NeedState(s, "by", x->by()));
      ADJ_RETURN_IF_ERROR(NeedState(s, "against", x->against()));
      if (!x->lift() && s.RelationOf(x->by()->str(), x->against()->str()) == P::Relation::Alliance) {
        return Bad("SOW 2.6: " + x->by()->str() + " may not embargo its ally " + x->against()->str());
      }
      return Status::Ok();
    }
    case fb::SowDirectiveBody_SetCityControl: {
      auto* x = d.body_as_SetCityControl();
      ADJ_RETURN_IF_ERROR(NeedCity(s, "city", x->city()));
      return NeedState(s, "controller", x->controller());
    }
    case fb::SowDirectiveBody_SetSiege:
      return NeedCity(s, "city", d.body_as_SetSiege()->city());
    case fb::SowDirectiveBody_PlaceUnit: {
      auto* u = d.body_as_PlaceUnit()->unit();
      ADJ_RETURN_IF_ERROR(NeedState(s, "unit.state", u->state()));
      std::string id = u->id()->str();
      if (s.units.count(id) || fleet.ships.count(id) || s.builds.count(id)) return Bad("unit.id: " + id + " is already in use");
      if (u->men() < 0) return Bad("unit.men: must not be negative");
      return Status::Ok();
    }
    case fb::SowDirectiveBody_MoveUnit:
      if (!s.units.count(d.body_as_MoveUnit()->unit()->str())) return Bad("unit: no unit '" + d.body_as_MoveUnit()->unit()->str() + "'");
      return Status::Ok();
    case fb::SowDirectiveBody_DestroyUnit: {
      auto* x = d.body_as_DestroyUnit();
      auto u = s.units.find(x->unit()->str());
      if (u == s.units.end()) return Bad("unit: no unit '" + x->unit()->str() + "'");
      if (x->men_remaining() < 0 || x->men_remaining() > u->second.men) {
        return Bad("men_remaining: must be 0.." + std::to_string(u->second.men));
      }
      return Status::Ok();
    }
    case fb::SowDirectiveBody_MoveShip: {
      auto* x = d.body_as_MoveShip();
      if (!fleet.ships.count(x->ship()->str())) return Bad("ship: no ship '" + x->ship()->str() + "'");
      const std::string to = x->location() ? x->location()->str() : "";
      if (to.empty()) return Bad("location: where to?");
      if (x->in_port() && x->coastal()) return Bad("in_port, coastal: a ship in a port is in its harbour or its coastal waters, not both");
      auto city = s.cities.find(to);
      if (city == s.cities.end()) {
        if (x->in_port() || x->coastal()) return Bad("location: '" + to + "' is no city of the game: at sea, neither in_port nor coastal");
      } else if (city->second.kind == P::CityKind::Inland) {
        return Bad("location: " + to + " is an inland city");
      } else if (!x->in_port() && !x->coastal()) {
        return Bad("in_port, coastal: in " + to + ", the harbour (in_port) or the coastal waters (coastal)");
      }
      return Status::Ok();
    }
    case fb::SowDirectiveBody_LoseShip: {
      auto* x = d.body_as_LoseShip();
      auto sh = fleet.ships.find(x->ship()->str());
      if (sh == fleet.ships.end()) return Bad("ship: no ship '" + x->ship()->str() + "'");
      if (x->crew_returning() < 0 || x->crew_returning() > sh->second.men()) {
        return Bad("crew_returning: must be 0.." + std::to_string(sh->second.men()) + " (crew and Marines)");
      }
      if (x->storm() && x->crew_returning() != 0) return Bad("SOW 3.5: a ship sunk in a storm loses all its crew");
      return Status::Ok();
    }
    case fb::SowDirectiveBody_SetFortState:
      return NeedCity(s, "city", d.body_as_SetFortState()->city());
    case fb::SowDirectiveBody_CorrectTreasury:
      return NeedState(s, "state", d.body_as_CorrectTreasury()->state());
    case fb::SowDirectiveBody_CorrectManpower:
      return NeedState(s, "state", d.body_as_CorrectManpower()->state());
    case fb::SowDirectiveBody_EnemyInCity:
      return NeedCity(s, "city", d.body_as_EnemyInCity()->city());
    case fb::SowDirectiveBody_NONE:
      break;
  }
  return Bad("the directive has no body");
}

void DirectiveConsequences(Outcomes& out, const P::TreasuryState& before, const P::FleetState& fleet_before,
                           const fb::SowDirective& d,
                           const std::string& reason) {
  const Turn& t = out.at().turn;
  switch (d.body_type()) {
    case fb::SowDirectiveBody_SetCityControl: {
      // SOW 6.5: a captured city's standing orders lapse.
      auto* x = d.body_as_SetCityControl();
      for (const auto& [key, so] : before.standing) {
        if (key.second == x->city()->str() && key.first != x->controller()->str()) {
          out.StandingCancelled(key.first, key.second, "SOW 6.5", key.second + " was captured");
        }
      }
      break;
    }
    case fb::SowDirectiveBody_DestroyUnit: {
      // SOW 3.5: what remains of a unit destroyed in battle returns at the
      // end of this season (militia to its city's pool); the rest is lost.
      auto* x = d.body_as_DestroyUnit();
      const P::Unit& u = before.units.at(x->unit()->str());
      bool militia = u.type == P::UnitType::MI && before.cities.count(u.raised_in);
      if (x->men_remaining() > 0) {
        out.ReturnLater(u.state, militia ? "militia" : "national", militia ? u.raised_in : "", x->men_remaining(),
                        t.major, t.minor, "SOW 3.5", u.id);
      }
      if (u.men - x->men_remaining() > 0) out.Lost(u.state, u.men - x->men_remaining(), "SOW 3.5", u.id);
      break;
    }
    case fb::SowDirectiveBody_LoseShip: {
      // SOW 3.5: a fraction of a ship's crew returns from battle; none from a storm.
      auto* x = d.body_as_LoseShip();
      const P::Ship& sh = fleet_before.ships.at(x->ship()->str());
      if (x->crew_returning() > 0) {
        out.ReturnLater(sh.state, "national", "", x->crew_returning(), t.major, t.minor, "SOW 3.5", sh.id);
      }
      if (sh.men() - x->crew_returning() > 0) out.Lost(sh.state, sh.men() - x->crew_returning(), "SOW 3.5", sh.id);
      // Rules version 4: the troops aboard are lost with her (PATE 9).
      if (out.version() >= 4) {
        for (const auto& [uid, u] : before.units) {
          if (u.aboard == sh.id && u.men > 0) out.Lost(u.state, u.men, "PATE 9", uid);
        }
      }
      break;
    }
    case fb::SowDirectiveBody_CorrectTreasury: {
      auto* x = d.body_as_CorrectTreasury();
      out.Money(x->state()->str(), x->amount_cc(), "GA correction", "correction", "", reason);
      break;
    }
    case fb::SowDirectiveBody_CorrectManpower: {
      auto* x = d.body_as_CorrectManpower();
      out.Men(x->state()->str(), "national", "", x->men(), "GA correction", ManItem::Correction, reason);
      break;
    }
    case fb::SowDirectiveBody_PlaceUnit: {
      // A unit the GA places (the land module's, or a correction) takes no
      // men from its state's pool: the fold adds it as it stands; the GA
      // corrects the pool with CorrectManpower where it should (RULES.md).
      break;
    }
    default:
      break;
  }
}

}  // namespace adjutant::rules::sow
