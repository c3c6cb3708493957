// The web board: the page keeps the game (start FEN and moves) and asks
// the server for everything else (docs/web.md). No framework, no build.
"use strict";

const $ = (id) => document.getElementById(id);
const state = { games: [], game: null, rules: null, start: null, moves: [], undone: [], view: null, flipped: false, picked: null, stream: null };

// Board geometry and terrain of the animal games (docs/rules/jungle.md,
// docs/rules/jungle-checkers.md): files a-g, rank 1 at White's side.
const ANIMAL = {
  "jungle": { files: 7, ranks: 9, water: ["b4","c4","e4","f4","b5","c5","e5","f5","b6","c6","e6","f6"], traps: ["c1","e1","d2","c9","e9","d8"], dens: ["d1","d9"] },
  "jungle-checkers": { files: 7, ranks: 7, water: [], traps: ["c1","e1","d2","c7","e7","d6"], dens: ["d1","d7"] },
};
const NAMES = { R: "rat 1", C: "cat 2", W: "wolf 3", D: "dog 4", P: "panther 5", T: "tiger 6", L: "lion 7", E: "elephant 8" };

async function api(path, body) {
  const r = await fetch(path, body === undefined ? {} : { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const j = await r.json();
  if (!r.ok) throw new Error(j.error || ("HTTP " + r.status));
  return j;
}

function say(text) { $("message").textContent = text; }

async function load() {
  state.games = (await api("/api/games")).games;
  $("game").innerHTML = state.games.map((g) => `<option>${g.game}</option>`).join("");
  await chooseGame(state.games[0].game);
}

async function chooseGame(name) {
  const g = state.games.find((x) => x.game === name);
  state.game = name;
  $("rules").innerHTML = g.rules.map((r) => `<option>${r}</option>`).join("");
  state.rules = g.rules[0];
  state.start = null;
  state.moves = []; state.undone = [];
  await refresh();
}

function request() { return { game: state.game, rules: state.rules, fen: state.start, moves: state.moves }; }

async function refresh() {
  try {
    state.view = await api("/api/position", request());
  } catch (e) { say(e.message); return; }
  state.picked = null;
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
    const r = await api("/api/analyse", { ...request(), movetime_ms: Number($("movetime").value) });
    if (r.bestmove) { state.moves.push(r.bestmove); state.undone = []; await refresh(); }
  } catch (e) { say(e.message); }
}

function squareName(f, r) { return String.fromCharCode(97 + f) + (r + 1); }

function pieces(fen) {
  // Animal FEN: ranks from the top, digits for empty squares.
  const out = {};
  const rows = fen.split(" ")[0].split("/");
  rows.forEach((row, i) => {
    const r = rows.length - 1 - i;
    let f = 0;
    for (const c of row) {
      if (/[0-9]/.test(c)) { f += Number(c); continue; }
      out[squareName(f, r)] = c; f += 1;
    }
  });
  return out;
}

function draw() {
  const svg = $("board");
  const geo = ANIMAL[state.game];
  if (!geo) {
    // Checkers: the server's drawing until the SVG board covers it.
    svg.setAttribute("viewBox", "0 0 10 1");
    svg.innerHTML = `<text x="0" y="0.6" class="coord">Click the legal moves on the right; the board below is the server's drawing.</text>`;
    say(state.view ? state.view.side + " to move" : "");
    return;
  }
  const { files, ranks } = geo;
  svg.setAttribute("viewBox", `-0.6 -0.1 ${files + 0.7} ${ranks + 0.7}`);
  const at = (sq) => {
    const f = sq.charCodeAt(0) - 97, r = Number(sq.slice(1)) - 1;
    return state.flipped ? [files - 1 - f, r] : [f, ranks - 1 - r];
  };
  const pcs = pieces(state.view.fen);
  let html = "";
  for (let f = 0; f < files; f++) for (let r = 0; r < ranks; r++) {
    const sq = squareName(f, r), [x, y] = at(sq);
    const kind = geo.dens.includes(sq) ? "den" : geo.traps.includes(sq) ? "trap" : geo.water.includes(sq) ? "water" : "land";
    html += `<rect class="sq ${kind}" data-sq="${sq}" x="${x}" y="${y}" width="1" height="1"/>`;
  }
  for (let f = 0; f < files; f++) { const [x] = at(squareName(f, 0)); html += `<text class="coord" x="${x + 0.45}" y="${ranks + 0.4}">${String.fromCharCode(97 + f)}</text>`; }
  for (let r = 0; r < ranks; r++) { const [, y] = at(squareName(0, r)); html += `<text class="coord" x="-0.45" y="${y + 0.6}">${r + 1}</text>`; }
  if (state.picked) {
    const [x, y] = at(state.picked);
    html += `<rect class="picked" x="${x}" y="${y}" width="1" height="1"/>`;
    for (const m of state.view.legal.filter((m) => m.coord.slice(0, 2) === state.picked)) {
      const [tx, ty] = at(m.coord.slice(2));
      html += `<circle class="target" cx="${tx + 0.5}" cy="${ty + 0.5}" r="0.18"/>`;
    }
  }
  for (const [sq, c] of Object.entries(pcs)) {
    const [x, y] = at(sq), white = c === c.toUpperCase(), name = NAMES[c.toUpperCase()] || c;
    html += `<g class="piece ${white ? "white" : "black"}" data-sq="${sq}"><title>${white ? "White" : "Black"} ${name}</title><circle cx="${x + 0.5}" cy="${y + 0.5}" r="0.42"/><text x="${x + 0.5}" y="${y + 0.5}">${c.toUpperCase()}${name.split(" ")[1]}</text></g>`;
  }
  svg.innerHTML = html;
}

$("board").addEventListener("click", (e) => {
  const el = e.target.closest("[data-sq]");
  if (!el || !state.view) return;
  const sq = el.getAttribute("data-sq");
  if (state.picked) {
    const m = state.view.legal.find((m) => m.coord === state.picked + sq);
    if (m) { play(m.coord); return; }
  }
  state.picked = state.view.legal.some((m) => m.coord.slice(0, 2) === sq) ? sq : null;
  draw();
});
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
$("save").addEventListener("click", () => {
  const text = JSON.stringify({ game: state.game, rules: state.rules, opening: state.view ? state.view.moves.length ? null : state.view.fen : null, start: state.start, moves: state.moves });
  const a = document.createElement("a");
  a.href = URL.createObjectURL(new Blob([text], { type: "application/json" }));
  a.download = `${state.game}.json`; a.click();
});
$("load").addEventListener("change", async (e) => {
  const f = e.target.files[0]; if (!f) return;
  const g = JSON.parse(await f.text());
  await chooseGame(g.game); state.rules = g.rules || state.rules; state.start = g.start || g.opening || null; state.moves = g.moves || [];
  refresh();
});

load();
