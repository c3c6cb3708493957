// The web board: the page keeps the game (start FEN and moves) and asks
// the server for everything else (docs/web.md). No framework, no build.
//
// One owner of the page's state: `S`, changed only by `show` (a new
// position, committed only once the server has accepted it) and `settle`
// (which mode follows: idle, thinking, analysing, reviewing, over,
// editing). Every request carries the generation `S.gen` it was made for;
// a reply for an older generation is dropped, and its request aborted
// (which stops its search on the server).
"use strict";

const $ = (id) => document.getElementById(id);
const S = {
  games: [], levels: [],
  game: null,        // { name, rules, start, moves: [coord], names: [short], resigned, timeout }
  cursor: 0,         // moves shown (less than game.moves.length: reviewing)
  view: null,        // /api/position of the position shown
  mode: "loading",
  gen: 0,            // bumped whenever the position shown or the search changes
  pending: null,     // AbortController of the position request
  search: null,      // AbortController of the engine's search or the analysis
  tool: null,        // AbortController of a table probe or a proof
  analysis: false,   // analysis wanted on the position shown
  picked: null, focus: null, flipped: false, arrow: null, lastIter: null,
  edit: null,        // the editor's pieces while editing
  premove: null,     // { from, to } set while the engine thinks
  sound: false,      // move sounds (off by default)
  clock: null,       // the clocks (clock.js): { inc, white, black: ms left, … }
  review: null,      // the game review (review.js): { key, shares, marks, … }
  tree: null,        // every line of the game (tree.js); S.game.moves is the one shown
};
const FIRST = { "english-checkers": "black" };  // who moves first, when not White
const other = (s) => (s === "white" ? "black" : "white");
const cap = (s) => s[0].toUpperCase() + s.slice(1);

function positionOf(game, n) { return { game: game.name, rules: game.rules, fen: game.start, moves: game.moves.slice(0, n) }; }

// ---- Messages ----

let retryAction = null;
function say(text, retry) {
  $("messagetext").textContent = text;
  retryAction = retry || null;
  $("retry").hidden = !retry;
}
function note(text) { $("note").textContent = text; }
function announce(text) { $("live").textContent = text; }
let lastAnnounced = 0;

// ---- The one place the position changes ----

// Stops whatever runs for the position shown: the engine's search, the
// analysis, a position request. Their replies, if any come, are dropped.
function stopAll() {
  S.gen++;
  S.glide = null;
  for (const k of ["pending", "search", "tool"]) if (S[k]) { S[k].abort(); S[k] = null; }
  S.lastIter = null; S.arrow = null;
}

// Shows move n of `game` (a new game, a move added, a move list browsed):
// the server is asked first; only its answer changes the page's game. A
// refusal or failure leaves the game as it was and says so, with Retry.
async function show(game, n, why) {
  stopAll();
  const gen = S.gen, ctl = new AbortController();
  S.pending = ctl;
  $("choice").innerHTML = "";
  let view;
  try {
    view = await withRetry("asking", ctl.signal, () => api("/api/position", positionOf(game, n), ctl.signal));
  } catch (e) {
    if (e.name === "AbortError" || gen !== S.gen) return false;
    S.pending = null;
    const what = why === "you" ? "Your move was not played" : why === "engine" ? "The engine's move was not played" : "Nothing changed";
    say(`${what}: ${e.message}.`, () => show(game, n, why));
    setMode(S.view ? (S.cursor < S.game.moves.length ? "reviewing" : "idle") : "loading");
    draw();
    return false;
  }
  if (gen !== S.gen) return false;
  S.pending = null;
  const names = view.moves.map((m) => m.short);
  const old = S.game && S.game.name === game.name && S.game.start === game.start ? S.game : null;
  // The moves after the one shown keep their names: from the line shown
  // before, else from the tree (a variation's line), else the coordinate.
  for (let i = n; i < game.moves.length; i++) {
    const known = S.tree && nodeAt(S.tree, game.moves, i + 1);
    names.push((old && old.moves[i] === game.moves[i] && old.names[i]) || (known && known.name) || game.moves[i]);
  }
  if (S.game && S.game.name !== game.name) S.focus = null;  // another board's size
  const before = S.game, fresh = !S.tree || !before || before.name !== game.name || before.start !== game.start || ["new", "fen", "load"].includes(why);
  S.game = { ...game, rules: view.rules, names };
  delete S.game.tree;
  delete S.game.clock;
  // The tree: a new one for another game, else the line shown added to it
  // (Undo takes the moves it takes back out of it).
  if (fresh) S.tree = game.tree || treeOf(game.moves, names);
  else if (why === "undo" || why === "cut") cutAt(S.tree, before.moves, n + 1);
  growLine(S.tree, game.moves, names);
  S.cursor = n;
  S.view = view;
  useStrengths(view.strengths);
  S.picked = null;
  clearOutput();
  keep();
  render();
  if (why === "new" || why === "load" || why === "fen") startClock(why === "load" ? game.clock : null);
  if (why === "you" || why === "engine") {
    const m = view.moves[n - 1], mover = other(view.side);
    clockMoved(mover);
    // The engine's reply follows the player's move by a moment: both are
    // kept, so that a screen reader that was still reading the first is
    // not cut off by the second.
    const text = `${why === "engine" ? "Engine, " : ""}${cap(mover)} plays ${m.short}.`;
    announce(why === "engine" && Date.now() - lastAnnounced < 3000 ? `${$("live").textContent} ${text}` : text);
    lastAnnounced = Date.now();
    if (S.cursor === S.game.moves.length) say(`${cap(mover)} played ${m.short}.`);
  } else { say(""); announce(""); }
  if (why !== "engine") S.premove = null;
  settle();
  // After settle, whose mode change redraws the board: the glide runs on
  // the piece that stays (issue #51: it ran on one replaced at once).
  if (why === "you" || why === "engine") { animateLast(); sound(/x/.test(S.game.moves[n - 1]) || view.moves[n - 1].short.includes("x")); }
  if (why === "engine" && S.premove) playPremove();
  return true;
}

