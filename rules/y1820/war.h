// Y5, Y8, Y9, Y3: one nation's moves in a turn — armies by land, by
// railroad and under escort across sea zones, fleets at sea — with the
// battles they bring, captures, fleeing fleets, fallen capitals and
// loyalists. Internal to rules/y1820.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "rules/y1820/context.h"

namespace adjutant::rules::y1820 {

class Moves {
 public:
  Moves(Ctx& c, std::string nation) : c_(c), nation_(std::move(nation)) {}
  // Y9.1 with Y9.3 (version 9): the nation's orders this turn, read ahead so
  // that its moves into one hostile province fight as one side when the last
  // of them is reached (Army: every move order is reached while the nation
  // lives, so none is left waiting).
  void Plan(const std::vector<projections::Y1820StandingOrder>& orders);
  Status Army(const projections::Y1820StandingOrder& o);
  Status Fleet(const projections::Y1820StandingOrder& o);
  // Y8.2 (version 7): the nation's fleets attack the enemy fleets sharing a zone with them.
  Status Engage();
  // Y9.1 (version 8): the nation's armies still standing on an enemy's ground attack it there.
  Status Besiege();

 private:
  // One order's armies in an attack: where they attack from (counted there
  // until they win, Y9.5), how many are left, and their Y9.2 penalty; the
  // sea zones crossed and the rule of the move, for the plain move made
  // instead should the province pass to the nation before the battle.
  struct Column {
    int32_t from = 0;
    int32_t armies = 0;
    int penalty = 0;
    std::string penalty_name;
    std::vector<std::string> seas;
    std::string rule;
  };
  Status ArmyOrder(const projections::Y1820StandingOrder& o);
  // The nation's armies in `province` free this turn: not those that arrived
  // or fought there, nor (version 9) those waiting there to attack elsewhere
  // (`waiting`, if given, says how many wait for where).
  int32_t FreeIn(int32_t province, std::string* waiting = nullptr) const;
  void MovedIn(int32_t from, int32_t to, int32_t k, const std::vector<int32_t>& via,
               const std::vector<std::string>& seas, const std::string& rule);
  // One column's battle (version 8's moves, Besiege).
  Status Battle(int32_t from, int32_t to, int32_t armies, int penalty, const std::string& penalty_name);
  Status Attack(int32_t to, std::vector<Column> columns);
  Status Fight(int32_t to);
  Status Capture(int32_t province, bool fought);
  Status FleeFleets(int32_t port, const std::string& owner);
  Status Flee(int32_t port, const std::string& owner);
  Status FallOfCapital(const std::string& loser, int32_t province);
  Status Eliminate(const std::string& loser);

  Ctx& c_;
  std::string nation_;
  std::map<int32_t, int32_t> arrived_;           // armies that moved into a province this turn, or fought there
  std::map<std::string, int32_t> escorts_used_;  // Y8.3: fleet escorts used in a sea zone
  std::map<std::string, int32_t> fleets_arrived_;  // fleets that moved this turn, by "port:N" or sea
  // Version 9: the last move order naming each province (by seq), and the
  // columns waiting to attack a province (their armies are held back in the
  // provinces they attack from).
  std::map<int32_t, uint64_t> last_move_to_;
  std::map<int32_t, std::vector<Column>> waiting_;
};

}  // namespace adjutant::rules::y1820
