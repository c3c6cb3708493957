// The position editor (docs/web.md, "Position editor"): the board's
// pieces placed and removed by hand, the side to move chosen, and the
// position sent to the server, which checks it (its message is shown when
// it refuses). A piece is chosen from the list (`#palette`, for the
// keyboard and screen readers) or from the row of pieces under the board
// while editing (`#palettepieces`), which also drags: a piece pressed
// there follows the pointer or finger and is placed on the square it is
// let go over. Uses app.js's state and helpers.
"use strict";

function startEdit() {
  if (!S.view) return;
  stopAll();
  const b = boardOf(S.game.name);
  S.edit = b.pieces(S.view.fen);
  $("palette").innerHTML = `<option value="">remove a piece</option>` + b.kinds.map((k) => `<option value="${k}">${pieceName(pieceOf(k))}</option>`).join("");
  $("editside").value = S.view.side;
  drawPalette();
  setMode("editing");
  say("Editing: choose a piece, then click squares to place it (the same piece again removes it), or drag it from the row of pieces onto the board.");
}

// The row of pieces: one button a kind, and one that removes; the chosen
// one pressed (the list's choice).
function drawPalette() {
  const box = $("palettepieces");
  if (!S.edit) { box.replaceChildren(); return; }
  const b = boardOf(S.game.name), kinds = [""].concat(b.kinds), chosen = $("palette").value;
  box.innerHTML = kinds.map((k) => {
    const name = k ? pieceName(pieceOf(k)) : "Remove a piece";
    const shape = k ? `<g class="${pieceClass(pieceOf(k))}">${pieceShape(pieceOf(k))}</g>` : `<path class="eraser" d="M0.25 0.25 L0.75 0.75 M0.75 0.25 L0.25 0.75"/>`;
    return `<button type="button" data-k="${k}" aria-pressed="${k === chosen}" aria-label="${name}" title="${name}"><svg viewBox="0 0 1 1" aria-hidden="true">${shape}</svg></button>`;
  }).join("");
}

// A square clicked while editing: the chosen piece placed, or taken off.
function editAt(sq) {
  const k = $("palette").value, cur = S.edit[sq];
  if (!k || (cur && cur.code === k)) delete S.edit[sq]; else S.edit[sq] = pieceOf(k);
  draw();
}
// A piece dropped on a square from the row: placed there whatever stood
// on it (a drop is never a removal, unless it is the eraser's).
function dropAt(sq, k) {
  if (!S.edit) return;
  if (k) S.edit[sq] = pieceOf(k); else delete S.edit[sq];
  draw();
  say(k ? `${pieceName(pieceOf(k))} placed on ${sq}.` : `${sq} emptied.`);
}

async function endEdit() {
  const fen = boardOf(S.game.name).fen(S.edit, $("editside").value);
  const pieces = S.edit;
  S.edit = null;
  drawPalette();
  if (!(await show({ ...newGame(S.game.name, S.game.rules), start: fen }, 0, "fen"))) {
    S.edit = pieces;
    drawPalette();
    setMode("editing");
    say(`The server refused this position: ${$("messagetext").textContent.replace(/^Nothing changed: /, "")}`);
  }
}

// The drag from the row: a copy of the piece follows the pointer (fixed
// on the page, under it, letting events through); let go over one of the
// board's squares, the piece is placed there; anywhere else, nothing.
function initPaletteDrag() {
  const box = $("palettepieces");
  let drag = null;
  const choose = (k) => { $("palette").value = k; drawPalette(); };
  box.addEventListener("pointerdown", (e) => {
    const btn = e.target.closest("button[data-k]");
    if (!btn || !S.edit) return;
    e.preventDefault();
    choose(btn.dataset.k);
    const ghost = btn.querySelector("svg").cloneNode(true);
    ghost.classList.add("ghost");
    document.body.append(ghost);
    drag = { k: btn.dataset.k, ghost, id: e.pointerId };
    follow(e);
    try { box.setPointerCapture(e.pointerId); } catch (_) { /* not capturable: the move events still come while over the row */ }
  });
  const follow = (e) => {
    const size = $("board").getBoundingClientRect().width / boardOf(S.game.name).files;
    Object.assign(drag.ghost.style, { width: size + "px", height: size + "px", left: e.clientX - size / 2 + "px", top: e.clientY - size / 2 + "px" });
  };
  box.addEventListener("pointermove", (e) => { if (drag && e.pointerId === drag.id) follow(e); });
  const end = (e, dropped) => {
    if (!drag || e.pointerId !== drag.id) return;
    const { k, ghost } = drag;
    drag = null;
    ghost.remove();
    const sq = dropped ? squareAt(e.clientX, e.clientY) : null;
    if (sq) dropAt(sq, k);
  };
  box.addEventListener("pointerup", (e) => end(e, true));
  box.addEventListener("pointercancel", (e) => end(e, false));
  // The capture lost without a pointerup here (the window left, a
  // system gesture): the drag ends, nothing placed.
  box.addEventListener("lostpointercapture", (e) => end(e, false));
  // A click (or Enter, Space) on a piece of the row only chooses it.
  box.addEventListener("click", (e) => { const btn = e.target.closest("button[data-k]"); if (btn && S.edit) choose(btn.dataset.k); });
  $("palette").addEventListener("change", drawPalette);
}

function initEditor() {
  $("edit").addEventListener("click", startEdit);
  $("editcancel").addEventListener("click", () => { S.edit = null; drawPalette(); settle(); say("Editing cancelled."); });
  $("editdone").addEventListener("click", endEdit);
  $("editclear").addEventListener("click", () => { if (S.edit) { S.edit = {}; draw(); say("Board cleared: place the pieces."); } });
  // The start of the game under the rules in force, as the server gives it.
  $("editstart").addEventListener("click", async () => {
    if (!S.edit) return;
    try {
      const v = await api("/api/position", { game: S.game.name, rules: S.game.rules });
      if (!S.edit) return;
      S.edit = boardOf(S.game.name).pieces(v.fen);
      $("editside").value = v.side;
      draw();
      say("The start position: change it, or use it.");
    } catch (e) { say(`The start position could not be had: ${e.message}.`); }
  });
  initPaletteDrag();
}