// What follows a position: the mode, and the engine's search or the
// analysis when they are due.
function settle() {
  const v = S.view;
  if (!v) return;
  if (S.edit) return setMode("editing");
  if (S.game.resigned || S.game.timeout || v.status.state !== "playing") {
    setMode("over");
    const text = resultText();
    say(text); announce(($("live").textContent + " " + text).trim());
    return;
  }
  if (S.cursor < S.game.moves.length) { setMode("reviewing"); say(`Move ${S.cursor} of ${S.game.moves.length}: the engine waits (End returns to the game).`); analyse(); return; }
  if ($("engine").value === v.side) { think(); return; }
  setMode(S.analysis ? "analysing" : "idle");
  if (!$("messagetext").textContent) say(`${cap(v.side)} to move.`);
  analyse();
}
function setMode(m) {
  S.mode = m;
  document.body.dataset.mode = m;
  $("movenow").disabled = m !== "thinking";
  $("resign").disabled = m === "over" || m === "editing" || $("engine").value === "none";
  $("undo").disabled = m === "editing" || !S.game || S.cursor === 0;
  for (const id of ["editdone", "editcancel", "palette", "editside", "editclear", "editstart"]) $(id).disabled = m !== "editing";
  drawPalette();
  $("edit").disabled = m === "editing";
  draw();
}

// Why the game ended, in words (the server says who won and "by the
// rules"; the page names which rule).
function resultText() {
  const g = S.game, v = S.view;
  if (g.resigned) return `${cap(g.resigned)} resigned: ${other(g.resigned)} wins.`;
  if (g.timeout) return `${cap(g.timeout)}'s time ran out: ${cap(other(g.timeout))} wins.`;
  const st = v.status;
  const pieces = boardOf(g.name).pieces(v.fen), all = Object.entries(pieces);
  const count = (w) => all.filter(([, p]) => p.white === w).length;
  let why = { "no-moves": "no legal move", repetition: "repetition" }[st.reason] || "by the rules";
  if (st.reason === "rules") {
    const dens = ANIMAL[g.name] ? ANIMAL[g.name].dens : [];
    if (dens.some((d) => pieces[d] && pieces[d].white === (d !== "d1"))) why = "den entered";
    else if (!count(true) || !count(false)) why = "all pieces captured";
    else why = "move limit reached";
  }
  return `Game over: ${v.winner ? cap(v.winner) + " wins" : "draw"} (${why}).`;
}

// ---- The engine and the analysis ----

// The engine's limits: its clock when the game has clocks, else the
// level or the time per move.
function limits() {
  const clock = clockLimits(S.view.side), level = $("level").value;
  return clock || (level ? { level } : { movetime_ms: $("movetime").value });
}
function searchParams(extra) {
  const g = S.game, p = { game: g.name, rules: g.rules, moves: g.moves.slice(0, S.cursor).join(" "), ...extra };
  if (g.start) p.fen = g.start;
  return p;
}

// The engine's move: while it thinks, the board takes no move; its answer
// is played only if the position is still the one it was asked about.
// Move now plays the best line of this search so far; pressed before its
// first line has come (the answer delayed, or a 503 being retried), it
// asks for the engine's quickest move (depth 1) instead of leaving the
// page waiting on a search it has stopped.
async function think() {
  stopAll();
  const gen = S.gen;
  setMode("thinking");
  say(`The engine (${S.view.side}) is thinking…`);
  let r, last = null, lim = limits();
  for (;;) {
    const ctl = new AbortController();
    S.search = ctl;
    try {
      r = await withRetry("the engine asks", ctl.signal, () => searchStream(searchParams(lim), ctl.signal, (it) => { if (gen === S.gen) { last = it; showIteration(it); } }));
      break;
    } catch (e) {
      if (gen !== S.gen) return;
      if (ctl.signal.aborted && ctl.signal.reason === "now") {
        if (last && last.pv.length) { r = { bestmove: last.pv[0] }; break; }
        lim = { depth: 1 };
        continue;
      }
      if (ctl.signal.aborted) return;
      S.search = null; setMode("idle"); say(`The engine could not move: ${e.message}.`, () => think()); return;
    }
  }
  if (gen !== S.gen) return;
  S.search = null;
  if (!r.bestmove) { setMode("idle"); say("The engine found no move.", () => think()); return; }
  await show({ ...S.game, moves: S.game.moves.slice(0, S.cursor).concat([r.bestmove]) }, S.cursor + 1, "engine");
}

