// The battle view (dog): `adjutant report battle` — every unit's position,
// facing, formation, cohesion, fatigue, strength and casualties, the
// formation change under way and the moves a control result binds it for,
// at the end of any move of any branch; a side's report adds its units'
// intentions for the coming move (the other side's stay private); both end
// with what happened in the move, in words (a side's leaves out the refusals
// of the other side's orders); --svg draws the table with its terrain and
// units.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <fstream>

#include "maps/draw.h"
#include "reports/common.h"
#include "projections/battle.h"
#include "replay/driver.h"
#include "rules/dog/dog.h"
#include "schema/dog_generated.h"
#include "schema/event_generated.h"
#include "schema/reports_generated.h"
#include "schema/values.h"

namespace adjutant::reports {
namespace {

namespace P = projections;

std::string IntentText(const P::DogIntentState& i) {
  std::string t;
  auto add = [&](const std::string& x) { t += (t.empty() ? "" : "; ") + x; };
  if (i.hold) add("hold");
  if (i.reform) add("re-form");
  if (i.change_formation) add(std::string("form ") + fb::EnumNameDogFormation(static_cast<fb::DogFormation>(i.formation)));
  if (i.face >= 0) add("face " + std::to_string(i.face));
  if (!i.path.empty()) {
    std::string p = "move to";
    for (const auto& xy : i.path) p += " (" + std::to_string(xy.x) + "," + std::to_string(xy.y) + ")";
    add(p);
  }
  if (!i.charge.empty()) add("charge " + i.charge);
  return t.empty() ? "no orders" : t;
}

std::string N(int v) { return std::to_string(v); }
std::string S(const flatbuffers::String* s) { return s ? s->str() : std::string(); }
std::string At(const fb::DogPoint* p) { return p ? "(" + N(p->x()) + ", " + N(p->y()) + ")" : "?"; }
std::string Mods(const flatbuffers::String* m) { return m && m->size() ? " " + m->str() : ""; }

// One outcome of a move, in words, naming its rule.
std::string Narrate(const fb::DogEvent& ev) {
  if (auto* x = ev.body_as_DogFormationChanged()) {
    const std::string to = fb::EnumNameDogFormation(x->to());
    if (x->finished()) return S(x->unit()) + " formed " + to + " from " + fb::EnumNameDogFormation(x->from()) + " (" + S(x->rule()) + ")";
    return S(x->unit()) + " is forming " + to + ": " + N(x->done()) + " of " + N(x->time()) + " quarters done (" + S(x->rule()) + ")";
  }
  if (auto* x = ev.body_as_DogReformed()) {
    if (x->finished()) return S(x->unit()) + " re-formed from " + fb::EnumNameDogCohesion(x->from()) + " (" + S(x->rule()) + ")";
    return S(x->unit()) + " is re-forming: " + N(x->done()) + " of " + N(x->time()) + " quarters done (" + S(x->rule()) + ")";
  }
  if (auto* x = ev.body_as_DogMoved()) {
    std::string t = S(x->unit()) + (x->distance() ? " moved " + N(x->distance()) + " mm of " + N(x->allowance()) + " to " + At(x->to())
                                                  : " turned") + ", facing " + N(x->facing());
    if (x->terrain() && x->terrain()->size()) t += "; " + S(x->terrain());
    if (x->stopped() && x->stopped()->size()) t += "; stopped: " + S(x->stopped());
    return t + " (" + S(x->rule()) + ")";
  }
  if (auto* x = ev.body_as_DogStateChanged()) {
    return S(x->unit()) + " is " + fb::EnumNameDogCohesion(x->cohesion()) + ", " + fb::EnumNameDogFatigue(x->fatigue()) + ": " +
           S(x->cause()) + " (" + S(x->rule()) + ")";
  }
  if (auto* x = ev.body_as_DogCasualties()) {
    return S(x->unit()) + " lost " + N(x->men()) + " men: " + S(x->cause()) + " (" + S(x->rule()) + ")";
  }
  if (auto* x = ev.body_as_DogMeleeRound()) {
    const std::string w = S(x->winner());
    return "melee, round " + N(x->round()) + ": " + S(x->attacker()) + " " + N(x->attack_roll()) + Mods(x->attack_mods()) + " = " +
           N(x->attack_total()) + " against " + S(x->defender()) + " " + N(x->defence_roll()) + Mods(x->defence_mods()) + " = " +
           N(x->defence_total()) + ": " + (w.empty() ? "a draw" : w + " wins") + "; losses " + N(x->attacker_losses()) + " and " +
           N(x->defender_losses()) + " (D13)";
  }
  if (auto* x = ev.body_as_DogMoraleTest()) {
    return S(x->unit()) + " tests morale (" + S(x->occasion()) + "): " + N(x->factor()) + Mods(x->modifiers()) + " = " +
           N(x->total()) + ", rolled " + N(x->roll()) + ": " + S(x->result()) + " (" + S(x->rule()) + ")";
  }
  if (auto* x = ev.body_as_DogControlTest()) {
    return S(x->unit()) + " tests control (" + S(x->occasion()) + "): rolled " + N(x->roll()) + " +" + N(x->unit_factor()) +
           (x->senior_factor() ? " +" + N(x->senior_factor()) + " senior officer" : "") + Mods(x->modifiers()) + " = " +
           N(x->total()) + ": " + S(x->result()) + " (" + S(x->rule()) + ")";
  }
  if (auto* x = ev.body_as_DogRouted()) return S(x->unit()) + " routs to " + At(x->to()) + " (" + S(x->rule()) + ")";
  if (auto* x = ev.body_as_DogCommanderLost()) return "commander " + S(x->commander()) + " lost: " + S(x->cause());
  if (auto* x = ev.body_as_DogIntentRefused()) {
    return S(x->unit()) + "'s orders refused: " + S(x->reason()) + " (" + S(x->rule()) + ")";
  }
  if (auto* x = ev.body_as_DogBattleEnded()) {
    return "the battle ends: " + S(x->reason()) + (S(x->winner()).empty() ? "" : ", " + S(x->winner()) + " wins") + " (D12.5)";
  }
  return "";
}

// What happened in move `move` of the branch up to `upto`, in words; for
// `side`, without the refusals of the other side's orders (they are its own).
Result<std::vector<std::string>> MoveEvents(ledger::Ledger& db, const std::string& game, const std::string& branch,
                                            uint64_t upto, int32_t move, const P::BattleState& s,
                                            const std::string& side) {
  std::vector<std::string> out;
  if (move < 1) return out;
  const Turn want = P::DogMove(move);
  Status st = db.Read(game, branch, 1, upto, [&](const ledger::EventView& e) {
    const fb::Turn* t = e.event()->turn();
    if (!t || schema::TurnOf(t) != want) return Status::Ok();
    const auto* de = e.event()->payload_as_DogEvent();
    if (!de) return Status::Ok();
    if (const auto* r = de->body_as_DogIntentRefused(); r && !side.empty()) {
      const P::DogUnitState* u = s.Unit(S(r->unit()));
      if (u && u->side != side) return Status::Ok();
    }
    if (std::string line = Narrate(*de); !line.empty()) out.push_back(line);
    return Status::Ok();
  });
  if (!st.ok()) return st;
  return out;
}

std::string Colour(const P::BattleState& s, const std::string& side) {
  static const char* kColours[] = {"#c03030", "#3050c0", "#30a050", "#a06020"};
  for (size_t i = 0; i < s.sides.size(); ++i) {
    if (s.sides[i] == side) return kColours[i % 4];
  }
  return "#888";
}

std::string TerrainStyle(uint8_t kind) {
  switch (kind) {
    case fb::DogTerrainKind_OpenWoods: return "fill=\"#9fcf8f\" stroke=\"#4f8f3f\"";
    case fb::DogTerrainKind_DenseWoods: return "fill=\"#5f9f4f\" stroke=\"#2f6f1f\"";
    case fb::DogTerrainKind_Building: return "fill=\"#b08060\" stroke=\"#604020\"";
    case fb::DogTerrainKind_GentleSlope: return "fill=\"#e8dfc0\" stroke=\"#c8bf9f\"";
    case fb::DogTerrainKind_MediumSlope: return "fill=\"#d8c8a0\" stroke=\"#b8a880\"";
    case fb::DogTerrainKind_SteepSlope: return "fill=\"#c8b080\" stroke=\"#a89060\"";
    case fb::DogTerrainKind_ExtremeSlope: return "fill=\"#b89860\" stroke=\"#987840\"";
    case fb::DogTerrainKind_Stream: return "fill=\"none\" stroke=\"#4080d0\" stroke-width=\"4\"";
    case fb::DogTerrainKind_FordableRiver: return "fill=\"none\" stroke=\"#2060c0\" stroke-width=\"10\"";
    case fb::DogTerrainKind_LowWall: return "fill=\"none\" stroke=\"#506030\" stroke-width=\"4\" stroke-dasharray=\"8 4\"";
    default: return "fill=\"none\" stroke=\"#404040\" stroke-width=\"6\"";
  }
}

// The table: terrain, then each unit as a block of its frontage turned to its
// facing, labelled, with an arrow to where it faces.
// Terrain kinds in words, for the legend ("OpenWoods" -> "open woods").
std::string KindWords(uint8_t kind) {
  std::string out;
  for (char ch : std::string(fb::EnumNameDogTerrainKind(static_cast<fb::DogTerrainKind>(kind)))) {
    if (std::isupper(static_cast<unsigned char>(ch)) && !out.empty()) out += ' ';
    out += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  }
  return out;
}

std::string FormationWords(uint8_t f) {
  switch (f) {
    case fb::DogFormation_ColumnOfMarch: return "column of march";
    case fb::DogFormation_ColumnOfDivisions: return "column";
    case fb::DogFormation_Line: return "line";
    case fb::DogFormation_Square: return "square";
    case fb::DogFormation_Skirmish: return "skirmish";
    case fb::DogFormation_Limbered: return "limbered";
    case fb::DogFormation_Unlimbered: return "unlimbered";
  }
  return "?";
}

// The table drawn to scale (1 mm of table is 1 m of ground, D12): terrain
// with its names, each unit as its footprint — frontage by depth, turned to
// its facing, its side's colour — with a tick the way it faces and a label
// of its formation and strength; disorder and rout outlined; commanders;
// a scale bar and a legend for every kind drawn.
std::string Svg(const P::BattleState& s, const std::string& title) {
  const double tw = s.width > 0 ? s.width : 1800, th = s.height > 0 ? s.height : 1200;
  const double k = std::min(1200.0 / tw, 900.0 / th);  // px a metre
  const maps::Rect frame{0, 28, tw * k, th * k};
  auto P2 = [&](double x, double y) { return maps::Point{frame.x + x * k, frame.y + y * k}; };
  maps::Drawing d(std::max(frame.w, 640.0), frame, title);
  d.Add("open ground", "<rect x=\"0\" y=\"28\" width=\"" + maps::Num(frame.w) + "\" height=\"" + maps::Num(frame.h) +
                           "\" fill=\"#f4f0e0\" data-kind=\"open ground\"/>");
  d.Legend("open ground", "<rect x=\"2\" y=\"1\" width=\"20\" height=\"12\" fill=\"#f4f0e0\" stroke=\"#999\"/>",
           "open ground");
  std::vector<std::pair<std::string, maps::Point>> names;
  for (const auto& t : s.terrain) {
    if (t.points.empty()) continue;
    const bool linear = rules::dog::IsLinear(t.kind);
    const std::string kind = KindWords(t.kind);
    std::string path;
    double cx = 0, cy = 0;
    for (size_t i = 0; i < t.points.size(); ++i) {
      maps::Point q = P2(t.points[i].x, t.points[i].y);
      path += (i ? "L" : "M") + maps::Num(q.x) + " " + maps::Num(q.y);
      cx += q.x, cy += q.y;
    }
    if (!linear) path += "Z";
    maps::Point mid{cx / t.points.size(), cy / t.points.size()};
    if (linear) {
      const auto& m = t.points[t.points.size() / 2];
      mid = P2(m.x, m.y);
    }
    d.Add(kind, "<path d=\"" + path + "\" " + TerrainStyle(t.kind) + " data-kind=\"" + kind + "\"><title>" +
                    Xml(t.id + " (" + kind + ")") + "</title></path>");
    d.Legend(kind, "<path d=\"" + std::string(linear ? "M2 7H22" : "M2 1H22V13H2Z") + "\" " + TerrainStyle(t.kind) + "/>",
             kind + (t.uphill ? " (uphill marked)" : ""));
    std::string name = t.id;
    for (char& ch : name) {
      if (ch == '-' || ch == '_') ch = ' ';
    }
    names.push_back({name, mid});
  }
  // Units: footprint turned to the facing (0 = up the table, clockwise).
  for (const auto& [id, u] : s.units) {
    if (u.gone) continue;
    const double w = rules::dog::Frontage(u) * k;
    const double dep = (u.formation == fb::DogFormation_Line || u.formation == fb::DogFormation_Skirmish ? 16
                        : u.formation == fb::DogFormation_Square                                         ? rules::dog::Frontage(u)
                                                                                                          : 40) * k;
    const double a = u.facing * 3.14159265358979 / 180;
    const maps::Point c = P2(u.x, u.y);
    const maps::Point f{std::sin(a), -std::cos(a)}, r{std::cos(a), std::sin(a)};
    auto at = [&](double along, double back) {
      return maps::Point{c.x + r.x * along - f.x * back, c.y + r.y * along - f.y * back};
    };
    std::string rect;
    maps::Box foot{1e9, 1e9, -1e9, -1e9};
    for (auto [al, bk] : {std::pair{-w / 2, 0.0}, {w / 2, 0.0}, {w / 2, dep}, {-w / 2, dep}}) {
      maps::Point q = at(al, bk);
      rect += (rect.empty() ? "M" : "L") + maps::Num(q.x) + " " + maps::Num(q.y);
      foot = {std::min(foot.x0, q.x), std::min(foot.y0, q.y), std::max(foot.x1, q.x), std::max(foot.y1, q.y)};
    }
    rect += "Z";
    const std::string side_kind = "side " + u.side;
    d.Add(side_kind, "<path d=\"" + rect + "\" fill=\"" + Colour(s, u.side) + "\" fill-opacity=\"0.85\" stroke=\"#222\" data-kind=\"" +
                         Xml(side_kind) + "\"><title>" +
                         Xml(id + " " + u.name + ": " + FormationWords(u.formation) + ", " + std::to_string(u.strength) +
                             " men, facing " + std::to_string(u.facing)) +
                         "</title></path>");
    if (u.routing || u.cohesion != fb::DogCohesion_Formed) {
      const std::string kk = u.routing ? "routing" : "unformed or disordered";
      d.Add(kk, "<path d=\"" + rect + "\" fill=\"none\" stroke=\"" + std::string(u.routing ? "#000" : "#e0c000") +
                    "\" stroke-width=\"2.5\" stroke-dasharray=\"" + (u.routing ? "4 2" : "none") + "\" data-kind=\"" + kk + "\"/>");
    }
    maps::Point tip{c.x + f.x * 14, c.y + f.y * 14};
    d.Block({std::min(c.x, tip.x) - 2, std::min(c.y, tip.y) - 2, std::max(c.x, tip.x) + 2, std::max(c.y, tip.y) + 2});
    d.Add("facing", "<path d=\"M" + maps::Num(c.x) + " " + maps::Num(c.y) + "L" + maps::Num(tip.x) + " " + maps::Num(tip.y) +
                        "\" stroke=\"#222\" stroke-width=\"2\" data-kind=\"facing\"/>");
    d.Block(foot);
  }
  for (size_t i = 0; i < s.sides.size(); ++i) {
    d.Legend("side " + s.sides[i], "<rect x=\"2\" y=\"3\" width=\"20\" height=\"8\" fill=\"" + Colour(s, s.sides[i]) +
                                       "\" stroke=\"#222\"/>",
             s.sides[i] + "'s units (frontage by depth, to scale)");
  }
  d.Legend("facing", "<path d=\"M12 13V2\" stroke=\"#222\" stroke-width=\"2\"/>", "the way a unit faces");
  d.Legend("routing", "<rect x=\"2\" y=\"3\" width=\"20\" height=\"8\" fill=\"none\" stroke=\"#000\" stroke-width=\"2\" stroke-dasharray=\"4 2\"/>",
           "routing");
  d.Legend("unformed or disordered", "<rect x=\"2\" y=\"3\" width=\"20\" height=\"8\" fill=\"none\" stroke=\"#e0c000\" stroke-width=\"2\"/>",
           "unformed or disordered");
  for (const auto& [id, cm] : s.commanders) {
    if (cm.lost) continue;
    maps::Point q = P2(cm.x, cm.y);
    d.Add("commander", "<circle cx=\"" + maps::Num(q.x) + "\" cy=\"" + maps::Num(q.y) + "\" r=\"5\" fill=\"" + Colour(s, cm.side) +
                           "\" stroke=\"#000\" stroke-width=\"1.5\" data-kind=\"commander\"><title>" + Xml(cm.name) + "</title></circle>");
    d.Block({q.x - 6, q.y - 6, q.x + 6, q.y + 6});
  }
  d.Legend("commander", "<circle cx=\"12\" cy=\"7\" r=\"5\" fill=\"#fff\" stroke=\"#000\" stroke-width=\"1.5\"/>", "commander");
  d.ScaleBar({frame.x + 12, frame.bottom() - 12}, 200 * k, "200 m", "scale (1 mm of table is 1 m, D12)");
  // The labels: units (id, formation, strength), commanders, terrain.
  for (const auto& [id, u] : s.units) {
    if (u.gone) continue;
    const maps::Point c = P2(u.x, u.y);
    const std::string str = std::to_string(u.strength);
    d.Label("unit label", {id + ", " + FormationWords(u.formation) + ", " + str, id + " " + str, id}, c, 10, 60,
            "fill=\"#111\"", "#444444");
  }
  d.Legend("unit label", "<text x=\"2\" y=\"11\" font-size=\"10\">52</text>", "unit: formation, men");
  for (const auto& [id, cm] : s.commanders) {
    if (!cm.lost) d.Label("commander name", {cm.name}, P2(cm.x, cm.y), 9, 30, "font-style=\"italic\" fill=\"#222\"");
  }
  d.Legend("commander name", "<text x=\"2\" y=\"11\" font-size=\"9\" font-style=\"italic\">Hill</text>", "commander's name");
  for (const auto& [name, at] : names) {
    d.Label("terrain name", {name}, at, 10, 40, "font-style=\"italic\" fill=\"#4a4a2a\"");
  }
  d.Legend("terrain name", "<text x=\"2\" y=\"11\" font-size=\"10\" font-style=\"italic\" fill=\"#4a4a2a\">wood</text>",
           "terrain");
  return d.Finish();
}

}  // namespace

Status BattleReport(Ctx& c, const std::string& game) {
  const std::string& branch = c.branch;
  uint64_t upto = UINT64_MAX;
  if (const auto& m = c.rq.move) {
    auto n = ParseU64(*m);
    if (!n || *n > 100000) return Status::InvalidArgument("--move: '" + *m + "' is not a move number");
    auto end = EndOfTurn(c.db, game, branch, P::DogMove(static_cast<int32_t>(*n)));
    if (!end.ok()) return end.status();
    upto = *end;
  }
  auto world = replay::Fold(c.db, game, branch, upto);
  if (!world.ok()) return world.status();
  if (!world->battle().active) return Status::InvalidArgument("game '" + game + "' is not a Death or Glory battle");
  const P::BattleState& s = world->battle();
  std::string side = c.rq.side;
  if (!side.empty() && std::find(s.sides.begin(), s.sides.end(), side) == s.sides.end()) {
    std::string known;
    for (const auto& x : s.sides) known += (known.empty() ? "" : ", ") + x;
    return Status::InvalidArgument("--side: battle '" + game + "' has no side '" + side + "' (sides: " + known + ")");
  }
  const std::string when = s.moves_done == 0 ? "before the first move" : "after move " + std::to_string(s.moves_done);
  if (c.wants_drawing() && c.Draw(Svg(s, game + "/" + branch + ", " + when))) return Status::Ok();
  auto happened = MoveEvents(c.db, game, branch, upto == UINT64_MAX ? world->head.seq : upto, s.moves_done, s, side);
  if (!happened.ok()) return happened.status();
  auto intent_of = [&](const std::string& id, const P::DogUnitState& u) -> std::string {
    if (!side.empty() && u.side != side) return "";  // the other side's intentions are its own
    auto it = s.intents.find(id);
    return it == s.intents.end() ? "" : IntentText(it->second);
  };
  if (c.json()) {
    flatbuffers::FlatBufferBuilder f;
    std::vector<flatbuffers::Offset<fb::DogUnitRow>> rows;
    for (const auto& [id, u] : s.units) {
      std::string changing = u.changing_to >= 0 ? fb::EnumNameDogFormation(static_cast<fb::DogFormation>(u.changing_to)) : "";
      rows.push_back(fb::CreateDogUnitRowDirect(
          f, id.c_str(), u.side.c_str(), u.name.c_str(), fb::EnumNameDogNation(static_cast<fb::DogNation>(u.nation)),
          fb::EnumNameDogArm(static_cast<fb::DogArm>(u.arm)), fb::EnumNameDogClass(static_cast<fb::DogClass>(u.cls)),
          fb::EnumNameDogFormation(static_cast<fb::DogFormation>(u.formation)), changing.c_str(),
          fb::EnumNameDogCohesion(static_cast<fb::DogCohesion>(u.cohesion)),
          fb::EnumNameDogFatigue(static_cast<fb::DogFatigue>(u.fatigue)), u.strength, u.start_strength - u.strength,
          u.x, u.y, u.facing, rules::dog::Frontage(u), u.shaken, u.routing, u.gone, u.bound.c_str(), u.bound_moves,
          intent_of(id, u).c_str(), u.reform_done, u.reform_time));
    }
    std::string ended = s.ended ? s.end_reason + (s.winner.empty() ? "" : ", " + s.winner + " wins") : "";
    std::vector<flatbuffers::Offset<flatbuffers::String>> lines;
    for (const auto& l : *happened) lines.push_back(f.CreateString(l));
    f.Finish(fb::CreateDogBattleReportDirect(f, game.c_str(), branch.c_str(), s.moves_done,
                                            upto == UINT64_MAX ? world->head.seq : upto, side.c_str(), ended.c_str(),
                                            &rows, &lines, flatbuffers::Offset<fb::ReportHead>(c.HeadJson(f))));
    return c.PrintJson("DogBattleReport", f);
  }
  c.Line("Battle " + game + "/" + branch + ", " + when + " of " + std::to_string(s.max_moves) +
       (side.empty() ? "" : ", the " + side + " side's report") +
       (s.ended ? "; ended: " + s.end_reason + (s.winner.empty() ? "" : ", " + s.winner + " wins") : ""));
  for (const std::string& sd : s.sides) {
    if (!side.empty() && sd != side) c.Line("The " + sd + " side (as seen across the field):");
    else c.Line("The " + sd + " side:");
    for (const auto& [id, u] : s.units) {
      if (u.side != sd) continue;
      std::string line = "  " + id + " " + u.name + ": " + fb::EnumNameDogArm(static_cast<fb::DogArm>(u.arm)) + ", " +
                         fb::EnumNameDogFormation(static_cast<fb::DogFormation>(u.formation));
      if (u.changing_to >= 0) {
        line += std::string(" (forming ") + fb::EnumNameDogFormation(static_cast<fb::DogFormation>(u.changing_to)) + ", " +
                std::to_string(u.change_done) + "/" + std::to_string(u.change_time) + " quarters)";
      }
      if (u.reform_time > 0) {
        line += " (re-forming, " + std::to_string(u.reform_done) + "/" + std::to_string(u.reform_time) + " quarters)";
      }
      line += " at (" + std::to_string(u.x) + ", " + std::to_string(u.y) + ") facing " + std::to_string(u.facing) + ", " +
              fb::EnumNameDogCohesion(static_cast<fb::DogCohesion>(u.cohesion)) + ", " +
              fb::EnumNameDogFatigue(static_cast<fb::DogFatigue>(u.fatigue)) + ", " + std::to_string(u.strength) + " of " +
              std::to_string(u.start_strength) + " men";
      if (u.shaken) line += ", shaken";
      if (u.routing) line += ", ROUTING";
      if (u.gone) line += ", gone";
      if (!u.bound.empty()) line += ", must " + u.bound + " " + std::to_string(u.bound_moves) + " more move(s) (D11)";
      std::string intent = intent_of(id, u);
      if (!intent.empty()) line += "; orders: " + intent;
      c.Line(line);
    }
  }
  if (s.moves_done > 0) {
    c.Line("What happened in move " + std::to_string(s.moves_done) + ":");
    for (const auto& l : *happened) c.Line("  " + l);
  }
  return Status::Ok();
}

}  // namespace adjutant::reports
