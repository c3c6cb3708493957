// Game review (docs/web.md, "Game review"): the engine over every position
// of the game, and the tables where they cover one, with a progress bar;
// an evaluation graph under the board where a click goes to the move; each
// move marked as an inaccuracy, a mistake or a blunder by how much it
// lowered the mover's share of the bar, or exactly by the tables where
// they cover both positions. Uses app.js's state and helpers.
"use strict";

// Milliseconds of search per position.
const REVIEW_MS = 150;
// A move that lowers its mover's share of the bar (50 + 50·tanh(score/400),
// as lichess measures a win chance) by this many points of 100 or more.
const MARKS = [[30, "blunder", "??"], [20, "mistake", "?"], [10, "inaccuracy", "?!"]];
const RANK = { loss: 0, draw: 1, win: 2 };
const flip = (v) => (v === "win" ? "loss" : v === "loss" ? "win" : v);

// What identifies the game reviewed: a review of another game is not shown.
function gameKey(g) { return g ? [g.name, g.rules, g.start || "", g.moves.join(",")].join("|") : ""; }

async function reviewGame() {
  if (!S.game || !S.game.moves.length) { say("Play or load a game to review it."); return; }
  if (S.review && S.review.ctl) S.review.ctl.abort();
  const game = { ...S.game }, key = gameKey(game), n = game.moves.length, ctl = new AbortController();
  // Filled here; shown only while it is still the page's review.
  const rev = { key, ctl, shares: [], values: [], sides: [], marks: {} };
  S.review = rev;
  const bar = $("reviewprogress");
  bar.max = n + 1; bar.value = 0; bar.hidden = false;
  $("reviewgame").disabled = true;
  $("reviewtext").textContent = `Reviewing ${n} moves…`;
  try {
    for (let i = 0; i <= n; i++) {
      const pos = positionOf(game, i);
      const view = await withRetry("reviewing", ctl.signal, () => api("/api/position", pos, ctl.signal));
      rev.sides[i] = view.side;
      if (view.status.state !== "playing") {
        // A finished game: the winner has all of the bar.
        rev.shares[i] = view.winner ? (view.winner === "white" ? 100 : 0) : 50;
        rev.values[i] = view.winner ? (view.winner === view.side ? "win" : "loss") : "draw";
      } else {
        const r = await withRetry("reviewing", ctl.signal, () => api("/api/analyse", { ...pos, movetime_ms: REVIEW_MS }, ctl.signal));
        rev.shares[i] = scoreText(r, view.side)[1];
        // The tables' exact value where they cover the position.
        rev.values[i] = await api("/api/probe", pos, ctl.signal).then((p) => p.value, () => null);
      }
      if (ctl.signal.aborted) return;
      bar.value = i + 1;
      if (S.review === rev) drawReview();
    }
  } catch (e) {
    if (e.name === "AbortError" || S.review !== rev) return;
    $("reviewtext").textContent = `The review stopped: ${e.message}.`;
    bar.hidden = true; $("reviewgame").disabled = false;
    return;
  }
  // Each move i (from position i to i + 1) against what its mover had.
  const marks = {}, listed = [];
  for (let i = 0; i < n; i++) {
    const mover = rev.sides[i], before = rev.values[i], after = rev.values[i + 1];
    let mark = null;
    if (before && after) {
      // The tables decide exactly: a move that gives away a win or a draw.
      if (RANK[flip(after)] < RANK[before]) mark = ["blunder", "??", `the tables: ${before} to ${flip(after)}`];
    } else {
      const sign = mover === "white" ? 1 : -1;
      const drop = sign * (rev.shares[i] - rev.shares[i + 1]);
      const m = MARKS.find(([t]) => drop >= t);
      if (m) mark = [m[1], m[2], `${Math.round(drop)} points of the bar`];
    }
    if (mark) { marks[i] = mark[1]; listed.push({ i, mover, kind: mark[0], why: mark[2] }); }
  }
  if (S.review !== rev) return;
  rev.marks = marks;
  rev.listed = listed;
  rev.ctl = null;
  bar.hidden = true;
  $("reviewgame").disabled = false;
  const count = (k) => listed.filter((x) => x.kind === k).length;
  $("reviewtext").textContent = `Reviewed: ${count("blunder")} blunders, ${count("mistake")} mistakes, ${count("inaccuracy")} inaccuracies.`;
  announce($("reviewtext").textContent);
  drawReview();
  render();
}