// The analysis of the position shown, when it is wanted: restarted with
// every new position (show stops the old one).
async function analyse() {
  if (!S.analysis || S.view.status.state !== "playing" || S.game.resigned || S.game.timeout) return;
  const gen = S.gen, ctl = new AbortController();
  S.search = ctl;
  $("analysis").textContent = "Analysing…";
  try {
    const lines = { movetime_ms: 10000, multipv: $("multipv").value };
    const r = await withRetry("analysing", ctl.signal, () => searchStream(searchParams(lines), ctl.signal, (it) => { if (gen === S.gen) showIteration(it, true); }));
    if (gen !== S.gen) return;
    S.search = null;
    $("analysis").append(`\nDone: best move ${shortOf(r.bestmove)}, depth ${r.depth}.`);
  } catch (e) {
    if (gen !== S.gen || e.name === "AbortError") return;
    S.search = null;
    $("analysis").textContent = `The analysis stopped: ${e.message}.`;
  }
}
function shortOf(coord) { const m = S.view.legal.find((x) => x.coord === coord); return m ? m.short : coord; }
// A score in words from White's side, and the bar's share for White
// (`side`: who is to move where the line was searched; the position shown's).
function scoreText(line, side = S.view.side) {
  const white = side === "white" ? 1 : -1;
  if (line.table) { const w = (line.table === "win") === (white === 1); return [`tables: ${w ? "White" : "Black"} wins`, w ? 100 : 0]; }
  if (line.mate !== null) { const m = line.mate * white; return [`${m > 0 ? "White" : "Black"} wins in ${Math.abs(line.mate)}`, m > 0 ? 100 : 0]; }
  const s = line.score * white;
  return [`${s >= 0 ? "+" : ""}${s} for White`, 50 + 50 * Math.tanh(s / 400)];
}
// A search's iteration: the score from White's side, the bar, the arrow;
// the latest iteration's lines (several with multi-PV), best first.
function showIteration(it, print) {
  S.lastIter = it;
  const [text, share] = scoreText(it);
  $("evalfill").style.height = share + "%";
  const nps = it.ms > 0 ? `, ${(it.nodes / it.ms / 1000).toFixed(1)} M nodes/s` : "";
  $("evaltext").textContent = `Evaluation (White's side): ${text}, depth ${it.depth}${nps}`;
  S.arrow = it.pv[0] || null;
  // One line (Lines 1) is the iteration's own, and as clickable as several.
  if (print) drawLines(it.lines && it.lines.length ? it : { depth: it.depth, lines: [it] });
  draw();
}
function clearOutput() {
  $("analysis").textContent = ""; $("explorer").innerHTML = ""; $("evaltext").textContent = "";
  $("evalfill").style.height = "50%";
}

// ---- Moves from the player ----

function humanMay() {
  // A change still on its way (an Undo, a move, a game being opened): a
  // move now would be played on the position it is leaving, and would
  // drop the change unseen (issue #51).
  if (S.pending) { say("The last change is still on its way to the server: wait for it."); return false; }
  if (S.mode === "thinking") { say("The engine is thinking: wait for its move, or press Move now."); return false; }
  if (S.mode === "over") { say(resultText() + " Start a new game or undo."); return false; }
  if (S.mode === "editing" || !S.view) return false;
  if ($("engine").value === S.view.side) { say(`The engine plays ${S.view.side}: its move is not yours to make${$("retry").hidden ? "" : " (Retry asks it again)"}.`, retryAction); return false; }
  return true;
}
function play(coord) {
  if (!humanMay()) return;
  if (!S.view.legal.some((m) => m.coord === coord)) { say(`${coord} is not a legal move here.`); return; }
  // A move the tree has from here follows its line; a new one starts a
  // variation (the old line is kept).
  const here = nodeAt(S.tree, S.game.moves, S.cursor), known = here && here.kids.find((k) => k.mv === coord);
  const moves = S.game.moves.slice(0, S.cursor).concat([coord], known ? mainAfter(known) : []);
  show({ ...S.game, resigned: null, timeout: null, moves }, S.cursor + 1, "you");
}

// A square chosen (click, tap, drag's end or Enter): pick a piece, move
// the picked one, or say why not.
function chosen(sq) {
  if (!S.view || !sq) return false;
  if (S.mode === "editing") { editAt(sq); return false; }
  if (S.mode === "thinking" && !S.pending) { premoveAt(sq); return false; }
  const b = boardOf(S.game.name), pieces = b.pieces(S.view.fen), p = pieces[sq];
  $("choice").innerHTML = "";
  if (S.picked && sq !== S.picked) {
    const ms = S.view.legal.filter((m) => { const path = b.path(m.coord); return path[0] === S.picked && path[path.length - 1] === sq; });
    if (ms.length === 1) { play(ms[0].coord); return true; }
    if (ms.length > 1) { offerChoice(ms); return true; }
  }
  if (sq === S.picked) { S.picked = null; draw(); return false; }
  if (!p) { if (S.picked) say("No move of that piece goes there."); S.picked = null; draw(); return false; }
  if (!humanMay()) return false;
  const side = p.white ? "white" : "black";
  if (side !== S.view.side) { say(`It is ${S.view.side}'s move.`); S.picked = null; draw(); return false; }
  const mine = S.view.legal.filter((m) => b.path(m.coord)[0] === sq);
  if (!mine.length) {
    const captures = S.view.legal.filter((m) => /x/.test(m.coord));
    say(captures.length && b.family === "checkers" ? `A capture is forced: ${captures.map((m) => m.short).join(", ")}.` : `That ${p.name} has no legal move.`);
    S.picked = null; draw(); return false;
  }
  S.picked = sq;
  say(`${cap(side)} ${p.name} on ${sq} picked: choose where it goes.`);
  draw();
  return false;
}
// One premove while the engine thinks: one of the player's pieces, then
// a square; played as soon as the engine has moved if it is legal then.
// A click anywhere else cancels it.
function premoveAt(sq) {
  const b = boardOf(S.game.name), p = b.pieces(S.view.fen)[sq], mine = other(S.view.side);
  const thinking = "The engine is thinking: wait for its move, or press Move now.";
  if (S.premove && !S.premove.to && sq !== S.premove.from) {
    S.premove.to = sq;
    say(`Premove ${S.premove.from}–${sq}: played when the engine has moved, if legal then (a click elsewhere cancels it).`);
  } else if (p && (p.white ? "white" : "black") === mine && !(S.premove && S.premove.from === sq)) {
    S.premove = { from: sq, to: null };
    say(`${thinking} Premove from ${sq}: choose where it goes.`);
  } else {
    const had = !!S.premove;
    S.premove = null;
    say(had ? "Premove cancelled." : `${thinking} (A click on one of your pieces, then a square, sets a premove.)`);
  }
  draw();
}
// The premove, once the engine has moved: played if legal, else dropped
// with a word.
function playPremove() {
  const pm = S.premove;
  S.premove = null;
  if (!pm || !pm.to || S.mode === "over" || !S.view) return;
  const b = boardOf(S.game.name);
  const ms = S.view.legal.filter((m) => { const path = b.path(m.coord); return path[0] === pm.from && path[path.length - 1] === pm.to; });
  if (ms.length === 1) play(ms[0].coord);
  else if (ms.length > 1) offerChoice(ms);
  else { say(`The premove ${pm.from}–${pm.to} is not legal after the engine's move: dropped.`); draw(); }
}

