// The order desk's web page: plain HTML, a little script, no framework.
// One page: log in; then your orders as they stand, orders to submit (the
// schema's OrderFile JSON), and your reports (text, or drawn as SVG). The
// GA logs in with his own password and gets a console for adjudication,
// directives and any view.
#pragma once

#include <string_view>

namespace adjutant::desk {

inline constexpr std::string_view kIndexPage = R"HTML(<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Adjutant order desk</title>
<style>
body{font-family:system-ui,sans-serif;max-width:60rem;margin:1rem auto;padding:0 1rem;line-height:1.4}
fieldset{margin:1rem 0;border:1px solid #999}
input,select,textarea,button{font:inherit;margin:.2rem 0}
textarea{width:100%;min-height:10rem;font-family:monospace}
pre{background:#f4f4f4;padding:.5rem;overflow:auto;white-space:pre-wrap}
.hidden{display:none}.err{color:#a00}
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
<h2>Your orders for the coming turn</h2>
<button id="orders-btn">Show</button><pre id="orders"></pre>
<h2>Submit orders</h2>
<p>Orders in the schema's JSON (an <code>OrderFile</code>: <code>{"orders": [...]}</code>).</p>
<textarea id="order-text" spellcheck="false">{"orders": []}</textarea>
<button id="submit-btn">Submit</button><pre id="submitted"></pre>
<h2>Your reports</h2>
<label>Report <select id="kind">
<option>events</option><option>positions</option><option>treasury</option>
<option>nation</option><option>map</option><option>battle</option></select></label>
<label>Turn <input id="turn" size="10" placeholder="latest"></label>
<button id="report-btn">Show</button><button id="svg-btn">Draw</button>
<pre id="report"></pre><div id="drawing"></div>
</section>
<section id="ga" class="hidden">
<p>The GA. <button id="ga-logout-btn">Log out</button></p>
<label>Game <input id="ga-game"></label>
<button id="adj-phase-btn">Adjudicate the next phase</button>
<button id="adj-turn-btn">Adjudicate the turn</button>
<h2>Run a command</h2>
<input id="ga-args" size="60" placeholder="report fleet nwol"><button id="ga-run-btn">Run</button>
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
  if (me && !me.ga) $("who").textContent = me.person + " in " + me.game + " (" + (me.roles || []).join(", ") + ")";
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
  me = r.json(); token = me.token; sessionStorage.setItem("token", token); $("login-error").textContent = ""; show();
}
$("login-btn").onclick = () => login("/api/login", {game: $("game").value, person: $("person").value, password: $("password").value});
$("ga-login-btn").onclick = () => login("/api/ga/login", {password: $("ga-password").value});
async function logout() { await call("POST", "/api/logout", ""); token = null; me = null; sessionStorage.removeItem("token"); show(); }
$("logout-btn").onclick = logout; $("ga-logout-btn").onclick = logout;
$("orders-btn").onclick = async () => {
  const r = await call("GET", "/api/games/" + me.game + "/orders");
  const j = r.json();
  $("orders").textContent = r.status !== 200 ? (j || {}).error : (j.orders || []).map(o =>
    "#" + o.seq + " " + o.slot + ": " + o.status + (o.reason ? " (" + o.rule + "): " + o.reason : "")).join("\n") || "none";
};
$("submit-btn").onclick = async () => {
  const key = (crypto.randomUUID ? crypto.randomUUID() : String(Date.now()) + Math.random());
  const r = await call("POST", "/api/games/" + me.game + "/orders", $("order-text").value, {"Idempotency-Key": key});
  const j = r.json();
  $("submitted").textContent = r.status !== 200 ? "refused: " + ((j || {}).error || r.text) :
    "recorded for turn " + j.turn.major + "." + j.turn.minor + "." + j.turn.step + ":\n" +
    (j.orders || []).map(o => "#" + o.seq + " " + o.slot + ": " + o.status + (o.reason ? " (" + o.rule + "): " + o.reason : "")).join("\n");
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
async function adjudicate(mode) {
  const r = await call("POST", "/api/games/" + encodeURIComponent($("ga-game").value) + "/adjudicate", JSON.stringify({mode}));
  const j = r.json() || {};
  $("ga-out").textContent = (j.out || "") + (j.err || j.error || "");
}
$("adj-phase-btn").onclick = () => adjudicate("phase");
$("adj-turn-btn").onclick = () => adjudicate("turn");
$("ga-run-btn").onclick = async () => {
  const args = $("ga-args").value.trim().split(/\s+/);
  const r = await call("POST", "/api/ga/run", JSON.stringify({args}));
  const j = r.json() || {};
  $("ga-out").textContent = (j.out || "") + (j.err || j.error || "");
};
restore();
</script></body></html>
)HTML";

}  // namespace adjutant::desk