// The graph (White's share over the moves, 50 the middle line) and the
// list of marked moves, each a button to its position.
function drawReview() {
  const svg = $("reviewgraph"), list = $("reviewlist");
  const r = S.review;
  if (!r || r.key !== gameKey(S.game)) {
    // Another game (a move played, a new game): its review is dropped.
    if (r && r.ctl) r.ctl.abort();
    S.review = null;
    $("reviewprogress").hidden = true;
    $("reviewgame").disabled = false;
    $("reviewtext").textContent = "";
    // (An SVG element has no `hidden` property: the attribute itself.)
    svg.innerHTML = ""; svg.setAttribute("hidden", ""); list.innerHTML = "";
    return;
  }
  const n = S.game.moves.length, w = 100, h = 30, x = (i) => (n ? (i * w) / n : 0), y = (s) => h - (s * h) / 100;
  const pts = r.shares.map((s, i) => `${x(i).toFixed(2)},${y(s).toFixed(2)}`).join(" ");
  let html = `<rect x="0" y="0" width="${w}" height="${h}" class="rg-bg"/><line x1="0" x2="${w}" y1="${h / 2}" y2="${h / 2}" class="rg-mid"/>`;
  html += `<polygon points="0,${h} ${pts} ${x(r.shares.length - 1).toFixed(2)},${h}" class="rg-fill"/><polyline points="${pts}" class="rg-line"/>`;
  html += `<line x1="${x(S.cursor)}" x2="${x(S.cursor)}" y1="0" y2="${h}" class="rg-cursor"/>`;
  r.shares.forEach((s, i) => {
    const mark = i > 0 && r.marks[i - 1];
    html += `<circle cx="${x(i).toFixed(2)}" cy="${y(s).toFixed(2)}" r="${mark ? 1.4 : 0.9}" data-at="${i}" class="rg-pt${mark ? " rg-" + mark.replace(/\?/g, "q").replace(/!/g, "x") : ""}"><title>move ${i}</title></circle>`;
  });
  svg.innerHTML = html;
  svg.removeAttribute("hidden");
  // Numbered as the move list numbers them: from a position where the
  // second mover moves, its first move is "1. …".
  const shift = r.sides[0] && r.sides[0] !== (FIRST[S.game.name] || "white") ? 1 : 0;
  const number = (i) => `${Math.floor((i + shift) / 2) + 1}.${(i + shift) % 2 ? " …" : ""}`;
  list.innerHTML = (r.listed || []).map((m) => `<li><button class="mv" data-at="${m.i + 1}">${number(m.i)} ${S.game.names[m.i]}${r.marks[m.i]}</button> ${cap(m.mover)}: ${m.kind} (${m.why})</li>`).join("");
}

// The mark of move i in the move list, when the game shown was reviewed.
function reviewMark(i) {
  return S.review && S.review.key === gameKey(S.game) && S.review.marks[i] ? S.review.marks[i] : "";
}

function initReview() {
  $("reviewgame").addEventListener("click", reviewGame);
  $("reviewlist").addEventListener("click", (e) => { const at = e.target.closest("[data-at]"); if (at) goTo(Number(at.getAttribute("data-at"))); });
  // A click on the graph goes to the position nearest it (the points are
  // too small a target to be the only one).
  $("reviewgraph").addEventListener("click", (e) => {
    if (!S.game) return;
    const box = $("reviewgraph").getBoundingClientRect(), n = S.game.moves.length;
    goTo(Math.round(((e.clientX - box.left) / box.width) * n));
  });
}