// Several legal moves from the square picked to the one chosen (captures
// along different paths): the player chooses among them.
function offerChoice(moves) {
  $("choice").innerHTML = "Which capture? " + moves.map((m) => `<button class="mv" data-m="${m.coord}">${m.coord}</button>`).join(" ");
}
function squareAt(x, y) {
  const el = document.elementFromPoint(x, y);
  const sq = el && el.closest("#board [data-sq]");
  return sq ? sq.getAttribute("data-sq") : null;
}

// ---- Drawing ----

function lastSquares() {
  if (!S.game || !S.cursor) return [];
  return boardOf(S.game.name).path(S.game.moves[S.cursor - 1]);
}
function draw() {
  if (!S.game || !S.view) return;
  drawBoard($("board"), S.game.name, {
    view: S.view, picked: S.picked, flipped: S.flipped, last: lastSquares(), focus: S.focus, arrow: S.arrow,
    pieces: S.edit, edit: !!S.edit, canMove: S.mode !== "thinking" && S.mode !== "over",
    premove: S.premove ? [S.premove.from, S.premove.to].filter(Boolean) : [],
  });
  glide();
  // White's share of the bar grows from White's side of the board.
  $("evalbar").classList.toggle("flipped", S.flipped);
  const b = boardOf(S.game.name), pieces = S.edit || b.pieces(S.view.fen);
  const f = S.focus && squareAtFR(S.game.name, S.focus[0], S.focus[1]);
  $("board").setAttribute("aria-label", `${S.game.name} board, ${S.view.side} to move` + (f ? `; square ${describeSquare(b, f, pieces)}` : "") + (S.picked ? `; picked ${S.picked}` : ""));
}
function render() {
  const g = S.game, v = S.view;
  $("game").value = g.name;
  $("rules").innerHTML = S.games.find((x) => x.game === g.name).rules.map((r) => `<option>${r}</option>`).join("");
  $("rules").value = v.rules;
  if (document.activeElement !== $("fen")) $("fen").value = v.fen;  // not under the player's typing
  // The move list: numbered, the first mover's move and the reply paired.
  const first = FIRST[g.name] || "white";
  const startSide = S.cursor % 2 === 0 ? v.side : other(v.side);
  let html = S.tree.comment ? `<li class="var">${commentHtml(S.tree.comment)}</li>` : "", i = 0, num = 1;
  if (startSide !== first && g.moves.length) { html += `<li><span class="num">1.</span><span class="mv gap">…</span>${moveButton(0)}</li>`; i = 1; num = 2; }
  if (i === 1) html += comments(0, 1) + variations(0);
  for (; i < g.moves.length; i += 2, num++) {
    html += `<li><span class="num">${num}.</span>${moveButton(i)}${i + 1 < g.moves.length ? moveButton(i + 1) : ""}</li>`;
    html += comments(i, Math.min(i + 2, g.moves.length)) + variations(i) + (i + 1 < g.moves.length ? variations(i + 1) : "");
  }
  $("moves").innerHTML = html;
  $("promote").disabled = !variationDepth(S.tree, g.moves, g.moves.length) || S.mode === "editing";
  $("cutline").disabled = S.cursor === 0 || S.mode === "editing";
  // The comment field: the move shown's (before the first: the game's).
  $("commentlabel").textContent = S.cursor ? `Comment on ${g.names[S.cursor - 1]}` : "Comment before the first move";
  const here = nodeAt(S.tree, g.moves, S.cursor);
  if (document.activeElement !== $("commenttext")) $("commenttext").value = (here && here.comment) || "";
  const cur = $("moves").querySelector("[aria-current]");
  if (cur) cur.scrollIntoView({ block: "nearest" });
  $("legal").innerHTML = v.legal.map((m) => `<button class="mv" data-m="${m.coord}">${m.short}</button>`).join(" ");
  drawReview();
  draw();
}
// The piece just moved glides from where it was (not when the player asks
// for less motion). The board is redrawn whole (a mode change, the
// engine's first line and its arrow), which replaces the piece's element:
// every draw during the glide starts it again on the new element where it
// had got to, so that it is seen to the end (issue #51: it never showed).
const GLIDE_MS = 150;
function animateLast() {
  if (matchMedia("(prefers-reduced-motion: reduce)").matches) return;
  S.glide = { t0: performance.now() };
  glide();
}
function glide() {
  if (!S.glide) return;
  const elapsed = performance.now() - S.glide.t0;
  if (elapsed >= GLIDE_MS) { S.glide = null; return; }
  const path = lastSquares(), svg = $("board");
  const rect = (id) => svg.querySelector(`rect.sq[data-sq="${id}"]`);
  const a = rect(path[0]), z = rect(path[path.length - 1]), piece = svg.querySelector(`g.piece[data-sq="${path[path.length - 1]}"]`);
  if (!a || !z || !piece || !piece.animate) return;
  const at = (r) => `translate(${r.getAttribute("x")}px, ${r.getAttribute("y")}px)`;
  piece.animate([{ transform: at(a) }, { transform: at(z) }], { duration: GLIDE_MS, delay: -elapsed, easing: "ease-out" });
}
// The variations branching off the line shown at its move i, each in
// brackets under the move, each of its moves a button to its position;
// the variations nested in them in brackets within.
function variations(i) {
  return branches(S.tree, S.game.moves, i).map((v) => `<li class="var">(${variationHtml(v)})</li>`).join("");
}
// A variation's moves, each followed by its comment and by the
// variations nested in it, in brackets of their own (as deep as they go).
function variationHtml(v) {
  return v.map((m) => `<button class="mv" data-line="${m.line.join(",")}">${m.name}</button>${m.comment ? " " + commentHtml(m.comment) : ""}`
    + m.subs.map((s) => ` <span class="subvar">(${variationHtml(s)})</span>`).join("")).join(" ");
}
// The comments on the main line's moves a to b (exclusive), each on a
// line of its own under its move. Comments are the player's or a file's
// text: escaped, never markup.
function comments(a, b) {
  let html = "";
  for (let i = a; i < b; i++) { const n = nodeAt(S.tree, S.game.moves, i + 1); if (n && n.comment) html += `<li class="var">${S.game.names[i]}: ${commentHtml(n.comment)}</li>`; }
  return html;
}
function commentHtml(text) { return `<span class="comment">${text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`)}</span>`; }
function moveButton(i) {
  const current = i === S.cursor - 1;
  return `<button class="mv${current ? " current" : ""}" data-i="${i}"${current ? ' aria-current="step"' : ""}>${S.game.names[i]}${reviewMark(i)}</button>`;
}

// ---- Sounds: off by default, a toggle kept with the settings ----

let audio = null;
function setSound(on) {
  S.sound = on;
  $("sound").setAttribute("aria-pressed", String(on));
  $("sound").textContent = on ? "Sounds: on" : "Sounds: off";
}
// A short tone for a move, a lower and longer one for a capture (Web
// Audio: no sound files to load).
function sound(capture) {
  if (!S.sound || !window.AudioContext) return;
  try {
    audio = audio || new AudioContext();
    if (audio.state === "suspended") audio.resume().catch(() => {});
    const osc = audio.createOscillator(), gain = audio.createGain(), t = audio.currentTime;
    osc.frequency.value = capture ? 330 : 660;
    gain.gain.setValueAtTime(0.15, t);
    gain.gain.exponentialRampToValueAtTime(0.001, t + (capture ? 0.25 : 0.12));
    osc.connect(gain).connect(audio.destination);
    osc.start(t);
    osc.stop(t + 0.3);
  } catch (_) { /* no audio here: the game goes on silently */ }
}

// ---- Keep and share: the URL and local storage ----

function link(game, n) {
  const q = new URLSearchParams({ game: game.name, rules: game.rules || "" });
  if (game.start) q.set("fen", game.start);
  if (game.moves.length) q.set("moves", game.moves.join(","));
  if (n < game.moves.length) q.set("at", n);
  if (game.resigned) q.set("resigned", game.resigned);
  if (game.timeout) q.set("timeout", game.timeout);
  return location.pathname + "?" + q;
}
function keep() {
  const url = link(S.game, S.cursor);
  history.replaceState(null, "", url);
  $("link").value = location.origin + url;
  try {
    localStorage.setItem("zoo-game", JSON.stringify({ name: S.game.name, rules: S.game.rules, start: S.game.start, moves: S.game.moves, at: S.cursor, resigned: S.game.resigned || null, timeout: S.game.timeout || null, tree: S.tree ? packTree(S.tree) : null, clock: keptClock() }));
    localStorage.setItem("zoo-settings", JSON.stringify({ engine: $("engine").value, level: $("level").value, movetime: $("movetime").value, clock: $("clock").value, sound: S.sound }));
  } catch (_) { /* storage off: the URL still keeps the game */ }
}
function fromUrl() {
  const q = new URLSearchParams(location.search);
  if (!q.get("game")) return null;
  const moves = (q.get("moves") || "").split(",").filter(Boolean);
  const side = (k) => (["white", "black"].includes(q.get(k)) ? q.get(k) : null);
  const resigned = side("resigned"), timeout = side("timeout");
  const at = q.has("at") ? Number(q.get("at")) : moves.length;
  return { game: { name: q.get("game"), rules: q.get("rules") || null, start: q.get("fen") || null, moves, names: [], resigned, timeout }, at: Number.isInteger(at) && at >= 0 ? Math.min(at, moves.length) : moves.length };
}
function fromStorage() {
  try {
    const s = JSON.parse(localStorage.getItem("zoo-settings") || "null");
    if (s) { $("engine").value = s.engine; $("level").value = s.level; $("movetime").value = s.movetime; $("clock").value = s.clock || ""; setSound(!!s.sound); }
    const g = JSON.parse(localStorage.getItem("zoo-game") || "null");
    return g ? { game: { name: g.name, rules: g.rules, start: g.start, moves: g.moves, names: [], resigned: g.resigned, timeout: g.timeout, tree: (g.tree && unpackTree(g.tree)) || undefined, clock: g.clock || null }, at: g.at } : null;
  } catch (_) { return null; }
}

// ---- Start ----

async function load() {
  const boot = new AbortController();
  try {
    S.games = (await withRetry("loading", boot.signal, () => api("/api/games"))).games;
    const levels = (await api("/api/levels")).levels;
    $("level").innerHTML += levels.map((l) => `<option value="${l.name}" title="${l.about}">${l.name} (${l.depth ? "depth " + l.depth : l.movetime_ms / 1000 + " s"})</option>`).join("");
  } catch (e) { say(`The page could not start: ${e.message}.`, load); return; }
  $("game").innerHTML = S.games.map((g) => `<option>${g.game}</option>`).join("");
  const stored = fromStorage(), linked = fromUrl(), saved = linked || stored;
  // A reload's link is the stored game's line: the stored tree, with the
  // variations, and the clocks come back with it (a link alone carries the
  // line shown).
  const same = linked && stored && stored.game.tree && linked.game.name === stored.game.name && (linked.game.start || null) === (stored.game.start || null);
  if (same && nodeAt(stored.game.tree, linked.game.moves, linked.game.moves.length)) { linked.game.tree = stored.game.tree; linked.game.clock = stored.game.clock; }
  S.flipped = $("engine").value === "white";
  // Why a linked game could not be opened: said after the fresh game is
  // shown, not replaced by it without a word.
  let broken = null;
  if (saved && S.games.some((g) => g.game === saved.game.name)) {
    if (await show(saved.game, saved.game.moves.length, "load")) {
      if (saved.at < saved.game.moves.length) await show(S.game, saved.at, "browse");
      return;
    }
    broken = $("messagetext").textContent.replace(/^Nothing changed: /, "");
  } else if (linked) broken = `there is no game "${linked.game.name}" here (${S.games.map((g) => g.game).join(", ")}).`;
  await show(newGame(S.games[0].game), 0, "new");
  if (broken && linked) say(`The link's game could not be opened: ${broken} A new game is shown.`);
}
function newGame(name, rules) { return { name, rules: rules || null, start: null, moves: [], names: [] }; }

