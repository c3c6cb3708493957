// Clocks (docs/web.md, "Clocks"): a time control for both sides, the
// player's and the engine's clock running on their turn at the end of the
// game (paused while an earlier move is shown, in the editor and once the
// game is over; kept by a reload), the increment added after each move; the engine is given
// its clock and increment and spends them by the rule of `go wtime`; a
// flag fall ends the game. Uses app.js's state and helpers.
"use strict";

// Minutes and seconds of increment.
const CONTROLS = { "1+1": [1, 1], "3+2": [3, 2], "10+5": [10, 5] };
// Under this many ms left a clock is shown as low and said once.
const LOW_MS = 10000;

// A fresh clock of the control chosen (none: time per move), or the one
// a reload kept (`kept`, from storage: its control must be the one
// chosen; the time the page was closed is not counted).
function startClock(kept) {
  const control = $("clock").value, c = CONTROLS[control];
  const ok = c && kept && kept.control === control && [kept.white, kept.black].every((x) => Number.isFinite(x) && x >= 0);
  const full = c ? c[0] * 60000 : 0;
  S.clock = c ? { inc: c[1] * 1000, white: ok ? kept.white : full, black: ok ? kept.black : full, last: performance.now(), low: {} } : null;
  // A low clock kept is not announced again.
  if (S.clock) for (const s of ["white", "black"]) S.clock.low[s] = S.clock[s] < LOW_MS;
  drawClock();
}
// What storage keeps of the clocks (keep, in app.js).
function keptClock() {
  return S.clock ? { control: $("clock").value, white: Math.round(S.clock.white), black: Math.round(S.clock.black) } : null;
}

// The side whose clock runs now, if any.
function running() {
  if (!S.clock || !S.view || !S.game || S.game.resigned || S.game.timeout) return null;
  if (S.view.status.state !== "playing" || S.cursor !== S.game.moves.length) return null;
  return ["idle", "thinking", "analysing"].includes(S.mode) ? S.view.side : null;
}

function tickClock() {
  const c = S.clock;
  if (!c) return;
  const now = performance.now(), side = running();
  if (side) {
    c[side] = Math.max(0, c[side] - (now - c.last));
    if (c[side] < LOW_MS && !c.low[side]) { c.low[side] = true; announce(`${cap(side)} has ${Math.ceil(c[side] / 1000)} seconds left.`); }
    if (c[side] === 0) flagFall(side);
  }
  c.last = now;
  drawClock();
}

// After a move at the end of the game: the mover's increment.
function clockMoved(mover) {
  if (!S.clock) return;
  tickClock();
  S.clock[mover] += S.clock.inc;
  drawClock();
}

function flagFall(side) {
  stopAll();
  S.game = { ...S.game, timeout: side };
  keep();
  render();
  settle();
}

// What the engine is given: its clock and increment, or the time per move.
function clockLimits(side) {
  return S.clock ? { clock_ms: Math.round(S.clock[side]), inc_ms: S.clock.inc } : null;
}

function clockText(ms) {
  const s = Math.ceil(ms / 1000);
  return ms < LOW_MS ? (ms / 1000).toFixed(1) : `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}
function drawClock() {
  const box = $("clocks");
  box.hidden = !S.clock;
  if (!S.clock) return;
  const side = running();
  for (const s of ["white", "black"]) {
    const el = $("clock-" + s), ms = S.clock[s];
    el.textContent = `${cap(s)} ${clockText(ms)}`;
    el.setAttribute("aria-label", `${cap(s)}'s clock: ${clockText(ms)}${side === s ? ", running" : ""}`);
    el.classList.toggle("running", side === s);
    el.classList.toggle("low", ms < LOW_MS);
  }
}

function initClock() {
  $("clock").addEventListener("change", () => { startClock(); keep(); });
  setInterval(tickClock, 100);
  // Leaving the page (a reload, a closed tab) keeps the clocks as they
  // stand; moves keep them too.
  addEventListener("pagehide", () => { if (S.clock && S.game) { tickClock(); keep(); } });
}
