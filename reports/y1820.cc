// The y1820 views: `adjutant report map` (every province: owner, capital,
// improvements, armies and fleets; the sea zones' fleets; --svg draws it)
// and `adjutant report nation` (a nation's government, reforms, research,
// treaties, army limit and spawn points; what only its ruler sees is left
// out with --public). Rendered from the y1820 projection as it stood at the
// end of any turn of any branch.
#include <fstream>
#include <map>
#include <set>

#include "reports/common.h"
#include "reports/drawn.h"
#include "projections/y1820.h"
#include "replay/driver.h"
#include "rules/y1820/formulas.h"
#include "rules/y1820/tables.h"
#include "rules/y1820/y1820.h"
#include "schema/reports_generated.h"

namespace adjutant::reports {
namespace {

namespace P = projections;
namespace y = rules::y1820;

// A column of n characters (UTF-8 aware: "Liège" is five); a longer value
// keeps one space before the next.
std::string Pad(std::string s, size_t n) {
  size_t chars = 0;
  for (unsigned char ch : s) chars += (ch & 0xC0) != 0x80;
  s.append(chars < n ? n - chars : 1, ' ');
  return s;
}

struct Y1820Folded {
  replay::World world;
  uint64_t upto = 0;
  const P::Y1820State& s() const { return world.y1820(); }
};

Result<Y1820Folded> FoldY1820(Ctx& c, const std::string& game) {
  Y1820Folded f;
  auto world = WorldAt(c, game, &f.upto);
  if (!world.ok()) return world.status();
  if (!world->y1820().active) return Status::InvalidArgument("game '" + game + "' does not play y1820 (no map or nations)");
  f.world = std::move(world).value();
  return f;
}

std::string TurnLabel(const P::Y1820State& s) {
  return s.turns_done == 0 ? "before turn 0" : P::Y1820TurnName(s.turns_done - 1);
}

std::string CapitalOf(const P::Y1820State& s, int32_t id) {
  for (const auto& [n, nat] : s.nations) {
    if (!nat.eliminated && nat.capital == id) return n;
  }
  return "";
}

std::string Counts(const std::map<std::string, int32_t>& m) {
  std::string out;
  for (const auto& [n, k] : m) out += (out.empty() ? "" : " ") + n + ":" + std::to_string(k);
  return out;
}

// The drawn map: provinces as discs coloured by owner at the map's points,
// borders as lines (mountain and water crossings dashed), armies as the
// number in the disc, fleets as a blue badge, capitals ringed, epidemics
// outlined in purple; sea zones as labelled blue ellipses with their fleets.
std::string Svg(const P::Y1820State& s, const std::string& title) {
  std::string o;
  o += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + std::to_string(s.width) + "\" height=\"" +
       std::to_string(s.height + 40) + "\" viewBox=\"0 0 " + std::to_string(s.width) + " " +
       std::to_string(s.height + 40) + "\" font-family=\"sans-serif\">\n";
  o += "<rect width=\"100%\" height=\"100%\" fill=\"#eef4f8\"/>\n";
  o += "<text x=\"10\" y=\"22\" font-size=\"16\">" + Xml(title) + "</text>\n";
  for (const auto& [id, z] : s.seas) {
    o += "<ellipse cx=\"" + std::to_string(z.x) + "\" cy=\"" + std::to_string(z.y) +
         "\" rx=\"34\" ry=\"16\" fill=\"#bcd7ee\" opacity=\"0.8\"/>\n";
    std::string label = id;
    auto sf = s.sea_fleets.find(id);
    if (sf != s.sea_fleets.end()) label += " " + Counts(sf->second);
    o += "<text x=\"" + std::to_string(z.x) + "\" y=\"" + std::to_string(z.y + 4) +
         "\" font-size=\"10\" text-anchor=\"middle\" fill=\"#1b4f7a\">" + Xml(label) + "</text>\n";
  }
  for (const auto& [ab, kind] : s.borders) {
    auto a = s.defs.find(std::get<0>(ab)), b = s.defs.find(std::get<1>(ab));
    if (a == s.defs.end() || b == s.defs.end()) continue;
    std::string style = kind == "land"       ? "stroke=\"#999\""
                        : kind == "mountain" ? "stroke=\"#8a5a2b\" stroke-dasharray=\"4 3\" stroke-width=\"2\""
                                             : "stroke=\"#d03030\" stroke-dasharray=\"2 3\" stroke-width=\"2\"";
    o += "<line x1=\"" + std::to_string(a->second.x) + "\" y1=\"" + std::to_string(a->second.y) + "\" x2=\"" +
         std::to_string(b->second.x) + "\" y2=\"" + std::to_string(b->second.y) + "\" " + style + "/>\n";
  }
  for (const auto& [id, d] : s.defs) {
    const auto* p = s.Province(id);
    std::string fill = "#c8c8c8";  // neutral
    if (p && !p->owner.empty()) {
      const auto* n = s.Nation(p->owner);
      fill = n && !n->color.empty() ? n->color : "#888";
    } else if (p && !p->npc.empty() && p->npc.rfind("Free ", 0) == 0) {
      fill = "#6fbf6f";  // Y14.3: a revolted NPC state is green
    }
    std::string cap = CapitalOf(s, id);
    std::string stroke = p && p->epidemic ? "#8000a0" : cap.empty() ? "#333" : "#000";
    std::string width = p && p->epidemic ? "3" : cap.empty() ? "1" : "3";
    o += "<g><title>" + Xml(std::to_string(id) + " " + d.name + (p && !p->owner.empty() ? " (" + p->owner + ")" : "") +
                            (cap.empty() ? "" : ", capital of " + cap) +
                            (p && !p->improvements.empty() ? ", " + [&] {
                              std::string t;
                              for (const auto& i : p->improvements) t += (t.empty() ? "" : ", ") + i;
                              return t;
                            }() : "") +
                            (p && p->epidemic ? ", epidemic" : "")) +
         "</title>";
    o += "<circle cx=\"" + std::to_string(d.x) + "\" cy=\"" + std::to_string(d.y) + "\" r=\"" +
         (d.populous ? "14" : "12") + "\" fill=\"" + Xml(fill) + "\" stroke=\"" + stroke + "\" stroke-width=\"" + width +
         "\"/>";
    int armies = 0;
    if (p) {
      for (const auto& [n, k] : p->armies) armies += k;
      armies += p->garrison;
    }
    o += "<text x=\"" + std::to_string(d.x) + "\" y=\"" + std::to_string(d.y + 4) +
         "\" font-size=\"11\" text-anchor=\"middle\" fill=\"#fff\" stroke=\"#000\" stroke-width=\"0.3\">" +
         (armies ? std::to_string(armies) : "") + "</text>";
    o += "<text x=\"" + std::to_string(d.x) + "\" y=\"" + std::to_string(d.y + 24) +
         "\" font-size=\"8\" text-anchor=\"middle\" fill=\"#222\">" + std::to_string(id) + " " + Xml(d.name) + "</text>";
    int fleets = 0;
    if (p) for (const auto& [n, k] : p->fleets) fleets += k;
    if (fleets) {
      o += "<rect x=\"" + std::to_string(d.x + 9) + "\" y=\"" + std::to_string(d.y - 17) +
           "\" width=\"13\" height=\"10\" rx=\"2\" fill=\"#1b4f7a\"/><text x=\"" + std::to_string(d.x + 15) + "\" y=\"" +
           std::to_string(d.y - 9) + "\" font-size=\"8\" text-anchor=\"middle\" fill=\"#fff\">" + std::to_string(fleets) +
           "</text>";
    }
    o += "</g>\n";
  }
  // The legend: each nation's colour.
  int x = 10;
  for (const std::string& n : s.order) {
    const auto* nat = s.Nation(n);
    o += "<rect x=\"" + std::to_string(x) + "\" y=\"" + std::to_string(s.height + 12) + "\" width=\"12\" height=\"12\" fill=\"" +
         Xml(nat->color.empty() ? "#888" : nat->color) + "\"/><text x=\"" + std::to_string(x + 16) + "\" y=\"" +
         std::to_string(s.height + 22) + "\" font-size=\"11\">" + Xml(n + (nat->eliminated ? " (gone)" : "")) + "</text>\n";
    x += 80;
  }
  o += "</svg>\n";
  return o;
}

flatbuffers::Offset<flatbuffers::Vector<flatbuffers::Offset<fb::Y1820Count>>> CountVec(
    flatbuffers::FlatBufferBuilder& f, const std::map<std::string, int32_t>& m, int32_t garrison = 0) {
  std::vector<flatbuffers::Offset<fb::Y1820Count>> v;
  if (garrison) v.push_back(fb::CreateY1820CountDirect(f, "", garrison));
  for (const auto& [n, k] : m) v.push_back(fb::CreateY1820CountDirect(f, n.c_str(), k));
  return f.CreateVector(v);
}

std::string OrderText(const P::Y1820StandingOrder& o) {
  std::string k = o.kind.substr(5);  // without "Y1820"
  auto ints = [&] {
    std::string t;
    for (int32_t i : o.ints) t += (t.empty() ? "" : ",") + std::to_string(i);
    return t;
  };
  auto strs = [&] {
    std::string t;
    for (const auto& x : o.strs) t += (t.empty() ? "" : ",") + x;
    return t;
  };
  if (k == "Deploy") return "deploy " + std::to_string(o.n) + " armies, " + std::to_string(o.b) + " fleets at " + std::to_string(o.a) + (o.s1.empty() ? "" : " (" + o.s1 + ")");
  if (k == "Move") {
    return "move " + std::to_string(o.n) + " armies " + std::to_string(o.a) + " -> " + std::to_string(o.b) +
           (o.ints.empty() ? "" : " by railroad via " + ints()) + (o.strs.empty() ? "" : " by sea across " + strs());
  }
  if (k == "FleetMove") {
    return "move " + std::to_string(o.n) + " fleets " + (o.a ? std::to_string(o.a) : o.s1) + " -> " +
           (o.b ? std::to_string(o.b) : o.s2);
  }
  if (k == "RaiseFleet") return "raise a fleet at " + std::to_string(o.a);
  if (k == "DismantleFleet") return "dismantle a fleet at " + std::to_string(o.a);
  if (k == "Build") return "build " + o.s1 + " in " + std::to_string(o.a);
  if (k == "Dismantle") return "dismantle " + o.s1 + " in " + std::to_string(o.a);
  if (k == "Research") return "research " + o.s1;
  if (k == "Reform") return "pursue the reform " + o.s1;
  if (k == "DeclareWar") return "declare war on " + o.s1;
  if (k == "Treaty") return "announce a " + o.s2 + " treaty with " + o.s1;
  if (k == "RallyPoints") return "rally points " + ints();
  if (k == "GiveProvince") return "give province " + std::to_string(o.a) + " to " + o.s1;
  if (k == "GiveTech") return "give " + o.s2 + " to " + o.s1;
  return k;
}

}  // namespace

Status MapReport(Ctx& c, const std::string& game) {
  const std::string& branch = c.branch;
  auto f = FoldY1820(c, game);
  if (!f.ok()) return f.status();
  const P::Y1820State& s = f->s();
  const std::string turn = TurnLabel(s);
  if (c.wants_drawing()) {
    const std::string title = game + "/" + branch + ", after " + turn;
    if (c.Draw(Y1820HasGeography(s) ? Y1820GeoSvg(s, title) : Svg(s, title))) return Status::Ok();
  }
  if (c.json()) {
    flatbuffers::FlatBufferBuilder fbb;
    std::vector<flatbuffers::Offset<fb::Y1820ProvinceRow>> rows;
    for (const auto& [id, d] : s.defs) {
      const auto* p = s.Province(id);
      std::vector<std::string> imps(p->improvements.begin(), p->improvements.end());
      auto cap = CapitalOf(s, id);
      rows.push_back(fb::CreateY1820ProvinceRow(fbb, id, fbb.CreateString(d.name), fbb.CreateString(p->owner),
                                                fbb.CreateString(p->npc), fbb.CreateString(cap), d.populous,
                                                fbb.CreateVectorOfStrings(imps), CountVec(fbb, p->armies, p->garrison),
                                                CountVec(fbb, p->fleets), p->epidemic));
    }
    std::vector<flatbuffers::Offset<fb::Y1820SeaRow>> seas;
    for (const auto& [id, z] : s.seas) {
      auto sf = s.sea_fleets.find(id);
      seas.push_back(fb::CreateY1820SeaRow(fbb, fbb.CreateString(id), fbb.CreateString(z.name),
                                           CountVec(fbb, sf == s.sea_fleets.end() ? std::map<std::string, int32_t>{}
                                                                                   : sf->second)));
    }
    fbb.Finish(fb::CreateY1820MapReport(fbb, fbb.CreateString(game), fbb.CreateString(branch), fbb.CreateString(turn),
                                        f->upto == UINT64_MAX ? f->world.head.seq : f->upto, fbb.CreateVector(rows),
                                        fbb.CreateVector(seas), flatbuffers::Offset<fb::ReportHead>(c.HeadJson(fbb))));
    return c.PrintJson("Y1820MapReport", fbb);
  }
  c.Line("Map of " + game + "/" + branch + " (" + s.map_name + "), after " + turn +
       (s.ended ? "; the game has ended: " + s.end_reason + (s.winner.empty() ? "" : ", " + s.winner + " wins") : ""));
  c.Line(Pad("prov", 5) + Pad("name", 20) + Pad("owner", 22) + Pad("armies", 16) + Pad("fleets", 10) + "improvements");
  for (const auto& [id, d] : s.defs) {
    const auto* p = s.Province(id);
    std::string owner = p->owner.empty() ? (p->npc.empty() ? "-" : p->npc) : p->owner;
    std::string cap = CapitalOf(s, id);
    if (!cap.empty()) owner += " (capital)";
    if (d.populous) owner += " *";
    std::string armies = Counts(p->armies);
    if (p->garrison) armies += (armies.empty() ? "" : " ") + std::string("neutral:") + std::to_string(p->garrison);
    std::string imps;
    for (const auto& i : p->improvements) imps += (imps.empty() ? "" : ", ") + i;
    if (p->epidemic) imps += (imps.empty() ? "" : "; ") + std::string("EPIDEMIC");
    c.Line(Pad(std::to_string(id), 5) + Pad(d.name, 20) + Pad(owner, 22) + Pad(armies, 16) + Pad(Counts(p->fleets), 10) +
         imps);
  }
  std::string at_sea;
  for (const auto& [sea, by] : s.sea_fleets) at_sea += (at_sea.empty() ? "" : "; ") + sea + " " + Counts(by);
  c.Line("Fleets at sea: " + (at_sea.empty() ? std::string("none") : at_sea));
  c.Line("(* populous; armies and fleets by nation)");
  return Status::Ok();
}

namespace {

std::string List(const std::vector<std::string>& v) {
  std::string t;
  for (const auto& x : v) t += (t.empty() ? "" : ", ") + x;
  return t.empty() ? "none" : t;
}

std::string Ints(const std::vector<int32_t>& v) {
  std::string t;
  for (int32_t x : v) t += (t.empty() ? "" : ", ") + std::to_string(x);
  return t.empty() ? "none" : t;
}

}  // namespace

Status NationReport(Ctx& c, const std::string& game) {
  const std::string* id = c.rq.nation.empty() ? nullptr : &c.rq.nation;
  if (!id) return Status::InvalidArgument("adjutant report nation: --nation N is required");
  const std::string& branch = c.branch;
  auto f = FoldY1820(c, game);
  if (!f.ok()) return f.status();
  const P::Y1820State& s = f->s();
  const rules::RulesVersions versions = replay::GameVersions(replay::SummaryOf(f->world));  // Y11.1 counts by them
  const P::Y1820Nation* n = s.Nation(*id);
  if (!n) {
    std::string known;
    for (const auto& x : s.order) known += (known.empty() ? "" : ", ") + x;
    return Status::InvalidArgument("--nation: game '" + game + "' has no nation '" + *id + "' (nations: " + known + ")");
  }
  bool pub = c.rq.public_only;
  std::vector<int32_t> provinces;
  for (const auto& [pid, p] : s.provinces) if (p.owner == *id) provinces.push_back(pid);
  auto limit = y::ArmyLimitOf(s, *id);
  std::vector<std::string> wars, treaties, announced, awaited;
  for (const auto& [a, b] : s.wars) {
    if (a == *id) wars.push_back(b);
    if (b == *id) wars.push_back(a);
  }
  for (const auto& [a, b, k] : s.treaties) {
    if (a == *id) treaties.push_back(k + " with " + b);
    if (b == *id) treaties.push_back(k + " with " + a);
  }
  for (const auto& [by, other, k] : s.announced) {
    if (by == *id) announced.push_back(k + " with " + other);
    if (other == *id) awaited.push_back(k + " from " + by);
  }
  std::vector<std::string> reforms(n->reforms.begin(), n->reforms.end()), techs(n->techs.begin(), n->techs.end());
  auto rp = y::ResearchPointsOf(s, *id);
  const y::Tech* tech = y::FindTech(n->research);
  const y::Reform* reform = y::FindReform(n->reform);
  y::ReformChances ch;
  if (reform) ch = y::ReformChancesOf(reform->chance_pct, n->government, n->reforms.count("New Philosophies") > 0);
  std::vector<std::string> orders;
  if (auto it = s.orders.find(*id); it != s.orders.end()) {
    for (const auto& o : it->second) orders.push_back(std::to_string(o.seq) + ": " + OrderText(o));
  }
  const y::Government* gov = y::FindGovernment(n->government);
  std::string gov_name = gov ? std::string(gov->name) : n->government;
  const std::string turn = TurnLabel(s);
  std::vector<int32_t> spawn = y::SpawnPoints(s, *id);
  if (c.json()) {
    flatbuffers::FlatBufferBuilder fbb;
    fb::Y1820NationReportBuilder* unused = nullptr;
    (void)unused;
    auto game_o = fbb.CreateString(game), branch_o = fbb.CreateString(branch), turn_o = fbb.CreateString(turn);
    auto id_o = fbb.CreateString(*id), name_o = fbb.CreateString(n->name), gov_o = fbb.CreateString(n->government);
    auto prov_o = fbb.CreateVector(provinces), spawn_o = fbb.CreateVector(spawn),
         rally_o = fbb.CreateVector(n->rally_points);
    auto reforms_o = fbb.CreateVectorOfStrings(reforms), techs_o = fbb.CreateVectorOfStrings(techs);
    auto wars_o = fbb.CreateVectorOfStrings(wars), treaties_o = fbb.CreateVectorOfStrings(treaties);
    auto ann_o = fbb.CreateVectorOfStrings(announced), await_o = fbb.CreateVectorOfStrings(awaited);
    auto bd_o = fbb.CreateString(limit.breakdown);
    flatbuffers::Offset<flatbuffers::String> research_o, rbd_o, reform_o;
    flatbuffers::Offset<flatbuffers::Vector<flatbuffers::Offset<flatbuffers::String>>> orders_o;
    if (!pub) {
      research_o = fbb.CreateString(n->research);
      rbd_o = fbb.CreateString(rp.breakdown);
      reform_o = fbb.CreateString(n->reform);
      orders_o = fbb.CreateVectorOfStrings(orders);
    }
    const auto head_o = flatbuffers::Offset<fb::ReportHead>(c.HeadJson(fbb));
    fb::Y1820NationReportBuilder b(fbb);
    b.add_head(head_o);
    b.add_game(game_o);
    b.add_branch(branch_o);
    b.add_turn(turn_o);
    b.add_as_of(f->upto == UINT64_MAX ? f->world.head.seq : f->upto);
    b.add_nation(id_o);
    b.add_name(name_o);
    b.add_government(gov_o);
    b.add_capital(n->capital);
    b.add_original_capital(n->original_capital);
    b.add_eliminated(n->eliminated);
    b.add_provinces(prov_o);
    b.add_armies(s.ArmiesOf(*id));
    b.add_army_limit(limit.total);
    b.add_army_limit_breakdown(bd_o);
    b.add_fleets(s.FleetsOf(*id));
    b.add_spawn_points(spawn_o);
    b.add_rally_points(rally_o);
    b.add_reforms(reforms_o);
    b.add_techs(techs_o);
    b.add_wars(wars_o);
    b.add_treaties(treaties_o);
    b.add_announced(ann_o);
    b.add_awaited(await_o);
    b.add_domination_turns(n->domination_turns);
    if (!pub) {
      b.add_research(research_o);
      b.add_research_progress(n->progress);
      b.add_research_cost(tech ? tech->cost : 0);
      b.add_research_points(rp.total);
      b.add_research_breakdown(rbd_o);
      b.add_reform(reform_o);
      b.add_reform_success(ch.success);
      b.add_reform_revolt(ch.revolt);
      b.add_improvements_per_turn(y::ImprovementsAllowed(s, *id, versions.Of(y::kRuleset)));
      b.add_orders(orders_o);
    }
    fbb.Finish(b.Finish());
    return c.PrintJson("Y1820NationReport", fbb);
  }
  c.Line(n->name + " (" + *id + "), " + gov_name + (n->eliminated ? " — eliminated" : "") + ": " + game + "/" + branch +
       ", after " + turn + (pub ? " (public)" : ""));
  auto name_of = [&](int32_t p) {
    auto d = s.defs.find(p);
    return std::to_string(p) + (d == s.defs.end() ? "" : " " + d->second.name);
  };
  if (!n->eliminated) {
    c.Line("  Capital: " + name_of(n->capital) +
         (n->original_capital ? " (standing in for " + name_of(n->original_capital) + ", Y3)" : ""));
  }
  c.Line("  Provinces (" + std::to_string(provinces.size()) + "): " + Ints(provinces));
  c.Line("  Armies: " + std::to_string(s.ArmiesOf(*id)) + " of a limit of " + std::to_string(limit.total) + " (" +
       limit.breakdown + "); fleets: " + std::to_string(s.FleetsOf(*id)));
  c.Line("  Spawn points: " + Ints(spawn) + "; rally points: " + Ints(n->rally_points));
  c.Line("  Reforms: " + List(reforms));
  c.Line("  Technologies: " + List(techs));
  c.Line("  At war with: " + List(wars));
  c.Line("  Treaties in force: " + List(treaties));
  c.Line("  Announced, awaiting the partner: " + List(announced) + "; announced to it: " + List(awaited));
  if (n->domination_turns) c.Line("  Holds a majority of the provinces for " + std::to_string(n->domination_turns) + " turn(s) (Y1.4)");
  if (pub) return Status::Ok();
  c.Line("  Research: " + (tech ? n->research + " " + std::to_string(n->progress) + "/" + std::to_string(tech->cost) : std::string("nothing")) +
       "; " + std::to_string(rp.total) + " RP a turn (" + (rp.breakdown.empty() ? "none" : rp.breakdown) + ")");
  c.Line("  Reform: " + (reform ? n->reform + " (success " + std::to_string(ch.success) + "%, revolt " +
                                    std::to_string(ch.revolt) + "%, nothing " + std::to_string(ch.nothing) + "%)"
                              : std::string("none")));
  c.Line("  Improvements a turn: " + std::to_string(y::ImprovementsAllowed(s, *id, versions.Of(y::kRuleset))));
  c.Line("  Orders standing for the coming turn: " + std::string(orders.empty() ? "none" : ""));
  for (const auto& o : orders) c.Line("    " + o);
  return Status::Ok();
}

}  // namespace adjutant::reports
