// The analysis's lines (one, or several by multi-PV; docs/web.md,
// "Several lines"), as lichess has them: each move of a line is a
// button. Pointing at one, or focusing it from the keyboard, previews the
// position it leads to on a small board under the list, marked as a
// preview (not played); Escape, or leaving the list, closes it. A click
// (or Enter) plays the line up to that move into the game's tree: a new
// line there is a variation, the old one is kept (tree.js), and ← or the
// move list goes back. Uses app.js's state.
"use strict";

let previewAsk = 0;  // the latest preview asked; older answers are dropped

// An iteration's lines, best first, each with its score. Not while the
// player is on them (the pointer over the list, or a move focused): a
// list redrawn under the pointer or the focus would lose both.
function drawLines(it) {
  if ($("analysis").querySelector("#lines:hover, #lines :focus")) return;
  const list = document.createElement("ol");
  list.id = "lines";
  list.setAttribute("aria-label", `Best lines at depth ${it.depth} (a move previews its position; Enter plays the line to it)`);
  for (const l of it.lines) {
    const li = document.createElement("li");
    li.append(`${scoreText(l)[0]}  `);
    l.pv.forEach((mv, k) => {
      const b = document.createElement("button");
      b.className = "mv";
      b.dataset.pv = l.pv.slice(0, k + 1).join(",");
      b.textContent = l.pv_short[k] || mv;
      li.append(b, " ");
    });
    list.append(li);
  }
  $("analysis").replaceChildren(`depth ${it.depth}, ${it.lines.length === 1 ? "the best line" : it.lines.length + " lines"}`, list);
}

// The moves from the position shown to the end of a line's move `b`.
function lineMoves(b) { return S.game.moves.slice(0, S.cursor).concat(b.dataset.pv.split(",")); }

async function preview(b) {
  const ask = ++previewAsk, game = S.game, moves = lineMoves(b);
  const names = [...b.parentNode.querySelectorAll("button")].slice(0, b.dataset.pv.split(",").length).map((x) => x.textContent);
  try {
    const v = await api("/api/position", positionOf({ ...game, moves }, moves.length));
    if (ask !== previewAsk || game !== S.game) return;
    drawBoard($("previewboard"), game.name, { view: v, flipped: S.flipped, last: boardOf(game.name).path(moves[moves.length - 1]) });
    $("previewtext").textContent = `Preview, not played: the position after ${names.join(" ")}. Escape closes it; a click or Enter plays the line to here.`;
    $("preview").hidden = false;
  } catch (_) { /* no preview: the line can still be played */ }
}
function closePreview() { previewAsk++; $("preview").hidden = true; }

// A move of a line chosen: the line to it becomes the line shown (on by
// the tree's own continuation, if it has the line already).
async function playLine(b) {
  if (S.pending || S.mode === "thinking" || S.mode === "editing" || !S.view) return;
  closePreview();
  const moves = lineMoves(b), at = nodeAt(S.tree, moves, moves.length), names = b.textContent;
  const fresh = !at;
  if (await show({ ...S.game, resigned: null, timeout: null, moves: at ? moves.concat(mainAfter(at)) : moves }, moves.length, "line")) {
    say(`${fresh ? "The engine's line is played into the game as a variation" : "The engine's line is the game's"}, to ${names}: ← or the move list goes back.`);
    // The button pressed is gone with the old lines: the focus goes to
    // the move shown.
    const cur = $("moves").querySelector("[aria-current]");
    if (cur) cur.focus();
  }
}

function initLines() {
  const box = $("analysis"), on = (e) => e.target.closest && e.target.closest("#lines button[data-pv]");
  box.addEventListener("click", (e) => { const b = on(e); if (b) playLine(b); });
  box.addEventListener("mouseover", (e) => { const b = on(e); if (b) preview(b); });
  box.addEventListener("focusin", (e) => { const b = on(e); if (b) preview(b); });
  box.addEventListener("mouseleave", closePreview);
  box.addEventListener("focusout", (e) => { if (!box.contains(e.relatedTarget)) closePreview(); });
  document.addEventListener("keydown", (e) => { if (e.key === "Escape" && !$("preview").hidden) closePreview(); });
}
