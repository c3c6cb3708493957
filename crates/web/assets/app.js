// The web board: the page keeps the game (start FEN and moves) and asks
// the server for everything else (docs/web.md). No framework, no build.
"use strict";

const $ = (id) => document.getElementById(id);
const state = { games: [], game: null, rules: null, start: null, moves: [], undone: [], view: null, flipped: false, picked: null, stream: null };

async function api(path, body) {
  const r = await fetch(path, body === undefined ? {} : { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const j = await r.json();
  if (!r.ok) throw new Error(j.error || ("HTTP " + r.status));
  return j;
}

function say(text) { $("message").textContent = text; }

async function load() {
  state.games = (await api("/api/games")).games;
  const levels = (await api("/api/levels")).levels;
  $("level").innerHTML += levels.map((l) => `<option value="${l.name}" title="${l.about}">${l.name} (${l.depth ? "depth " + l.depth : l.movetime_ms / 1000 + " s"})</option>`).join("");
  $("game").innerHTML = state.games.map((g) => `<option>${g.game}</option>`).join("");
  await chooseGame(state.games[0].game);
}

// The game and rule set shown in the selects, without a new position.
function showGame(name, rules) {
  const g = state.games.find((x) => x.game === name);
  state.game = name;
  $("game").value = name;
  $("rules").innerHTML = g.rules.map((r) => `<option>${r}</option>`).join("");
  state.rules = rules || g.rules[0];
  $("rules").value = state.rules;
}

async function chooseGame(name) {
  showGame(name);
  state.start = null;
  $("analysis").textContent = "";
  state.moves = []; state.undone = [];
  await refresh();
}

function request() { return { game: state.game, rules: state.rules, fen: state.start, moves: state.moves }; }

async function refresh() {
  try {
    state.view = await api("/api/position", request());
  } catch (e) { say(e.message); return; }
  state.picked = null;
  $("choice").innerHTML = "";
  draw();
  const v = state.view;
  $("fen").value = v.fen;
  $("moves").innerHTML = v.moves.map((m, i) => `<span data-i="${i}" class="${i === v.moves.length - 1 ? "current" : ""}">${m.short}</span>`).join("");
  $("legal").innerHTML = v.legal.map((m) => `<button class="mv" data-m="${m.coord}">${m.short}</button>`).join(" ");
  if (v.status.state === "over") { say("Game over: " + v.result + "."); return; }
  say(v.side + " to move");
  if ($("engine").value === v.side) await engineMove();
}

async function play(coord) {
  state.moves.push(coord); state.undone = [];
  await refresh();
}

async function engineMove() {
  say("engine thinking…");
  try {
    const level = $("level").value;
    const limits = level ? { level } : { movetime_ms: Number($("movetime").value) };
    const r = await api("/api/analyse", { ...request(), ...limits });
    if (r.bestmove) { state.moves.push(r.bestmove); state.undone = []; await refresh(); }
  } catch (e) { say(e.message); }
}

function draw() {
  drawBoard($("board"), state.game, state.view, state.picked, state.flipped);
}

// Where several legal moves go from the square picked to the one clicked
// (captures along different paths), the player chooses among them.
function offerChoice(moves) {
  $("choice").innerHTML = "Which capture? " + moves.map((m) => `<button class="mv" data-m="${m.coord}">${m.coord}</button>`).join(" ");
}

// A move by two clicks (the piece, then its target) or by dragging the
// piece to its target: pointer events serve the mouse, touch and pen alike.
function chosen(sq) {
  const ends = boardOf(state.game).ends;
  $("choice").innerHTML = "";
  if (state.picked) {
    const ms = state.view.legal.filter((m) => { const [f, t] = ends(m.coord); return f === state.picked && t === sq; });
    if (ms.length === 1) { play(ms[0].coord); return true; }
    if (ms.length > 1) { offerChoice(ms); return true; }
    if (sq === state.picked) { state.picked = null; draw(); return false; }
  }
  state.picked = state.view.legal.some((m) => ends(m.coord)[0] === sq) ? sq : null;
  draw();
  return false;
}
function squareAt(x, y) {
  const el = document.elementFromPoint(x, y);
  const sq = el && el.closest("#board [data-sq]");
  return sq ? sq.getAttribute("data-sq") : null;
}
let dragFrom = null;
$("board").addEventListener("pointerdown", (e) => {
  const sq = squareAt(e.clientX, e.clientY);
  if (!sq || !state.view) return;
  e.preventDefault();
  const moved = chosen(sq);
  dragFrom = !moved && state.picked === sq ? sq : null;
});
$("board").addEventListener("pointerup", (e) => {
  const from = dragFrom;
  dragFrom = null;
  const sq = squareAt(e.clientX, e.clientY);
  // Let go on another square: the drag's target.
  if (from && sq && sq !== from && state.picked === from) chosen(sq);
});
$("choice").addEventListener("click", (e) => { const m = e.target.getAttribute("data-m"); if (m) { $("choice").innerHTML = ""; play(m); } });
$("legal").addEventListener("click", (e) => { const m = e.target.getAttribute("data-m"); if (m) play(m); });
$("moves").addEventListener("click", (e) => {
  const i = e.target.getAttribute("data-i");
  if (i === null) return;
  state.undone = state.moves.splice(Number(i) + 1).reverse().concat(state.undone);
  refresh();
});
$("game").addEventListener("change", (e) => chooseGame(e.target.value));
$("rules").addEventListener("change", (e) => { state.rules = e.target.value; state.moves = []; refresh(); });
$("new").addEventListener("click", () => { state.start = null; state.moves = []; state.undone = []; refresh(); });
// Undo takes back a turn: against the engine, its reply and the move
// before it, so that the player is to move again; redo plays them again.
function otherSide(s) { return s === "white" ? "black" : "white"; }
$("undo").addEventListener("click", () => {
  if (!state.moves.length) return;
  state.undone.push(state.moves.pop());
  if ($("engine").value === otherSide(state.view.side) && state.moves.length) state.undone.push(state.moves.pop());
  refresh();
});
$("redo").addEventListener("click", () => {
  if (!state.undone.length) return;
  state.moves.push(state.undone.pop());
  if ($("engine").value === otherSide(state.view.side) && state.undone.length) state.moves.push(state.undone.pop());
  refresh();
});
$("flip").addEventListener("click", () => { state.flipped = !state.flipped; draw(); });
$("setfen").addEventListener("click", () => { state.start = $("fen").value; state.moves = []; state.undone = []; refresh(); });
$("copyfen").addEventListener("click", () => navigator.clipboard && navigator.clipboard.writeText($("fen").value));
$("analyse").addEventListener("click", () => {
  if (state.stream) state.stream.close();
  const q = new URLSearchParams({ game: state.game, rules: state.rules, moves: state.moves.join(" "), movetime_ms: "5000" });
  if (state.start) q.set("fen", state.start);
  const out = $("analysis"); out.textContent = "";
  const es = new EventSource("/api/analyse/stream?" + q);
  state.stream = es;
  es.addEventListener("iteration", (e) => {
    const it = JSON.parse(e.data);
    const score = it.mate === null ? it.score : "mate " + it.mate;
    out.textContent += `depth ${it.depth}  score ${score}  nodes ${it.nodes}  ${it.pv_short.join(" ")}\n`;
  });
  es.addEventListener("result", (e) => { const r = JSON.parse(e.data); out.textContent += `best ${r.bestmove}\n`; es.close(); });
  es.onerror = () => es.close();
});
$("stop").addEventListener("click", () => { if (state.stream) state.stream.close(); });
$("probe").addEventListener("click", async () => {
  try {
    const p = await api("/api/probe", request());
    $("analysis").textContent = `tables: ${p.value} in ${p.distance}\n` + p.moves.map((m) => `${m.short} ${m.value} in ${m.distance}`).join("\n");
  } catch (e) { $("analysis").textContent = e.message; }
});
// Save and load: the server writes and reads the text (PDN for checkers,
// the move list for the animal games); the page offers it as a file and
// shows it in the text box.
$("save").addEventListener("click", async () => {
  try {
    const r = await api("/api/game/save", request());
    $("gametext").value = r.text;
    const a = document.createElement("a");
    a.href = URL.createObjectURL(new Blob([r.text], { type: "text/plain" }));
    a.download = r.filename; a.click();
    say("saved as " + r.format);
  } catch (e) { say(e.message); }
});
async function loadText(text) {
  try {
    const r = await api("/api/game/load", { game: state.game, text });
    showGame(r.game, r.rules);
    state.start = r.start; state.moves = r.moves; state.undone = [];
    await refresh();
  } catch (e) { say(e.message); }
}
$("load").addEventListener("change", async (e) => {
  const f = e.target.files[0]; if (!f) return;
  const text = await f.text();
  $("gametext").value = text;
  e.target.value = "";
  await loadText(text);
});
$("loadtext").addEventListener("click", () => loadText($("gametext").value));
// The proof solver on the position, within the time chosen (the server
// caps it): the value for the side to move and the nodes.
$("prove").addEventListener("click", async () => {
  const out = $("analysis");
  out.textContent = "proving…";
  try {
    const r = await api("/api/prove", { ...request(), movetime_ms: Number($("provetime").value) });
    const what = r.verdict === "unknown" ? "unknown (the time ran out)" : `${r.verdict} for ${r.side}`;
    out.textContent = `proof: ${what}\nnodes ${r.nodes}, ${r.seconds.toFixed(2)} s` + (r.tables ? "\nwith the tables as leaves" : "");
  } catch (e) { out.textContent = e.message; }
});

load();
