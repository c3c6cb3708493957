// The boards of the web page, drawn in SVG (docs/web.md): the animal
// games' 7-file boards with their terrain, and the 8×8 checkers board with
// its 32 numbered dark squares. Each game is described here as data (where
// its squares are, what a FEN puts on them, where a move starts and ends);
// the drawing and the clicks are the same code for all four games.
"use strict";

// Board geometry and terrain of the animal games (docs/rules/jungle.md,
// docs/rules/jungle-checkers.md): files a-g, rank 1 at White's side.
const ANIMAL = {
  "jungle": { files: 7, ranks: 9, water: ["b4","c4","e4","f4","b5","c5","e5","f5","b6","c6","e6","f6"], traps: ["c1","e1","d2","c9","e9","d8"], dens: ["d1","d9"] },
  "jungle-checkers": { files: 7, ranks: 7, water: [], traps: [], dens: ["d1","d7"] },  // no traps (docs/rules/jungle-checkers.md)
};
const ANIMAL_NAMES = { R: "rat 1", C: "cat 2", W: "wolf 3", D: "dog 4", P: "panther 5", T: "tiger 6", L: "lion 7", E: "elephant 8" };

// The checkers games' numbering (docs/checkers.md, "Board and numbering"):
// the file and rank (from 0, rank 0 at White's side) of square n, 1-32.
// Classical: 1 = h1, 4 = b1, 32 = a8 (White on 1-12). English: 1 = b8,
// 4 = h8, 29 = a1, 32 = g1 (Black on 1-12).
const CHECKERS = {
  "classical-checkers": (n) => { const s = n - 1, row = Math.floor(s / 4), j = s % 4; return [row % 2 === 0 ? 7 - 2 * j : 6 - 2 * j, row]; },
  "english-checkers": (n) => { const s = n - 1, row = Math.floor(s / 4), j = s % 4; return [row % 2 === 0 ? 1 + 2 * j : 2 * j, 7 - row]; },
};

function squareName(f, r) { return String.fromCharCode(97 + f) + (r + 1); }

// What a board needs to know of a game: its size, its squares (an id the
// moves use, a file, a rank, a class for the colour), the pieces of a FEN
// and the two ends of a move.
function boardOf(game) {
  if (ANIMAL[game]) {
    const geo = ANIMAL[game], squares = [];
    for (let f = 0; f < geo.files; f++) for (let r = 0; r < geo.ranks; r++) {
      const id = squareName(f, r);
      const kind = geo.dens.includes(id) ? "den" : geo.traps.includes(id) ? "trap" : geo.water.includes(id) ? "water" : "land";
      squares.push({ id, f, r, kind });
    }
    return { family: "animal", files: geo.files, ranks: geo.ranks, squares, pieces: animalPieces, ends: (c) => [c.slice(0, 2), c.slice(2, 4)] };
  }
  const place = CHECKERS[game];
  if (!place) return null;
  const squares = [], dark = new Set();
  for (let n = 1; n <= 32; n++) { const [f, r] = place(n); dark.add(f + "," + r); squares.push({ id: String(n), f, r, kind: "dark", number: n }); }
  for (let f = 0; f < 8; f++) for (let r = 0; r < 8; r++) if (!dark.has(f + "," + r)) squares.push({ id: null, f, r, kind: "light" });
  return { family: "checkers", files: 8, ranks: 8, squares, pieces: checkersPieces, ends: checkersEnds };
}

// Animal FEN: ranks from the top, digits for empty squares; upper case
// White.
function animalPieces(fen) {
  const out = {};
  const rows = fen.split(" ")[0].split("/");
  rows.forEach((row, i) => {
    const r = rows.length - 1 - i;
    let f = 0;
    for (const c of row) {
      if (/[0-9]/.test(c)) { f += Number(c); continue; }
      const white = c === c.toUpperCase(), name = ANIMAL_NAMES[c.toUpperCase()] || c;
      out[squareName(f, r)] = { white, king: false, label: c.toUpperCase() + (name.split(" ")[1] || ""), title: (white ? "White " : "Black ") + name };
      f += 1;
    }
  });
  return out;
}

