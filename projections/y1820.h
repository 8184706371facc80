// The 1820 grand-strategy game's state (ruleset y1820): the map as recorded,
// every province's owner, improvements, armies and docked fleets, the fleets
// at sea, every nation's government, capital, research, reforms and
// treaties, the wars, the announcements awaiting their partner, pending
// trades, epidemics, the calendar, and the orders standing for the coming
// turn. A pure fold of GameCreated, Y1820Event and y1820 orders; the map
// and nations views (reports/y1820.cc) render it. Inactive (and left out of
// every PhaseCompleted's digests) in games without the y1820 ruleset.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "base/turn.h"
#include "projections/projection.h"

namespace adjutant::projections {

struct Y1820ProvinceDef {
  std::string name;
  bool populous = false, coastal = false;
  std::vector<std::string> seas;
  int32_t x = 0, y = 0;
  float lon = 0, lat = 0;  // the drawn map's geography; both 0: not given
  friend bool operator==(const Y1820ProvinceDef&, const Y1820ProvinceDef&) = default;
};

struct Y1820SeaDef {
  std::string name;
  std::vector<std::string> neighbours;
  int32_t x = 0, y = 0;
  float lon = 0, lat = 0;
  std::vector<float> seeds;  // more points of its water, lon and lat in turn
  friend bool operator==(const Y1820SeaDef&, const Y1820SeaDef&) = default;
};

struct Y1820Province {
  std::string owner;                    // a nation's id; "" for a neutral or NPC state
  std::string npc;                      // the NPC state's name ("" for a nation's province)
  int32_t garrison = 0;                 // Y7: the neutral/NPC defending army (0 or 1)
  std::set<std::string> improvements;   // one of each kind at most
  std::map<std::string, int32_t> armies;  // nation → armies standing there
  std::map<std::string, int32_t> fleets;  // nation → fleets docked there
  bool epidemic = false;
  friend bool operator==(const Y1820Province&, const Y1820Province&) = default;
};

struct Y1820Nation {
  std::string name, government, color;
  int32_t capital = 0;                  // 0: none (eliminated)
  int32_t original_capital = 0;         // Y3: set while a new capital stands in for it
  bool eliminated = false;
  std::set<std::string> techs, reforms;
  std::string research;                 // the project pursued ("" for none)
  int32_t progress = 0;
  std::string reform;                   // the reform pursued
  int32_t reform_since = 0;             // the turn index it was chosen
  std::vector<int32_t> rally_points;
  int32_t undeployed_armies = 0, undeployed_fleets = 0;  // turn 0
  int32_t domination_turns = 0;
  friend bool operator==(const Y1820Nation&, const Y1820Nation&) = default;
};

// An order standing for the coming turn, decoded from its Y1820Order.
struct Y1820StandingOrder {
  uint64_t seq = 0;
  std::string kind;                     // the body's table name, e.g. "Y1820Move"
  int32_t a = 0, b = 0, n = 0;          // province / port / count fields
  std::string s1, s2;                   // nation / tech / reform / kind / sea fields
  std::vector<int32_t> ints;            // via, rally points
  std::vector<std::string> strs;        // seas
  friend bool operator==(const Y1820StandingOrder&, const Y1820StandingOrder&) = default;
};

struct Y1820Trade {
  std::string kind, from, to, tech;     // kind "province" or "tech"
  int32_t province = 0;
  friend bool operator==(const Y1820Trade&, const Y1820Trade&) = default;
};

// Y2, Y12 (y1820 rules version 4): a nation eliminated ends every treaty and
// announcement naming it (version 3 kept them: an exchange with a nation no
// longer there went on giving its research points and army, and filling one
// of the two exchanges allowed, for the rest of the game).
inline constexpr uint32_t kEliminationEndsTreatiesVersion = 4;

struct Y1820State {
  uint64_t last_seq = 0;
  bool active = false;                  // the game plays y1820
  bool has_map = false;
  std::string map_name;
  int32_t width = 1000, height = 800;
  std::map<int32_t, Y1820ProvinceDef> defs;
  std::map<std::tuple<int32_t, int32_t>, std::string> borders;  // (low, high) → kind
  std::map<std::string, Y1820SeaDef> seas;
  bool random_events = true;
  std::vector<std::string> order;       // nations in the order they act (Y1.3)
  std::map<std::string, Y1820Nation> nations;
  std::map<int32_t, Y1820Province> provinces;
  std::map<std::string, std::map<std::string, int32_t>> sea_fleets;  // sea → nation → fleets
  std::set<std::tuple<std::string, std::string>> wars;             // (low, high)
  std::set<std::tuple<std::string, std::string, std::string>> treaties;   // (low, high, kind) in force
  std::set<std::tuple<std::string, std::string, std::string>> announced;  // (by, other, kind) awaiting
  std::vector<Y1820Trade> trades;       // applied at the start of the next turn
  int32_t turns_done = 0;               // turns adjudicated (turn 0 included)
  bool ended = false;
  std::string end_reason, winner;
  std::map<std::string, std::vector<Y1820StandingOrder>> orders;  // nation → orders for the coming turn
  friend bool operator==(const Y1820State&, const Y1820State&) = default;

  const Y1820Nation* Nation(const std::string& id) const;
  const Y1820Province* Province(int32_t id) const;
  bool AtWar(const std::string& a, const std::string& b) const;
  bool HasTreaty(const std::string& a, const std::string& b, const std::string& kind) const;
  // The border kind between two provinces ("" when not adjacent).
  std::string Border(int32_t a, int32_t b) const;
  int32_t ArmiesOf(const std::string& nation) const;   // on the map
  int32_t FleetsOf(const std::string& nation) const;
};

class Y1820 final : public Fold<Y1820State> {
 public:
  std::unique_ptr<Projection> Clone() const override { return std::make_unique<Y1820>(*this); }
  std::string_view name() const override { return "y1820"; }
  // 1: without the drawn map's geography; 2: with it (lon, lat, seeds).
  uint32_t version() const override { return 2; }
  bool applies() const override { return s_.active; }
  void Apply(const Input& in) override;
  std::string Encode() const override;
  Status Decode(std::string_view bytes) override;
};

// The ordered pair key of two nations.
std::tuple<std::string, std::string> NationPair(const std::string& a, const std::string& b);

// Y1: the turn coordinates of turn index `i` (0: "Pre-1820", 1820.0; 1 …
// 252: 1820.1 … 1840.12) and its name.
Turn Y1820Turn(int32_t i);
std::string Y1820TurnName(int32_t i);

}  // namespace adjutant::projections