// ---- Controls ----

function goTo(n) {
  if (!S.game || S.mode === "editing") return;
  n = Math.max(0, Math.min(S.game.moves.length, n));
  if (n === S.cursor && S.mode !== "idle") return;
  show(S.game, n, "browse");
}
// Undo takes back a turn: against the engine, its reply and the move
// before it, so that the player is to move again.
function undo() {
  if (!S.game || S.cursor === 0 || S.mode === "editing") return;
  let n = S.cursor - 1;
  const sideAt = (k) => ((S.cursor - k) % 2 === 0 ? S.view.side : other(S.view.side));
  if ($("engine").value === sideAt(n) && n > 0) n -= 1;
  show({ ...S.game, resigned: null, timeout: null, moves: S.game.moves.slice(0, n) }, n, "undo");
}
function ui() {
  let dragFrom = null;
  $("board").addEventListener("pointerdown", (e) => {
    const sq = squareAt(e.clientX, e.clientY);
    if (!sq) return;
    e.preventDefault();
    $("board").focus({ preventScroll: true });
    const moved = chosen(sq);
    dragFrom = !moved && S.picked === sq ? sq : null;
    // The pointer stays the board's while the piece is dragged, even off it.
    if (dragFrom && $("board").setPointerCapture) try { $("board").setPointerCapture(e.pointerId); } catch (_) { /* not capturable */ }
  });
  // While a picked piece is dragged it follows the pointer or finger
  // (drawn last, so on top, and let through to the square beneath it);
  // a redraw meanwhile (an engine line) is followed again at the next move.
  $("board").addEventListener("pointermove", (e) => {
    if (!dragFrom || S.picked !== dragFrom || !(e.buttons & 1)) return;
    const svg = $("board"), piece = svg.querySelector(`g.piece[data-sq="${dragFrom}"]`);
    if (!piece || !svg.getScreenCTM()) return;
    const pt = new DOMPoint(e.clientX, e.clientY).matrixTransform(svg.getScreenCTM().inverse());
    if (!piece.classList.contains("dragging")) { piece.classList.add("dragging"); svg.append(piece); }
    piece.setAttribute("transform", `translate(${pt.x - 0.5} ${pt.y - 0.5})`);
  });
  $("board").addEventListener("pointerup", (e) => {
    const from = dragFrom;
    dragFrom = null;
    const sq = squareAt(e.clientX, e.clientY);
    // Let go on another square: the drag's target.
    if (from && sq && sq !== from && S.picked === from) { if (!chosen(sq)) draw(); }
    else if (from) draw();  // back to its square
  });
  $("board").addEventListener("pointercancel", () => { if (dragFrom) { dragFrom = null; draw(); } });
  $("board").addEventListener("keydown", boardKey);
  // The keyboard's focus square only for keyboard focus (:focus-visible):
  // a click focuses the board too, and left a square outlined on a1.
  $("board").addEventListener("focus", () => { if (!S.focus && S.view && $("board").matches(":focus-visible")) { const b = boardOf(S.game.name); S.focus = S.view.side === "black" && !S.flipped ? [0, b.ranks - 1] : [0, 0]; draw(); } });
  document.addEventListener("keydown", (e) => {
    if (e.target.closest("input, select, textarea, #board") || e.altKey || e.ctrlKey || e.metaKey) return;
    const to = { ArrowLeft: S.cursor - 1, ArrowRight: S.cursor + 1, Home: 0, End: S.game ? S.game.moves.length : 0 }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    goTo(to);
  });
  $("choice").addEventListener("click", (e) => { const m = e.target.getAttribute("data-m"); if (m) { $("choice").innerHTML = ""; play(m); } });
  $("legal").addEventListener("click", (e) => { const m = e.target.getAttribute("data-m"); if (m) play(m); });
  $("explorer").addEventListener("click", (e) => { const m = e.target.getAttribute("data-m"); if (m) play(m); });
  $("moves").addEventListener("click", (e) => {
    const i = e.target.getAttribute("data-i"), line = e.target.getAttribute("data-line");
    if (i !== null) goTo(Number(i) + 1);
    else if (line && S.mode !== "editing") { const l = line.split(","); show({ ...S.game, moves: lineThrough(S.tree, l, l.length) }, l.length, "browse"); }
  });
  // The variation shown becomes the main line where it branches off.
  $("promote").addEventListener("click", () => { if (promote(S.tree, S.game.moves, S.game.moves.length)) { keep(); render(); say("This line is now the main line."); } });
  // The move shown and all that follows it are deleted; the move before is shown.
  $("cutline").addEventListener("click", () => {
    if (!S.game || S.cursor === 0 || S.mode === "editing") return;
    // The line after the cut: the next of the move's siblings, if any, on
    // by its main continuation; the tree itself is cut once the server
    // has the new position (show, "cut").
    const n = S.cursor - 1, parent = nodeAt(S.tree, S.game.moves, n);
    const next = parent && parent.kids.find((k) => k.mv !== S.game.moves[n]);
    const moves = S.game.moves.slice(0, n).concat(next ? [next.mv, ...mainAfter(next)] : []);
    show({ ...S.game, resigned: null, timeout: null, moves }, n, "cut");
  });
  // A comment on the move shown, kept in the tree (an empty one removes it).
  const setComment = () => {
    const n = S.game && nodeAt(S.tree, S.game.moves, S.cursor);
    if (!n || S.mode === "editing") return;
    const text = $("commenttext").value.trim();
    if (text) n.comment = text; else delete n.comment;
    keep(); render();
    say(text ? "Comment kept." : "Comment removed.");
  };
  $("setcomment").addEventListener("click", setComment);
  $("commenttext").addEventListener("keydown", (e) => { if (e.key === "Enter") { e.preventDefault(); setComment(); } });
  initLines();
  initReview();
  initClock();
  $("retry").addEventListener("click", () => { const r = retryAction; say(""); if (r) r(); });
  // Another game or rule set ends the editing of this board's position
  // (its pieces and squares are not the new board's).
  $("game").addEventListener("change", (e) => { S.edit = null; show(newGame(e.target.value), 0, "new"); });
  $("rules").addEventListener("change", (e) => { S.edit = null; show(newGame(S.game.name, e.target.value), 0, "new"); });
  $("new").addEventListener("click", () => show(newGame(S.game.name, S.game.rules), 0, "new"));
  $("undo").addEventListener("click", undo);
  $("movenow").addEventListener("click", () => { if (S.mode === "thinking" && S.search) S.search.abort("now"); });
  $("resign").addEventListener("click", () => {
    if (!S.view || S.mode === "over" || $("engine").value === "none") return;
    stopAll();
    S.premove = null;
    // The game is resigned as it stands: a player reviewing an earlier
    // move keeps every move played (issue #51 found them cut off).
    S.game = { ...S.game, resigned: other($("engine").value) };
    keep(); render(); settle();
  });
  $("flip").addEventListener("click", () => { S.flipped = !S.flipped; draw(); });
  // The audio is made (or woken) on this click: browsers keep audio made
  // before any gesture of the player's silent.
  $("sound").addEventListener("click", () => {
    setSound(!S.sound);
    if (S.sound && window.AudioContext) { try { audio = audio || new AudioContext(); audio.resume(); } catch (_) { /* no audio */ } }
    if (S.view) keep();
  });
  // Side and level take effect at once: a search under way is restarted
  // or stopped.
  $("engine").addEventListener("change", () => {
    S.flipped = $("engine").value === "white";
    S.premove = null;
    $("resign").disabled = $("engine").value === "none";
    if (!S.view) return;
    keep();
    // The board turns at once, whatever the mode (over, reviewing too).
    draw();
    if (S.mode === "thinking" || S.mode === "idle" || S.mode === "analysing") { stopAll(); say(""); settle(); }
  });
  for (const id of ["level", "movetime"]) $(id).addEventListener("change", () => { if (S.view) keep(); if (S.mode === "thinking") think(); });
  $("setfen").addEventListener("click", () => show({ ...newGame(S.game.name, S.game.rules), start: $("fen").value.trim() }, 0, "fen"));
  $("copylink").addEventListener("click", async () => {
    try { await navigator.clipboard.writeText($("link").value); say("Link copied."); }
    catch (_) { $("link").select(); say("Copy the link from the box below."); }
  });
  $("analyse").addEventListener("click", () => {
    S.analysis = !S.analysis;
    $("analyse").setAttribute("aria-pressed", String(S.analysis));
    $("analyse").textContent = S.analysis ? "Stop analysis" : "Analyse";
    if (S.mode === "thinking") return;  // the engine's own search shows its lines
    if (S.search) { S.search.abort(); S.search = null; }
    S.gen++;
    clearOutput();
    if (S.mode === "idle" || S.mode === "analysing") setMode(S.analysis ? "analysing" : "idle");
    analyse();
  });
  // A new number of lines restarts the analysis running.
  $("multipv").addEventListener("change", () => {
    // (Not while a change is on its way: its answer would be dropped.)
    if (S.mode !== "analysing" || !S.analysis || S.pending) return;
    if (S.search) { S.search.abort(); S.search = null; }
    S.gen++;
    clearOutput();
    analyse();
  });
  $("probe").addEventListener("click", probe);
  $("prove").addEventListener("click", prove);
  $("save").addEventListener("click", save);
  $("load").addEventListener("change", async (e) => {
    const f = e.target.files[0]; if (!f) return;
    const text = await f.text();
    $("gametext").value = text;
    e.target.value = "";
    await loadText(text);
  });
  $("loadtext").addEventListener("click", () => loadText($("gametext").value));
  initEditor();
}