// PDN FEN: `W:W1,2,K14:B21,22` (side to move, then each side's squares,
// `K` before a king; ranges `1-12` as the reader takes them).
function checkersPieces(fen) {
  const out = {};
  for (const part of fen.trim().replace(/\.$/, "").split(":").slice(1)) {
    const colour = part.trim()[0];
    if (colour !== "W" && colour !== "B" && colour !== "w" && colour !== "b") continue;
    const white = colour.toUpperCase() === "W";
    for (let item of part.trim().slice(1).split(",")) {
      item = item.trim();
      if (!item) continue;
      const king = /^k/i.test(item);
      const [a, b] = item.replace(/^k/i, "").split("-").map(Number);
      for (let n = a; n <= (b || a); n++) out[String(n)] = { white, king, label: "", title: (white ? "White " : "Black ") + (king ? "king" : "man") + " on " + n };
    }
  }
  return out;
}

// `11-15`, `30x17x3`: the first and the last square.
function checkersEnds(coord) { const p = coord.split(/[-x:]/); return [p[0], p[p.length - 1]]; }

// The board of `view` (a position from the server) for `game`: `picked`
// is the square chosen to move from, `flipped` turns the board.
function drawBoard(svg, game, view, picked, flipped) {
  const b = boardOf(game);
  if (!b || !view) { svg.innerHTML = ""; return; }
  const { files, ranks } = b;
  svg.setAttribute("viewBox", `-0.6 -0.1 ${files + 0.7} ${ranks + 0.7}`);
  const xy = (f, r) => flipped ? [files - 1 - f, r] : [f, ranks - 1 - r];
  const byId = {};
  for (const s of b.squares) if (s.id) byId[s.id] = s;
  const at = (id) => { const s = byId[id]; return xy(s.f, s.r); };
  const from = new Set(view.legal.map((m) => b.ends(m.coord)[0]));
  let html = "";
  for (const s of b.squares) {
    const [x, y] = xy(s.f, s.r);
    html += `<rect class="sq ${s.kind}"${s.id ? ` data-sq="${s.id}"` : ""} x="${x}" y="${y}" width="1" height="1"/>`;
    if (s.number) html += `<text class="num" x="${x + 0.06}" y="${y + 0.22}">${s.number}</text>`;
  }
  for (let f = 0; f < files; f++) { const [x] = xy(f, 0); html += `<text class="coord" x="${x + 0.45}" y="${ranks + 0.4}">${String.fromCharCode(97 + f)}</text>`; }
  for (let r = 0; r < ranks; r++) { const [, y] = xy(0, r); html += `<text class="coord" x="-0.45" y="${y + 0.6}">${r + 1}</text>`; }
  if (view.status.state === "playing") {
    for (const id of from) { if (!byId[id]) continue; const [x, y] = at(id); html += `<rect class="movable" x="${x + 0.03}" y="${y + 0.03}" width="0.94" height="0.94"/>`; }
  }
  if (picked && byId[picked]) {
    const [x, y] = at(picked);
    html += `<rect class="picked" x="${x}" y="${y}" width="1" height="1"/>`;
    for (const m of view.legal) {
      const [f, t] = b.ends(m.coord);
      if (f !== picked || !byId[t]) continue;
      const [tx, ty] = at(t);
      html += `<circle class="target" data-target="${t}" cx="${tx + 0.5}" cy="${ty + 0.5}" r="0.18"/>`;
    }
  }
  for (const [id, p] of Object.entries(b.pieces(view.fen))) {
    if (!byId[id]) continue;
    const [x, y] = at(id), cx = x + 0.5, cy = y + 0.5;
    html += `<g class="piece ${p.white ? "white" : "black"}${p.king ? " king" : ""}" data-sq="${id}"><title>${p.title}</title><circle cx="${cx}" cy="${cy}" r="0.42"/>`;
    if (p.king) {
      // A king: a second ring and a crown.
      html += `<circle class="ring" cx="${cx}" cy="${cy}" r="0.3"/>`;
      html += `<path class="crown" d="M${cx - 0.17} ${cy + 0.1} L${cx - 0.2} ${cy - 0.1} L${cx - 0.08} ${cy - 0.01} L${cx} ${cy - 0.15} L${cx + 0.08} ${cy - 0.01} L${cx + 0.2} ${cy - 0.1} L${cx + 0.17} ${cy + 0.1} Z"/>`;
    }
    if (p.label) html += `<text x="${cx}" y="${cy}">${p.label}</text>`;
    html += `</g>`;
  }
  svg.innerHTML = html;
}
