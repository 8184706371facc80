// The order desk's web page: plain HTML, a little script, no framework.
// One page: log in; then your orders as they stand (in the words of your
// book, with their fate and when each was received), the order forms your
// roles call for — a ship's order form with every section of the PATE order
// desk (PATE 4.4-4.9) for each of your ships, a minister's treasury orders
// (SOW 2-6; money in crowns), a Naval Minister's (appointments, ships laid
// up and reactivated, stores moved and bought: PATE 2.3, 2.6, 3.5, SOW 6.1),
// a y1820 ruler's (every kind of Y1820Order) and a Death or Glory general's
// (a unit's intention for the move) — each field offered only for the kinds
// of order that take it — adding to the order file (the schema's
// OrderFile JSON, which can also be edited by hand; an order for a slot
// already in it replaces that one) that you submit, shown as your book
// writes it, and your reports (text, or drawn as SVG fitted to the page; a
// ruler's nation page). Each login starts from a clean page, and the page
// fits a phone's width. The GA logs in with his own
// password and gets his pages: the game's status (live), adjudication with
// confirmation, passwords, orders entered on a player's behalf, roles, the
// schedule, directives and corrections — each answered in words — and a
// console for any view.
#pragma once

#include <string_view>

namespace adjutant::desk {

inline constexpr std::string_view kIndexPage = R"HTML(<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Adjutant order desk</title>
<style>
*{box-sizing:border-box}
body{font-family:system-ui,sans-serif;max-width:60rem;margin:1rem auto;padding:0 1rem;line-height:1.4;overflow-wrap:anywhere}
fieldset{margin:1rem 0;border:1px solid #999;min-width:0}
label{display:inline-block;margin:0 .6rem .2rem 0;max-width:100%}
input,select,textarea,button{font:inherit;margin:.2rem 0;max-width:100%}
textarea{width:100%;min-height:10rem;font-family:monospace}
pre{background:#f4f4f4;padding:.5rem;overflow:auto;white-space:pre-wrap;overflow-wrap:anywhere}
#drawing svg,#drawing img{max-width:100%;height:auto;display:block}
.hidden{display:none}.err{color:#a00}
table{border-collapse:collapse;display:block;overflow-x:auto;max-width:100%}th,td{border:1px solid #ccc;padding:.1rem .4rem;text-align:left}
@media (max-width:600px){#st-persons,#st-persons tr,#st-persons td{display:block}#st-persons tr:first-child{display:none}
#st-persons tr{border-top:2px solid #999;padding:.2rem 0}#st-persons td{border:none}
#st-persons td::before{content:attr(data-label) ": ";font-weight:bold}}
#where{font-weight:bold}
</style></head><body>
<h1>Adjutant order desk</h1>
<section id="login">
<fieldset><legend>Player</legend>
<label>Game <input id="game" autocomplete="off"></label>
<label>Person <input id="person" autocomplete="username"></label>
<label>Password <input id="password" type="password" autocomplete="current-password"></label>
<button id="login-btn">Log in</button></fieldset>
<fieldset><legend>Game Administrator</legend>
<label>Password <input id="ga-password" type="password"></label>
<button id="ga-login-btn">Log in as GA</button></fieldset>
<p id="login-error" class="err"></p>
</section>
<section id="player" class="hidden">
<p id="who"></p><button id="logout-btn">Log out</button>
<p id="reminder" role="status"></p>
<h2>Your orders for the coming turn</h2>
<button id="orders-btn">Show them again</button><pre id="orders"></pre>
<div id="ship-form" class="hidden"><h2>Ship orders (PATE 4)</h2>
<fieldset><legend>Ship</legend><label>Ship <select id="sf-ship"></select></label> <span id="sf-where"></span></fieldset>
<fieldset><legend>4.4 Attachment</legend>
<label>Attach to <select id="sf-attach"></select></label> <label><input id="sf-detach" type="checkbox"> Detach</label></fieldset>
<fieldset><legend>4.5 Movement</legend>
<label>Sea area 1 <select id="sf-sea1"></select></label> <label>Sea area 2 <select id="sf-sea2"></select></label>
<label>Port <select id="sf-port"></select></label> <label><input id="sf-anyport" type="checkbox"> any port with an enemy ship</label>
<label><input id="sf-harbour" type="checkbox"> enter the harbour</label> <label><input id="sf-alone" type="checkbox"> sail alone</label>
<label><input id="sf-pursue-ports" type="checkbox" checked> pursue into ports</label></fieldset>
<fieldset><legend>4.6 Contact</legend>
<label>On contact <select id="sf-contact"><option value="">-</option><option>Accept</option><option>Pursue</option><option>Evade</option></select></label>
<label>Min ships <input id="sf-min" type="number" min="0" max="99" size="3"></label>
<label>Max ships <input id="sf-max" type="number" min="0" max="99" size="3"></label>
<label><input id="sf-allies" type="checkbox" checked> join allies</label>
<label>Weather gauge <select id="sf-gauge"><option value="">-</option><option>Leeward</option><option>Windward</option></select></label></fieldset>
<fieldset><legend>4.7 Combat</legend>
<label>Engage <select id="sf-engage"><option value="">-</option><option>Accept</option><option>Close</option><option>Evade</option></select></label>
<label>Line <select id="sf-line"><option value="">-</option><option>LineAhead</option><option>BreakLine</option></select></label>
<label>Aim <select id="sf-aim"><option value="">-</option><option>Rigging</option><option>Hull</option></select></label></fieldset>
<fieldset><legend>4.8 Commerce</legend>
<label>Mission <select id="sf-commerce"><option value="">as before</option><option>Raid</option><option>Convoy</option><option>Patrol</option><option>IgnoreCommerce</option></select></label></fieldset>
<fieldset><legend>4.9 Stores and amphibious</legend>
<label>Stores to carry <input id="sf-stores" type="number" min="0" max="24" size="3"></label>
<label><select id="sf-amph"><option value="">no landing</option><option value="load">load</option><option value="unload">unload</option></select></label>
<label>land unit <input id="sf-unit" size="8"></label> <label>or supplies <input id="sf-supplies" type="number" min="0" size="5"></label></fieldset>
<button id="sf-add">Add to the order file</button></div>
<div id="treasury-form" class="hidden"><h2>Treasury orders (SOW)</h2>
<fieldset><legend>Order</legend>
<label>Kind <select id="tf-kind">
<option value="BuySuppliesOrder">buy supplies and stores</option><option value="TransferOrder">transfer money</option>
<option value="BuildUnitOrder">build a land unit</option><option value="BuildShipOrder">build a ship</option>
<option value="ReinforceOrder">reinforce a unit</option><option value="DisbandOrder">disband a unit</option>
<option value="RemoveShipOrder">remove a ship</option><option value="StandingSupplyOrder">standing supply order</option>
<option value="RepairOrder">repair a battery or fort</option></select></label>
<label>City or port <select id="tf-city"></select></label> <label>To state <select id="tf-to"></select></label>
<label>Amount (Cr) <input id="tf-amount" type="number" min="0" step="0.01" size="7"></label>
<label>Supplies <input id="tf-supplies" type="number" min="0" size="5"></label> <label>Stores <input id="tf-stores" type="number" min="0" size="5"></label>
<label>Type <select id="tf-type"><!--SOW-TYPES--></select></label> <label>Men <input id="tf-men" type="number" min="0" size="6"></label>
<label>Unit or ship <input id="tf-id" size="8"></label> <label>Repair <select id="tf-what"><option>Battery</option><option>Fort</option></select></label>
</fieldset><button id="tf-add">Add to the order file</button></div>
<div id="naval-form" class="hidden"><h2>Naval Minister's orders (PATE 2, 3.5)</h2>
<fieldset><legend>Order</legend>
<label>Kind <select id="nf-kind">
<option value="AppointOrder">appoint a commander or deputy (PATE 2.3)</option>
<option value="Reactivate">reactivate a ship (PATE 2.6)</option><option value="Inactivate">inactivate a ship in a home port (PATE 2.6)</option>
<option value="MoveStoresOrder">move stores between ports (PATE 3.5)</option><option value="BuySuppliesOrder">buy stores (SOW 6.1)</option></select></label>
<label data-kinds="AppointOrder Reactivate Inactivate">Ship <select id="nf-ship"></select></label> <span id="nf-where" data-kinds="AppointOrder Reactivate Inactivate"></span>
<label data-kinds="AppointOrder">Commander <input id="nf-commander" size="12" autocomplete="off" placeholder="as now"></label>
<label data-kinds="AppointOrder">Deputy <input id="nf-deputy" size="12" autocomplete="off" placeholder="as now"></label>
<label data-kinds="MoveStoresOrder">From port <select id="nf-from"></select></label> <label data-kinds="MoveStoresOrder">To port <select id="nf-to"></select></label>
<label data-kinds="BuySuppliesOrder">At port <select id="nf-port"></select></label>
<label data-kinds="MoveStoresOrder BuySuppliesOrder">Stores <input id="nf-stores" type="number" min="1" size="4"></label>
</fieldset><button id="nf-add">Add to the order file</button></div>
<div id="ruler-form" class="hidden"><h2>A ruler's orders (y1820)</h2>
<p>All your nation's orders for the turn go in one file: a file sent later replaces the one before (Y1.3).</p>
<fieldset><legend>Order</legend>
<label>Kind <select id="yf-kind">
<option value="Y1820Deploy">deploy armies and fleets (turn 0, Y1.1)</option><option value="Y1820Move">move armies (Y5)</option>
<option value="Y1820FleetMove">move fleets (Y8.2)</option><option value="Y1820RaiseFleet">raise a fleet (Y8.1)</option>
<option value="Y1820DismantleFleet">dismantle a fleet (Y8.6)</option><option value="Y1820Build">build an improvement (Y11)</option>
<option value="Y1820Dismantle">dismantle an improvement (Y11.1)</option><option value="Y1820Research">research a technology (Y10)</option>
<option value="Y1820Reform">pursue a social reform (Y14)</option><option value="Y1820DeclareWar">declare war (Y12.1)</option>
<option value="Y1820Treaty">announce a treaty (Y12.2)</option><option value="Y1820RallyPoints">set the rally points (Y4.2)</option>
<option value="Y1820GiveProvince">give a province (Y12.5)</option><option value="Y1820GiveTech">give a technology (Y12.5)</option></select></label>
<label data-kinds="Y1820Deploy Y1820Build Y1820Dismantle Y1820GiveProvince">Province <select id="yf-province"></select></label>
<label data-kinds="Y1820Move">From <select id="yf-from"></select></label> <label data-kinds="Y1820Move">To <select id="yf-to"></select></label>
<label data-kinds="Y1820Move">by sea, escorted across <select id="yf-across"></select></label>
<label data-kinds="Y1820Deploy Y1820Move">Armies <input id="yf-armies" type="number" min="0" size="4" value="1"></label>
<label data-kinds="Y1820Deploy Y1820FleetMove">Fleets <input id="yf-fleets" type="number" min="0" size="4"></label>
<label data-kinds="Y1820Deploy">the fleets at sea in <select id="yf-sea"></select></label>
<label data-kinds="Y1820RaiseFleet Y1820DismantleFleet">Port <select id="yf-port"></select></label>
<label data-kinds="Y1820FleetMove">From port <select id="yf-from-port"></select></label> <label data-kinds="Y1820FleetMove">or sea zone <select id="yf-from-sea"></select></label>
<label data-kinds="Y1820FleetMove">To port <select id="yf-to-port"></select></label> <label data-kinds="Y1820FleetMove">or sea zone <select id="yf-to-sea"></select></label>
<label data-kinds="Y1820Build Y1820Dismantle">Improvement <select id="yf-improvement"></select></label>
<label data-kinds="Y1820Research">Technology <select id="yf-tech"></select></label>
<label data-kinds="Y1820GiveTech">Technology of yours <select id="yf-give-tech"></select></label>
<label data-kinds="Y1820Reform">Reform <select id="yf-reform"></select></label>
<label data-kinds="Y1820DeclareWar Y1820Treaty Y1820GiveProvince Y1820GiveTech">Nation <select id="yf-nation"></select></label>
<label data-kinds="Y1820Treaty">Treaty <select id="yf-treaty"></select></label>
<label data-kinds="Y1820RallyPoints">Rally point <select id="yf-rally1"></select></label> <label data-kinds="Y1820RallyPoints">Rally point <select id="yf-rally2"></select></label>
<label data-kinds="Y1820RallyPoints">A Feudal Monarchy's extra spawn point (Y6.1) <select id="yf-rally3"></select></label>
</fieldset><button id="yf-add">Add to the order file</button></div>
<div id="dog-form" class="hidden"><h2>Orders to your units (Death or Glory)</h2>
<fieldset><legend>Unit</legend><label>Unit <select id="df-unit"></select></label> <span id="df-where"></span></fieldset>
<fieldset><legend>This move (D12.2: the last order for a unit stands)</legend>
<label>It is to <select id="df-does">
<option value="hold">hold its ground</option><option value="move">move to a point</option><option value="charge">charge an enemy unit</option>
<option value="stand">stay, only forming or facing</option><option value="reform">re-form (D1.8, D1.9)</option></select></label>
<label data-kinds="move">to x (mm) <input id="df-x" type="number" min="0" size="5"></label> <label data-kinds="move">y (mm) <input id="df-y" type="number" min="0" size="5"></label>
<label data-kinds="charge">Enemy unit <select id="df-target"></select></label>
<label data-kinds="hold move charge stand">Formation <select id="df-formation"></select></label>
<label data-kinds="hold move charge stand">Face (degrees) <input id="df-face" type="number" min="0" max="359" size="4" placeholder="as now"></label>
</fieldset><button id="df-add">Add to the order file</button></div>
<h2>Submit orders</h2>
<p>The order file: one order a line in the text form of your rule book (e.g. <code>BR1FL orders move SOA contact pursue</code>; every kind is in the README of its ruleset), or the schema's <code>OrderFile</code> JSON, which the forms above write and which can be edited by hand. An order the forms add for a ship, unit or build already in the file replaces the one there.</p>
<label for="order-text">Order file</label>
<textarea id="order-text" spellcheck="false">{"orders": []}</textarea>
<button id="submit-btn">Submit</button> <button id="clear-btn">Empty the order file</button>
<h3>As your rule book writes them</h3>
<pre id="draft-text" aria-live="polite"></pre>
<pre id="submitted" role="status"></pre>
<h2>Your reports</h2>
<label>Report <select id="kind">
<option>orders</option><option>events</option><option>positions</option><option>treasury</option>
<option>nation</option><option>map</option><option>battle</option></select></label>
<label>Turn <input id="turn" size="10" placeholder="latest"></label>
<button id="report-btn">Show</button><button id="svg-btn">Draw</button>
<pre id="report"></pre><div id="drawing"></div>
</section>
<section id="ga" class="hidden">
<p>The GA. <button id="ga-logout-btn">Log out</button></p>
<label>Game <input id="ga-game"></label>
<h2>Status</h2>
<p><button id="status-btn">Show the game's status</button> <span id="st-live"></span></p>
<div id="ga-status"></div>
<h2>Adjudicate</h2>
<p><button id="adj-phase-btn">Adjudicate the next phase…</button> <button id="adj-turn-btn">Adjudicate the rest of the turn…</button></p>
<div id="adj-confirm" class="hidden"><p id="adj-what"></p>
<button id="adj-yes">Confirm</button> <button id="adj-no">Cancel</button></div>
<pre id="adj-out"></pre>
<h2>Passwords</h2>
<fieldset><legend>Set or reset a person's password (his sessions end)</legend>
<label>Person <input id="pw-person" autocomplete="off"></label>
<label>New password <input id="pw-new" type="password" autocomplete="new-password"></label>
<button id="pw-btn">Set the password</button></fieldset>
<pre id="pw-out"></pre>
<h2>Orders a player sent by other means</h2>
<fieldset><legend>Entered on his behalf, recorded as entered by the GA</legend>
<label>For <input id="of-person" autocomplete="off"></label>
<textarea id="of-text" aria-label="His orders" spellcheck="false" placeholder="one order a line, in the text form of his rule book, or OrderFile JSON"></textarea>
<button id="of-btn">Enter his orders</button></fieldset>
<pre id="of-out"></pre>
<h2>Roles</h2>
<fieldset><legend>Give a role from the coming turn (taken from whoever holds it), or withdraw it</legend>
<label>Person <input id="rl-person" autocomplete="off"></label>
<label>Role <input id="rl-role" size="14" placeholder="BR.naval"></label>
<label><select id="rl-what"><option value="give">give</option><option value="withdraw">withdraw</option></select></label>
<label>Reason <input id="rl-reason" size="30"></label>
<button id="rl-btn">Record the change</button></fieldset>
<pre id="rl-out"></pre>
<h2>Schedule</h2>
<fieldset><legend>Deadlines</legend>
<label><select id="sc-action"><option value="">show</option><option>set</option><option>extend</option><option>pause</option>
<option>resume</option><option>clear</option></select></label>
<label>Deadline <input id="sc-deadline" size="20" placeholder="2026-12-06T20:00Z or +3d"></label>
<label><input id="sc-weekly" type="checkbox"> then weekly</label>
<label>or then after <input id="sc-after" size="5" placeholder="3d"></label>
<label>Extend by <input id="sc-by" size="5" placeholder="1d"></label>
<label>Reason <input id="sc-reason" size="30"></label>
<button id="sc-btn">Go</button></fieldset>
<pre id="sc-out"></pre>
<h2>Directives and corrections</h2>
<fieldset><legend>A directive (the schema's DirectiveFile JSON)</legend>
<textarea id="dv-text" aria-label="The directive" spellcheck="false" placeholder='{"reason": "...", "body_type": "SowDirective", "body": {...}}'></textarea>
<button id="dv-btn">Record the directive</button>
<label>or correct history: at <input id="cr-at" size="12" placeholder="1805.1.2"></label>
<label>new branch <input id="cr-name" size="12"></label>
<label>leave out <input id="cr-leave" size="12" placeholder="SEQ,SEQ"></label>
<button id="cr-btn">Correct with this directive…</button></fieldset>
<pre id="dv-out"></pre>
<h2>Run a command</h2>
<input id="ga-args" aria-label="The command" size="60" placeholder="report fleet nwol"><button id="ga-run-btn">Run</button>
<pre id="ga-out"></pre>
</section>
<script>
"use strict";
let token = sessionStorage.getItem("token"), me = null;
const $ = id => document.getElementById(id);
async function call(method, path, body, extra) {
  const h = Object.assign({}, extra || {});
  if (token) h["Authorization"] = "Bearer " + token;
  if (body !== undefined) h["Content-Type"] = "application/json";
  const r = await fetch(path, {method, headers: h, body});
  const text = await r.text();
  return {status: r.status, text, json: () => { try { return JSON.parse(text); } catch (e) { return null; } }};
}
function show() {
  $("login").classList.toggle("hidden", !!me);
  $("player").classList.toggle("hidden", !me || me.ga);
  $("ga").classList.toggle("hidden", !me || !me.ga);
  if (me && !me.ga) {
    $("who").textContent = me.person + " in " + me.game + " (" + (me.roles || []).join(", ") + ")";
    setupForms(); remind(); showOrders(); preview();
  }
}
// Issue 21: each login starts from a clean page — nothing of the last
// person's (his draft, his orders, his reports, his forms) is left on it.
function resetPage() {
  for (const el of document.querySelectorAll("#player input, #player select, #player textarea, #ga input, #ga select, #ga textarea")) {
    if (el.type === "checkbox") el.checked = el.defaultChecked;
    else if (el.tagName === "SELECT") { let any = false; for (const o of el.options) { o.selected = o.defaultSelected; any = any || o.defaultSelected; } if (!any && el.options.length) el.selectedIndex = 0; }
    else el.value = el.defaultValue;
    el.disabled = false;
  }
  for (const el of document.querySelectorAll("#player pre, #ga pre, #ga-status, #drawing, #who, #reminder, #adj-what")) {
    el.textContent = ""; el.classList.remove("err");
  }
  for (const id of fedSelects) $(id).innerHTML = "";
  myShips = []; choices = null; battle = [];
  $("adj-confirm").classList.add("hidden"); adjAsk = null;
}
// Issue 20: the deadline that closes the coming turn's orders, and whether he has any standing.
function timeLeft(s) {
  if (s <= 0) return "passed";
  const d = Math.floor(s / 86400), h = Math.floor(s % 86400 / 3600), m = Math.floor(s % 3600 / 60);
  return (d ? d + "d " : "") + (d || h ? h + "h " : "") + m + "m left";
}
async function remind() {
  const r = await call("GET", "/api/games/" + me.game + "/orders");
  if (r.status !== 200) { $("reminder").textContent = ""; return; }
  const j = r.json() || {};
  const mine = (j.orders || []).filter(o => o.status === "stands").length;
  let t = "Orders now go to turn " + j.turn + (j.turn_name ? " (" + j.turn_name + ")" : "") +
          (j.next_phase ? "; the next phase to adjudicate is " + j.next_phase : "") + ". ";
  t += j.deadline ? "They close at " + j.deadline + " (" + timeLeft(j.time_left || 0) + ")" +
                    (j.schedule_paused ? "; the schedule is paused" : "") + ". "
                  : "No deadline is set. ";
  t += mine ? "You have " + mine + " order" + (mine === 1 ? "" : "s") + " standing." : "You have given no orders yet.";
  $("reminder").textContent = t;
  // Owing orders with less than a day left: said in red.
  $("reminder").classList.toggle("err", !mine && !!j.deadline && (j.time_left || 0) < 86400);
}
async function restore() {
  if (!token) return show();
  const r = await call("GET", "/api/me");
  me = r.status === 200 ? r.json() : null;
  if (!me) { token = null; sessionStorage.removeItem("token"); }
  show();
}
async function login(path, body) {
  const r = await call("POST", path, JSON.stringify(body));
  if (r.status !== 200) { $("login-error").textContent = (r.json() || {}).error || r.text; return; }
  me = r.json(); token = me.token; sessionStorage.setItem("token", token); $("login-error").textContent = "";
  for (const id of ["password", "ga-password"]) $(id).value = "";
  resetPage(); show();
}
$("login-btn").onclick = () => login("/api/login", {game: $("game").value, person: $("person").value, password: $("password").value});
$("ga-login-btn").onclick = () => login("/api/ga/login", {password: $("ga-password").value});
async function logout() { unfollow(); await call("POST", "/api/logout", ""); token = null; me = null; sessionStorage.removeItem("token"); resetPage(); show(); }
$("logout-btn").onclick = logout; $("ga-logout-btn").onclick = logout;
function roleOf(suffixes) {
  for (const r of (me.roles || [])) { const d = r.indexOf("."); if (d > 0 && suffixes.includes(r.slice(d + 1))) return [r.slice(0, d), r]; }
  return null;
}
// What an order is for: a ship's, a unit's or a build's — one order each
// in a file: a later one from the forms replaces it, never joins it. null:
// an order that is never one of a kind, each added beside the others.
function slotOf(item) {
  const outer = item.body || {}, b = outer.body || {}, k = outer.body_type || item.body_type;
  // SOW 7.1: each damaged or destroyed battery is a repair of its own (sow=8); a city's fort rises once a season.
  if (k === "RepairOrder") return b.what === "Fort" ? "the fort repair at " + b.city : null;
  if (k === "ShipOrders") return "ship " + b.ship;
  if (k === "DogIntent") return "unit " + b.unit;  // D12.2: a unit's last intention stands
  if (k === "MoveStoresOrder") return "stores from " + b.from + " to " + b.to;  // PATE 3.5
  if (item.body_type === "Y1820Order") {
    // y1820: one research, one reform and one set of rally points a turn; the others by what they name.
    const what = ["province", "from", "to", "port", "from_port", "from_sea", "to_port", "to_sea", "nation", "improvement"]
      .filter(f => b[f] !== undefined).map(f => b[f]);
    if (k === "Y1820GiveTech") what.push(b.tech);
    return [k, ...what].join(" ");
  }
  return k + " " + (b.id || b.unit || b.ship || b.city || b.port || b.to_state || "");
}
function addOrder(item) {
  // Orders typed in the text form are his: the forms add JSON, so they do not write over them.
  const typed = $("order-text").value.trim();
  if (typed !== "" && typed[0] !== "{") { $("submitted").textContent = "The order file is in the text form: add this order as a line by hand, or empty the file to use the forms."; return; }
  let file; try { file = JSON.parse($("order-text").value); } catch (e) { file = {orders: []}; }
  if (!Array.isArray(file.orders)) file.orders = [];
  const slot = slotOf(item), at = slot === null ? -1 : file.orders.findIndex(o => slotOf(o) === slot);
  if (at >= 0) file.orders[at] = item; else file.orders.push(item);
  $("order-text").value = JSON.stringify(file, null, 1);
  $("submitted").textContent = at >= 0 ? "Replaced the order for " + slot + " in the file." : "";
  preview();
}
// The draft as the rule book writes it, read by the server as a submission
// would read it (POST .../orders/read: nothing is recorded).
let previewAsk = 0, previewTimer = null;
async function preview() {
  const ask = ++previewAsk, body = $("order-text").value;
  if (!me || me.ga) return;
  if (body.trim() === "" || /^\{\s*"orders"\s*:\s*\[\s*\]\s*\}$/.test(body.trim())) { $("draft-text").textContent = "(no orders in the file)"; $("draft-text").classList.remove("err"); return; }
  const r = await call("POST", "/api/games/" + me.game + "/orders/read", body);
  if (ask !== previewAsk) return;
  const j = r.json() || {};
  $("draft-text").textContent = r.status === 200 ? j.text : "This file would be refused: " + (j.error || r.text);
  $("draft-text").classList.toggle("err", r.status !== 200);
}
$("order-text").oninput = () => { clearTimeout(previewTimer); previewTimer = setTimeout(preview, 400); };
$("clear-btn").onclick = () => { $("order-text").value = '{"orders": []}'; $("submitted").textContent = ""; preview(); };
// Issue 21: the pickers, from what his forms may offer him (report
// choices: the naval map, PATE 6.2-6.4, 6.11; his ships; the states; his
// state's cities; a y1820 nation's provinces; a general's units) — nobody
// types a sea area's code, a port's name or a province's number.
let myShips = [], choices = null, battle = [];
// The selects the script fills (none has options of its own): emptied for each login.
const fedSelects = [...document.querySelectorAll("#player select")].filter(s => !s.options.length).map(s => s.id);
const report = async kind => {
  const r = await call("GET", "/api/games/" + me.game + "/reports?kind=" + kind + "&format=json");
  return r.status === 200 ? r.json() || {} : {};
};
// A form shows only the fields its kind of order takes (each names them in data-kinds).
function showKinds(form, kind) {
  for (const el of document.querySelectorAll("#" + form + " [data-kinds]")) el.classList.toggle("hidden", !el.dataset.kinds.split(" ").includes(kind));
}
function fill(id, values, blank, label) {
  const sel = $(id), was = sel.value;
  sel.innerHTML = "";
  const add = (v, t) => { const o = document.createElement("option"); o.value = v; o.textContent = t; sel.appendChild(o); };
  if (blank !== null) add("", blank);
  for (const v of values) add(v, label ? label(v) : v);
  if (values.includes(was)) sel.value = was;
}
const areaOf = code => ((choices || {}).areas || []).find(a => a.code === code) || {code, next: [], ports: []};
const areaLabel = code => code + " " + (areaOf(code).name || "");
async function setupForms() {
  const naval = roleOf(["commander", "deputy"]), treasury = roleOf(["treasury", "prime"]), navy = roleOf(["naval"]),
        ruler = roleOf(["ruler"]), general = roleOf(["general"]);
  $("ship-form").classList.toggle("hidden", !naval);
  $("treasury-form").classList.toggle("hidden", !treasury);
  $("naval-form").classList.toggle("hidden", !navy);
  $("ruler-form").classList.toggle("hidden", !ruler);
  $("dog-form").classList.toggle("hidden", !general);
  const r = await call("GET", "/api/games/" + me.game + "/reports?kind=choices&format=json");
  choices = r.status === 200 ? r.json() : null;
  // His ships: those he commands, or (a Naval Minister) every ship of his state.
  if (naval || navy) myShips = (await report("positions")).ships || [];
  if (navy) setupNavy();
  if (ruler) await setupRuler(ruler[0]);
  if (general) await setupGeneral(general[0]);
  if (naval) {
    const his = (choices || {}).ships || [];
    fill("sf-ship", his.map(s => s.id), null, id => id + " " + ((his.find(s => s.id === id) || {}).name || ""));
    showShip();
  }
  if (treasury && choices) {
    const [state] = treasury;
    fill("tf-city", choices.cities || [], "-");
    fill("tf-to", (choices.states || []).filter(s => s !== state), "-");
  }
}
function shipChoice() { return (((choices || {}).ships) || []).find(x => x.id === $("sf-ship").value); }
function showShip() {
  const s = myShips.find(x => x.id === $("sf-ship").value), c = shipChoice();
  $("sf-where").textContent = s ? s.location + " (" + s.position + "), stores " + s.stores : c ? c.location + " (" + c.position + ")" : "";
  fill("sf-attach", c ? c.attach || [] : [], "-");
  fill("sf-sea1", c ? c.sea1 || [] : [], "stay", areaLabel);
  routeChanged();
}
// Sea area 2: those next to the first; the port: those entered from the
// last area named — with none named, the port she is in (a shift between
// its harbour and coastal waters).
function routeChanged() {
  const c = shipChoice(), sea1 = $("sf-sea1").value;
  fill("sf-sea2", sea1 ? areaOf(sea1).next || [] : [], "-", areaLabel);
  const last = $("sf-sea2").value || sea1;
  const here = c && c.position !== "at sea" && !areaOf(c.location).name ? [c.location] : [];
  fill("sf-port", last ? areaOf(last).ports || [] : here, "-");
}
$("sf-ship").onchange = showShip;
$("sf-sea1").onchange = routeChanged;
$("sf-sea2").onchange = routeChanged;  // fill keeps a choice still offered
// PATE 4.6: a ship that evades may not join allies: Evade unticks the box.
$("sf-contact").onchange = () => {
  const evade = $("sf-contact").value === "Evade";
  if (evade) $("sf-allies").checked = false;
  $("sf-allies").disabled = evade;
};
$("sf-add").onclick = () => {
  const b = {ship: $("sf-ship").value}, v = id => $(id).value.trim(), n = id => parseInt($(id).value, 10);
  if (v("sf-attach")) b.attach_to = v("sf-attach");
  if ($("sf-detach").checked) b.detach = true;
  if (v("sf-sea1")) b.sea1 = v("sf-sea1");
  if (v("sf-sea2")) b.sea2 = v("sf-sea2");
  if (v("sf-port")) b.port = v("sf-port");
  if ($("sf-anyport").checked) b.any_enemy_port = true;
  if ($("sf-harbour").checked) b.harbour = true;
  if ($("sf-alone").checked) b.sail_alone = true;
  if (!$("sf-pursue-ports").checked) b.pursue_into_ports = false;
  if (v("sf-contact")) b.contact = v("sf-contact");
  if (n("sf-min") > 0) b.min_ships = n("sf-min");
  if (n("sf-max") > 0) b.max_ships = n("sf-max");
  if (!$("sf-allies").checked) b.join_allies = false;
  for (const [id, k] of [["sf-gauge", "gauge"], ["sf-engage", "engage"], ["sf-line", "line"], ["sf-aim", "aim"], ["sf-commerce", "commerce"]]) if (v(id)) b[k] = v(id);
  if (v("sf-stores") !== "") b.stores = n("sf-stores");
  if (v("sf-amph")) {
    const a = {unload: v("sf-amph") === "unload"};
    if (v("sf-unit")) a.unit = v("sf-unit"); else if (n("sf-supplies") > 0) a.supplies = n("sf-supplies");
    b.amphibious = [a];
  }
  addOrder({body_type: "PateOrder", body: {body_type: "ShipOrders", body: b}});
};
$("tf-add").onclick = () => {
  const [state, role] = roleOf(["treasury", "prime"]), k = $("tf-kind").value, v = id => $(id).value.trim(), n = id => parseInt($(id).value, 10) || 0;
  const b = {};
  // The amount is read in crowns and sent in hundredths (amount_cc), once.
  if (k === "TransferOrder") { b.to_state = v("tf-to"); b.amount_cc = Math.round((parseFloat(v("tf-amount")) || 0) * 100); }
  if (k === "BuySuppliesOrder") { b.city = v("tf-city"); b.supplies = n("tf-supplies"); b.stores = n("tf-stores"); }
  if (k === "StandingSupplyOrder") { b.city = v("tf-city"); b.supplies = n("tf-supplies"); }
  if (k === "BuildUnitOrder") { b.city = v("tf-city"); b.type = v("tf-type"); b.men = n("tf-men"); b.id = v("tf-id"); }
  if (k === "BuildShipOrder") { b.port = v("tf-city"); b.type = v("tf-type"); b.id = v("tf-id"); }
  if (k === "ReinforceOrder") { b.unit = v("tf-id"); b.men = n("tf-men"); }
  if (k === "DisbandOrder") b.unit = v("tf-id");
  if (k === "RemoveShipOrder") b.ship = v("tf-id");
  if (k === "RepairOrder") { b.city = v("tf-city"); b.what = v("tf-what"); }
  addOrder({role, body_type: "SowOrder", body: {state, body_type: k, body: b}});
};
// The Naval Minister's orders (PATE 2.3, 2.6, 3.5; stores bought, SOW 6.1):
// every ship of his state, as his positions report lists them, and the ports of the naval map.
function setupNavy() {
  const ship = id => myShips.find(x => x.id === id) || {};
  fill("nf-ship", myShips.map(s => s.id), null, id => id + " " + (ship(id).name || "") + " (" + ship(id).position + ")");
  const ports = ((choices || {}).ports || []).map(p => p.name);
  for (const id of ["nf-from", "nf-to", "nf-port"]) fill(id, ports, "-");
  showNavalShip();
  showKinds("naval-form", $("nf-kind").value);
}
function showNavalShip() {
  const s = myShips.find(x => x.id === $("nf-ship").value);
  $("nf-where").textContent = s ? s.location + " (" + s.position + "), commander " + (s.commander || "-") + ", deputy " + (s.deputy || "-") : "";
}
$("nf-ship").onchange = showNavalShip;
$("nf-kind").onchange = () => showKinds("naval-form", $("nf-kind").value);
$("nf-add").onclick = () => {
  const [state, role] = roleOf(["naval"]), k = $("nf-kind").value, v = id => $(id).value.trim(), n = id => parseInt($(id).value, 10) || 0;
  // SOW 6.1: the Naval Minister buys stores (only stores: supplies are the War Minister's).
  if (k === "BuySuppliesOrder") return addOrder({role, body_type: "SowOrder", body: {state, body_type: k, body: {city: v("nf-port"), stores: n("nf-stores")}}});
  let kind = k, b;
  if (k === "AppointOrder") {  // a post left blank stays as it is
    b = {ship: v("nf-ship")};
    if (v("nf-commander")) b.commander = v("nf-commander");
    if (v("nf-deputy")) b.deputy = v("nf-deputy");
  }
  if (k === "Reactivate" || k === "Inactivate") { kind = "ActivationOrder"; b = {ship: v("nf-ship"), active: k === "Reactivate"}; }
  if (k === "MoveStoresOrder") b = {from: v("nf-from"), to: v("nf-to"), stores: n("nf-stores")};
  addOrder({role, body_type: "PateOrder", body: {body_type: kind, body: b}});
};
// A y1820 ruler's orders. The book's names (rules/y1820/tables.h; page_test checks the two agree).
const Y1820_IMPROVEMENTS = ["Academy", "Fortifications", "Port", "Railroad", "Military HQ", "Factory"];
const Y1820_TECHS = ["Railroads", "Industrialization", "Atomic Theory", "Electrochemistry", "Epidemiology", "Sanitation",
  "Electrical Telegraphs", "Rifled Muskets", "Breech-Loading Rifles", "Rocketry", "Steam Navigation", "Naval Gunnery", "Ironclads",
  "Civil Engineering"];
const Y1820_REFORMS = ["Absolutism", "Enlightened Monarchy", "Liberalism", "Nationalism", "Army Modernization", "New Philosophies"];
const Y1820_TREATIES = ["non-aggression", "exchange", "pact"];
// Provinces by "number name": his own where the order takes only his, any
// where armies may go; sea zones and the other nations from the public map;
// what he may research or reform, and give, from his nation's report.
async function setupRuler(nation) {
  const mine = await report("nation"), map = await report("map");
  const named = (choices || {}).provinces || [], seas = map.seas || [];
  const province = id => id + " " + ((named.find(p => p.id === id) || {}).name || "");
  const sea = id => id + " " + ((seas.find(z => z.id === id) || {}).name || "");
  const all = named.map(p => p.id), own = (mine.provinces || []).map(String), zones = seas.map(z => z.id);
  for (const id of ["yf-province", "yf-port", "yf-rally1"]) fill(id, own, null, province);
  for (const id of ["yf-rally2", "yf-rally3", "yf-from-port"]) fill(id, own, "-", province);
  for (const id of ["yf-from", "yf-to"]) fill(id, all, null, province);
  fill("yf-to-port", all, "-", province);
  for (const id of ["yf-across", "yf-from-sea", "yf-to-sea"]) fill(id, zones, "-", sea);
  fill("yf-sea", zones, "none: in port", sea);
  fill("yf-improvement", Y1820_IMPROVEMENTS, null);
  fill("yf-tech", Y1820_TECHS.filter(t => !(mine.techs || []).includes(t)), null);
  fill("yf-give-tech", mine.techs || [], null);
  fill("yf-reform", Y1820_REFORMS.filter(r => !(mine.reforms || []).includes(r)), null);
  fill("yf-nation", [...new Set((map.provinces || []).map(p => p.owner))].filter(x => x && x !== nation).sort(), null);
  fill("yf-treaty", Y1820_TREATIES, null);
  showKinds("ruler-form", $("yf-kind").value);
}
$("yf-kind").onchange = () => showKinds("ruler-form", $("yf-kind").value);
$("yf-add").onclick = () => {
  const k = $("yf-kind").value, v = id => $(id).value, n = id => parseInt($(id).value, 10) || 0, b = {};
  if (k === "Y1820Deploy") {
    b.province = n("yf-province"); b.armies = n("yf-armies");
    if (n("yf-fleets")) b.fleets = n("yf-fleets");
    if (v("yf-sea")) b.sea = v("yf-sea");
  }
  if (k === "Y1820Move") {
    b.from = n("yf-from"); b.to = n("yf-to"); b.armies = n("yf-armies");
    if (v("yf-across")) b.seas = [v("yf-across")];
  }
  if (k === "Y1820FleetMove") {
    if (v("yf-from-port")) b.from_port = n("yf-from-port");
    if (v("yf-from-sea")) b.from_sea = v("yf-from-sea");
    if (v("yf-to-port")) b.to_port = n("yf-to-port");
    if (v("yf-to-sea")) b.to_sea = v("yf-to-sea");
    b.fleets = n("yf-fleets");
  }
  if (k === "Y1820RaiseFleet" || k === "Y1820DismantleFleet") b.port = n("yf-port");
  if (k === "Y1820Build" || k === "Y1820Dismantle") { b.province = n("yf-province"); b.improvement = v("yf-improvement"); }
  if (k === "Y1820Research") b.tech = v("yf-tech");
  if (k === "Y1820Reform") b.reform = v("yf-reform");
  if (k === "Y1820DeclareWar") b.nation = v("yf-nation");
  if (k === "Y1820Treaty") { b.nation = v("yf-nation"); b.kind = v("yf-treaty"); }
  if (k === "Y1820RallyPoints") b.provinces = ["yf-rally1", "yf-rally2", "yf-rally3"].filter(id => v(id)).map(n);
  if (k === "Y1820GiveProvince") { b.nation = v("yf-nation"); b.province = n("yf-province"); }
  if (k === "Y1820GiveTech") { b.nation = v("yf-nation"); b.tech = v("yf-give-tech"); }
  addOrder({body_type: "Y1820Order", body: {body_type: k, body: b}});
};
// A general's orders (Death or Glory): his units, from report choices; the
// enemy's and where each stands, from his battle report. Distances in mm of
// the table, as the report gives them.
const DOG_FORMATIONS = [["ColumnOfMarch", "column of march"], ["ColumnOfDivisions", "column of divisions"], ["Line", "line"],
  ["Square", "square"], ["Skirmish", "skirmish order"], ["Limbered", "limbered"], ["Unlimbered", "unlimbered"]];
async function setupGeneral(side) {
  battle = ((await report("battle")).units || []).filter(u => !u.gone);
  const his = (choices || {}).units || [], enemy = battle.filter(u => u.side !== side);
  fill("df-unit", his.map(u => u.id), null, id => id + " " + ((his.find(u => u.id === id) || {}).name || ""));
  fill("df-target", enemy.map(u => u.id), null, id => { const u = enemy.find(x => x.id === id); return id + " " + u.name + " at (" + u.x + ", " + u.y + ")"; });
  showUnit();
  showKinds("dog-form", $("df-does").value);
}
// Another unit picked: its order starts afresh (as it stands now: no new formation, point or facing).
function showUnit() {
  const u = battle.find(x => x.id === $("df-unit").value);
  for (const id of ["df-x", "df-y", "df-face", "df-formation"]) $(id).value = "";
  $("df-where").textContent = u ? u.formation + " at (" + u.x + ", " + u.y + ") mm facing " + u.facing + "°, " + u.strength + " men, " +
                                  u.cohesion.toLowerCase() + ", " + u.fatigue.toLowerCase() : "";
  // D1: batteries limber and unlimber; the other arms take the other formations.
  const guns = !!u && /Artillery/.test(u.arm);
  const offered = DOG_FORMATIONS.filter(([f]) => (f === "Limbered" || f === "Unlimbered") === guns).map(([f]) => f);
  fill("df-formation", offered, "as now" + (u ? " (" + u.formation + ")" : ""), f => DOG_FORMATIONS.find(x => x[0] === f)[1]);
}
$("df-unit").onchange = showUnit;
$("df-does").onchange = () => showKinds("dog-form", $("df-does").value);
$("df-add").onclick = () => {
  const v = id => $(id).value.trim(), n = id => parseInt($(id).value, 10) || 0, does = v("df-does"), b = {unit: v("df-unit")};
  if (does === "hold") b.hold = true;
  if (does === "move") b.path = [{x: n("df-x"), y: n("df-y")}];
  if (does === "charge") b.charge = v("df-target");
  if (does === "reform") b.reform = true;  // re-forming is all it does (D1.8)
  else {
    if (v("df-formation")) { b.change_formation = true; b.formation = v("df-formation"); }
    if (v("df-face") !== "") b.face = n("df-face");
  }
  addOrder({body_type: "DogOrder", body: {body_type: "DogIntent", body: b}});
};
// His orders for the coming turn as they stand, each as his book writes it.
const utcText = s => new Date(s * 1000).toISOString().slice(0, 16).replace("T", " ") + " UTC";
async function showOrders() {
  const r = await call("GET", "/api/games/" + me.game + "/orders");
  const j = r.json();
  $("orders").textContent = r.status !== 200 ? (j || {}).error || r.text : (j.orders || []).map(o =>
    "#" + o.seq + " " + o.slot + ": " + o.status + (o.reason ? " (" + o.rule + "): " + o.reason : "") +
    (o.received_at ? ", received " + utcText(o.received_at) : "") + (o.text ? "\n    " + o.text : "")).join("\n") || "none given yet";
}
$("orders-btn").onclick = () => { remind(); showOrders(); };
$("submit-btn").onclick = async () => {
  const key = (crypto.randomUUID ? crypto.randomUUID() : String(Date.now()) + Math.random());
  const r = await call("POST", "/api/games/" + me.game + "/orders", $("order-text").value, {"Idempotency-Key": key});
  const j = r.json();
  $("submitted").textContent = r.status !== 200 ? "refused: " + ((j || {}).error || r.text) :
    "recorded for turn " + j.turn.major + "." + j.turn.minor + "." + j.turn.step + ":\n" +
    (j.orders || []).map(o => "#" + o.seq + " " + o.slot + ": " + o.status + (o.reason ? " (" + o.rule + "): " + o.reason : "")).join("\n");
  $("submitted").classList.toggle("err", r.status !== 200);
  // Recorded: the file is sent, and starts again empty (what stands is listed above).
  if (r.status === 200) { $("order-text").value = '{"orders": []}'; preview(); }
  remind(); showOrders();
};
function reportPath(format) {
  let p = "/api/games/" + me.game + "/reports?kind=" + encodeURIComponent($("kind").value) + "&format=" + format;
  if ($("turn").value) p += "&turn=" + encodeURIComponent($("turn").value);
  return p;
}
$("report-btn").onclick = async () => {
  const r = await call("GET", reportPath("text"));
  $("report").textContent = r.status === 200 ? r.text : (r.json() || {}).error || r.text;
};
$("svg-btn").onclick = async () => {
  const r = await call("GET", reportPath("svg"));
  $("drawing").innerHTML = r.status === 200 ? r.text : "";
  if (r.status !== 200) $("report").textContent = (r.json() || {}).error || r.text;
};
// The GA's forms. Each answer is shown in words: a command's own text (a
// DeskRunResult's out and err), or the JSON read into sentences.
const gaGame = () => encodeURIComponent($("ga-game").value.trim());
const newKey = () => (crypto.randomUUID ? crypto.randomUUID() : String(Date.now()) + Math.random());
function said(id, r) {
  const j = r.json() || {};
  const text = (j.out || "") + (j.err ? (r.status === 200 ? "" : "refused: ") + j.err : "") +
               (j.error ? "refused: " + j.error : "");
  $(id).textContent = text || (r.status === 200 ? "done" : "refused: " + r.text);
  $(id).classList.toggle("err", r.status !== 200);
}
function orderLines(j) {
  return (j.orders || []).map(o => "#" + o.seq + " " + o.slot + ": " + o.status + (o.reason ? " (" + o.rule + "): " + o.reason : "")).join("\n");
}
// Adjudication asks first: the phase the status names is shown, and only
// that phase runs (expect: refused if the game moved on meanwhile).
let adjAsk = null;
async function askAdjudicate(mode) {
  $("adj-out").textContent = "";
  const r = await call("GET", "/api/games/" + gaGame() + "/status");
  const j = r.json() || {};
  if (r.status !== 200) { said("adj-out", r); return; }
  if (!j.next_at) { $("adj-out").textContent = "Nothing to adjudicate: " + (j.why_none || ""); return; }
  adjAsk = {mode, expect: j.next_at, key: newKey()};
  const owing = j.owing || [];
  $("adj-what").textContent = (mode === "turn" ? "Adjudicate the rest of " : "Adjudicate ") + j.next_phase + " of " +
    (j.orders_for_name || j.orders_for || j.next_at) + " (" + j.next_at + ")" + (mode === "turn" ? " to the turn's end" : "") + "? " +
    (owing.length ? "No orders yet from: " + owing.join(", ") + "." : "Everyone has given orders.");
  $("adj-confirm").classList.remove("hidden");
}
$("adj-phase-btn").onclick = () => askAdjudicate("phase");
$("adj-turn-btn").onclick = () => askAdjudicate("turn");
$("adj-no").onclick = () => { adjAsk = null; $("adj-confirm").classList.add("hidden"); };
$("adj-yes").onclick = async () => {
  if (!adjAsk) return;
  const a = adjAsk;
  $("adj-confirm").classList.add("hidden");
  const r = await call("POST", "/api/games/" + gaGame() + "/adjudicate", JSON.stringify({mode: a.mode, expect: a.expect}),
                       {"Idempotency-Key": a.key});
  adjAsk = null;
  const j = r.json() || {};
  let summary = null;
  try { summary = JSON.parse(j.out || ""); } catch (e) { summary = null; }
  if (r.status !== 200 || !summary) { said("adj-out", r); return; }
  let text = "", turn = "";
  for (const p of summary.phases || []) {
    if (p.turn_name !== turn) { turn = p.turn_name; text += turn + ":\n"; }
    text += "  " + p.name + "  (events " + p.first_seq + " to " + p.last_seq + ")" +
            (p.rejected ? ", " + p.rejected + " order" + (p.rejected === 1 ? "" : "s") + " rejected" : "") +
            (p.replayed ? ", already done: nothing new recorded" : "") + "\n";
  }
  $("adj-out").textContent = text || "nothing adjudicated";
  $("adj-out").classList.remove("err");
};
$("pw-btn").onclick = async () => {
  const r = await call("POST", "/api/games/" + gaGame() + "/passwords",
                       JSON.stringify({person: $("pw-person").value.trim(), password: $("pw-new").value}));
  const j = r.json() || {};
  $("pw-new").value = "";
  if (r.status !== 200) return said("pw-out", r);
  $("pw-out").classList.remove("err");
  $("pw-out").textContent = "Password set for " + j.person + " (recorded as event " + j.seq + ", only its hash); " +
    (j.sessions_ended ? j.sessions_ended + " of his sessions ended." : "he had no session open.");
};
$("of-btn").onclick = async () => {
  const person = $("of-person").value.trim();
  const r = await call("POST", "/api/games/" + gaGame() + "/orders?for=" + encodeURIComponent(person), $("of-text").value,
                       {"Idempotency-Key": newKey()});
  const j = r.json() || {};
  if (r.status !== 200) return said("of-out", r);
  $("of-out").classList.remove("err");
  $("of-out").textContent = "Entered for " + person + " (recorded as entered by the GA), turn " +
    j.turn.major + "." + j.turn.minor + "." + j.turn.step + ":\n" + orderLines(j);
};
$("rl-btn").onclick = async () => {
  const withdraw = $("rl-what").value === "withdraw", person = $("rl-person").value.trim(), role = $("rl-role").value.trim();
  const reason = $("rl-reason").value.trim() || (withdraw ? role + " withdrawn from " + person : role + " given to " + person);
  const r = await call("POST", "/api/games/" + gaGame() + "/directives",
                       JSON.stringify({reason, body_type: "AssignRole", body: {person, role, withdraw}}), {"Idempotency-Key": newKey()});
  said("rl-out", r);
};
$("sc-btn").onclick = async () => {
  const args = ["schedule", $("ga-game").value.trim()], v = id => $(id).value.trim();
  if (v("sc-action")) args.push(v("sc-action"));
  if (v("sc-deadline")) args.push("--deadline", v("sc-deadline"));
  if ($("sc-weekly").checked) args.push("--weekly");
  if (v("sc-after")) args.push("--after", v("sc-after"));
  if (v("sc-by")) args.push("--by", v("sc-by"));
  if (v("sc-reason")) args.push("--reason", v("sc-reason"));
  said("sc-out", await call("POST", "/api/ga/run", JSON.stringify({args})));
};
$("dv-btn").onclick = async () => {
  said("dv-out", await call("POST", "/api/games/" + gaGame() + "/directives", $("dv-text").value, {"Idempotency-Key": newKey()}));
};
$("cr-btn").onclick = async () => {
  const at = $("cr-at").value.trim();
  if (!confirm("Correct " + $("ga-game").value + " at " + at + "? A new branch is made; the old one stays as it was.")) return;
  let path = "/api/games/" + gaGame() + "/correct?format=text&at=" + encodeURIComponent(at);
  if ($("cr-name").value.trim()) path += "&name=" + encodeURIComponent($("cr-name").value.trim());
  if ($("cr-leave").value.trim()) path += "&leave_out=" + encodeURIComponent($("cr-leave").value.trim());
  said("dv-out", await call("POST", path, $("dv-text").value));
};
// The status panel: GET /api/games/G/status (where the game stands, who owes
// orders), drawn from its JSON and drawn again whenever the game's live feed
// (GET /api/games/G/feed?after=head) brings a new event.
let statusAsk = 0, feed = null;
function unfollow() { if (feed) feed.abort(); feed = null; $("st-live").textContent = ""; }
async function showStatus(game) {
  const ask = ++statusAsk;
  const r = await call("GET", "/api/games/" + encodeURIComponent(game) + "/status");
  if (ask !== statusAsk) return false;  // a later one is on its way
  const j = r.json() || {}, box = $("ga-status");
  box.textContent = "";
  const put = (id, text) => { const p = document.createElement("p"); p.id = id; p.textContent = text; box.appendChild(p); return p; };
  if (r.status !== 200) { put("st-error", j.error || r.text).className = "err"; return false; }
  put("st-game", j.game + "/" + j.branch + " (" + j.kind + ")");
  put("st-next", j.next_phase ? "next to adjudicate: " + j.next_phase : "nothing to adjudicate: " + (j.why_none || ""));
  put("st-orders", j.orders_for ? "orders go to " + j.orders_for + (j.orders_for_name ? " (" + j.orders_for_name + ")" : "")
                                : "the game takes no orders now");
  put("st-deadline", "deadline: " + (j.deadline || "none set"));
  // On a phone each person's row is a card, each value named (data-label).
  const heads = ["person", "roles", "given", "stand", "refused", "superseded", "withdrawn", "last order (seq)", "received"];
  const t = document.createElement("table"), row = (cells, tag) => {
    const tr = document.createElement("tr");
    cells.forEach((c, i) => { const d = document.createElement(tag); d.textContent = c; d.dataset.label = heads[i]; tr.appendChild(d); });
    t.appendChild(tr);
  };
  t.id = "st-persons";
  row(heads, "th");
  for (const p of j.persons || []) {
    row([p.person, (p.roles || []).join(", "), p.submitted || 0, p.stand || 0, p.refused || 0, p.superseded || 0,
         p.withdrawn || 0, p.last_seq ? String(p.last_seq) : "-", p.last_received_at ? utcText(p.last_received_at) : "-"], "td");
  }
  box.appendChild(t);
  const owing = j.owing || [];
  if (j.orders_for) put("st-owing", owing.length ? "no orders yet from: " + owing.join(", ") : "everyone has given orders");
  put("st-last", j.last_turn ? "last finished turn " + j.last_turn + ", digest " + j.last_digest : "no finished turn yet");
  return true;
}
// The feed read as a stream (fetch, which sends the session's token; an
// EventSource cannot): each new event's "id:" line draws the panel again.
async function follow(game) {
  unfollow();
  const ctl = new AbortController();
  feed = ctl;
  try {
    const r = await fetch("/api/games/" + encodeURIComponent(game) + "/feed?after=head",
                          {headers: {"Authorization": "Bearer " + token}, signal: ctl.signal});
    if (r.status !== 200 || !r.body) return;
    $("st-live").textContent = "following the game's events";
    const reader = r.body.getReader(), text = new TextDecoder();
    let buf = "";
    for (;;) {
      const {value, done} = await reader.read();
      if (done) break;
      buf += text.decode(value, {stream: true});
      let end, fresh = false;
      while ((end = buf.indexOf("\n\n")) >= 0) {
        if (/^id: \d+$/m.test(buf.slice(0, end))) fresh = true;
        buf = buf.slice(end + 2);
      }
      if (fresh) await showStatus(game);
    }
  } catch (e) { /* aborted, or the connection ended */ }
  if (feed === ctl) { feed = null; $("st-live").textContent = "the live feed has ended: show the status again to follow it"; }
}
$("status-btn").onclick = async () => {
  const game = $("ga-game").value.trim();
  unfollow();
  if (await showStatus(game)) follow(game);
};
$("ga-run-btn").onclick = async () => {
  const args = $("ga-args").value.trim().split(/\s+/);
  said("ga-out", await call("POST", "/api/ga/run", JSON.stringify({args})));
};
restore();
</script></body></html>
)HTML";

}  // namespace adjutant::desk