// The board from the keyboard: arrows move the focus square (as the board
// is seen), Enter or Space picks and drops, Escape lets go.
function boardKey(e) {
  if (!S.view) return;
  const b = boardOf(S.game.name);
  const step = { ArrowUp: [0, 1], ArrowDown: [0, -1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] }[e.key];
  if (!S.focus) S.focus = [0, 0];
  if (step) {
    e.preventDefault();
    const k = S.flipped ? -1 : 1;
    S.focus = [Math.max(0, Math.min(b.files - 1, S.focus[0] + step[0] * k)), Math.max(0, Math.min(b.ranks - 1, S.focus[1] + step[1] * k))];
    draw();
  } else if (e.key === "Enter" || e.key === " ") {
    e.preventDefault();
    const s = squareAtFR(S.game.name, S.focus[0], S.focus[1]);
    if (s && s.id) chosen(s.id); else say("Not a square pieces stand on.");
  } else if (e.key === "Escape") { S.picked = null; draw(); }
}

// ---- Tables, prove, save, load ----

// A probe or a proof for the position shown: a new one, or a new
// position, aborts it (a proof's slot is freed on the server).
function tool() {
  if (S.tool) S.tool.abort();
  S.tool = new AbortController();
  return S.tool.signal;
}
async function probe() {
  if (!S.view) return;
  const gen = S.gen;
  $("explorer").textContent = "Reading the tables…";
  try {
    const p = await api("/api/probe", positionOf(S.game, S.cursor), tool());
    if (gen !== S.gen) return;
    const val = (v, d) => (v === "draw" ? "draw" : `${v} in ${d}`);
    $("explorer").innerHTML = `<p>Tables: the side to move (${S.view.side}) has a ${val(p.value, p.distance)}.</p><ul>` +
      p.moves.map((m) => `<li><button class="mv" data-m="${m.coord}">${m.short}</button>: a ${val(m.value, m.distance)} for ${S.view.side}</li>`).join("") + "</ul>";
  } catch (e) { if (gen === S.gen && e.name !== "AbortError") $("explorer").textContent = `Tables: ${e.message}.`; }
}
async function prove() {
  if (!S.view) return;
  const gen = S.gen, ms = Number($("provetime").value);
  $("explorer").textContent = `Proving (up to ${ms / 1000} s)…`;
  try {
    const r = await api("/api/prove", { ...positionOf(S.game, S.cursor), movetime_ms: ms }, tool());
    if (gen !== S.gen) return;
    const what = r.verdict === "unknown" ? `nothing proven: the value for ${r.side} to move is unknown within the time` : `proven: a ${r.verdict} for ${r.side}, the side to move`;
    $("explorer").textContent = `Proof: ${what}; ${r.nodes} nodes in ${r.seconds.toFixed(2)} s` + (r.tables ? ", with the tables as leaves." : ".");
  } catch (e) { if (gen === S.gen && e.name !== "AbortError") $("explorer").textContent = `Proof: ${e.message}.`; }
}
// Save and load: the server writes and reads the text (PDN for checkers,
// the move list for the animal games); the page offers it as a file and
// shows it in the text box.
async function save() {
  try {
    // The whole tree: its main line, comments and variations.
    const r = await api("/api/game/save", { ...positionOf(S.game, 0), comment: S.tree.comment || null, tree: plyLine(S.tree) });
    $("gametext").value = r.text;
    const a = document.createElement("a");
    a.href = URL.createObjectURL(new Blob([r.text], { type: "text/plain" }));
    a.download = r.filename; a.click();
    say("Saved as " + r.format + ".");
  } catch (e) { say(`Not saved: ${e.message}.`, save); }
}
async function loadText(text) {
  try {
    const r = await api("/api/game/load", { game: S.game.name, text });
    const tree = node(null);
    if (r.comment) tree.comment = r.comment;
    growPlies(tree, r.tree);
    await show({ name: r.game, rules: r.rules, start: r.start, moves: r.moves, names: [], tree }, r.moves.length, "load");
  } catch (e) { say(`Not loaded: ${e.message}.`); }
}

ui();
load();
