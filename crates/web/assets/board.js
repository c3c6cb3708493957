// The boards of the web page, drawn in SVG (docs/web.md): the animal
// games' 7-file boards with their terrain, and the 8×8 checkers board with
// its 32 numbered dark squares. Each game is described here as data (where
// its squares are, what a FEN puts on them, where a move starts and ends);
// the drawing, the names read out and the clicks are the same code for all
// four games.
"use strict";

// Board geometry and terrain of the animal games (docs/rules/jungle.md,
// docs/rules/jungle-checkers.md): files a-g, rank 1 at White's side.
const ANIMAL = {
  "jungle": { files: 7, ranks: 9, water: ["b4","c4","e4","f4","b5","c5","e5","f5","b6","c6","e6","f6"], traps: ["c1","e1","d2","c9","e9","d8"], dens: ["d1","d9"] },
  "jungle-checkers": { files: 7, ranks: 7, water: [], traps: [], dens: ["d1","d7"], animals: "RDTE" },  // no traps (docs/rules/jungle-checkers.md)
};
const ANIMALS = { R: "rat", C: "cat", W: "wolf", D: "dog", P: "panther", T: "tiger", L: "lion", E: "elephant" };
// The strengths depend on the rule set (the dog and the wolf swap under
// `common`): the page takes them from the server's answer for the
// position shown (`strengths`), never from a table of its own.
let STRENGTHS = {};
function useStrengths(map) { STRENGTHS = map || {}; }
function animalPiece(c) {
  const up = c.toUpperCase(), name = ANIMALS[up] || c, strength = STRENGTHS[up] || "";
  return { code: c, white: c === up, king: false, animal: name, strength, name: strength ? `${name} ${strength}` : name };
}

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
// moves use, a file, a rank, a kind for the colour), the pieces of a FEN,
// the squares a move passes and a FEN written back from pieces.
function boardOf(game) {
  if (ANIMAL[game]) {
    const geo = ANIMAL[game], squares = [];
    for (let f = 0; f < geo.files; f++) for (let r = 0; r < geo.ranks; r++) {
      const id = squareName(f, r);
      const kind = geo.dens.includes(id) ? "den" : geo.traps.includes(id) ? "trap" : geo.water.includes(id) ? "water" : "land";
      squares.push({ id, f, r, kind, name: id });
    }
    return { family: "animal", files: geo.files, ranks: geo.ranks, squares, pieces: animalPieces, path: (c) => [c.slice(0, 2), c.slice(2, 4)],
      fen: (p, side) => animalFen(geo, p, side), kinds: [...(geo.animals || Object.keys(ANIMALS).join(""))].flatMap((k) => [k, k.toLowerCase()]) };
  }
  const place = CHECKERS[game];
  if (!place) return null;
  const squares = [], dark = new Set();
  for (let n = 1; n <= 32; n++) { const [f, r] = place(n); dark.add(f + "," + r); squares.push({ id: String(n), f, r, kind: "dark", number: n, name: `${n} (${squareName(f, r)})` }); }
  for (let f = 0; f < 8; f++) for (let r = 0; r < 8; r++) if (!dark.has(f + "," + r)) squares.push({ id: null, f, r, kind: "light", name: squareName(f, r) });
  return { family: "checkers", files: 8, ranks: 8, squares, pieces: checkersPieces, path: (c) => c.split(/[-x:]/),
    fen: checkersFen, kinds: ["W", "WK", "B", "BK"] };
}

// A piece's drawing in a unit square (the board's, and the editor's
// palette's), and its classes.
function pieceClass(p) { return `piece ${p.white ? "white" : "black"}${p.king ? " king" : ""}`; }
function pieceShape(p) {
  if (p.animal) return `<image href="/pieces/${p.white ? "white" : "black"}-${p.animal}.svg" x="0.05" y="0.05" width="0.9" height="0.9"/>`;
  // A king: a second ring and a crown.
  return `<circle cx="0.5" cy="0.5" r="0.4"/>` + (p.king ? `<circle class="ring" cx="0.5" cy="0.5" r="0.29"/><path class="crown" d="M0.33 0.6 L0.3 0.4 L0.42 0.49 L0.5 0.35 L0.58 0.49 L0.7 0.4 L0.67 0.6 Z"/>` : "");
}

function pieceName(p) { return (p.white ? "White " : "Black ") + p.name; }

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
      out[squareName(f, r)] = animalPiece(c);
      f += 1;
    }
  });
  return out;
}
function animalFen(geo, pieces, side) {
  const rows = [];
  for (let r = geo.ranks - 1; r >= 0; r--) {
    let row = "", empty = 0;
    for (let f = 0; f < geo.files; f++) {
      const p = pieces[squareName(f, r)];
      if (!p) { empty++; continue; }
      if (empty) { row += empty; empty = 0; }
      row += p.code;
    }
    rows.push(row + (empty ? empty : ""));
  }
  return rows.join("/") + " " + (side === "black" ? "b" : "w");
}

// PDN FEN: `W:W1,2,K14:B21,22` (side to move, then each side's squares,
// `K` before a king; ranges `1-12` as the reader takes them).
function checkersPieces(fen) {
  const out = {};
  for (const part of fen.trim().replace(/\.$/, "").split(":").slice(1)) {
    const colour = part.trim()[0];
    if (!/^[WwBb]$/.test(colour || "")) continue;
    const white = colour.toUpperCase() === "W";
    for (let item of part.trim().slice(1).split(",")) {
      item = item.trim();
      if (!item) continue;
      const king = /^k/i.test(item);
      const [a, b] = item.replace(/^k/i, "").split("-").map(Number);
      for (let n = a; n <= (b || a); n++) out[String(n)] = { code: (white ? "W" : "B") + (king ? "K" : ""), white, king, name: king ? "king" : "man" };
    }
  }
  return out;
}
function checkersFen(pieces, side) {
  const list = (white) => Object.entries(pieces).filter(([, p]) => p.white === white)
    .sort((a, b) => a[0] - b[0]).map(([n, p]) => (p.king ? "K" : "") + n).join(",");
  return `${side === "black" ? "B" : "W"}:W${list(true)}:B${list(false)}`;
}
function pieceOf(code) {
  if (ANIMALS[code.toUpperCase()]) return animalPiece(code);
  return { code, white: code[0] === "W", king: code.length > 1, name: code.length > 1 ? "king" : "man" };
}

// What a square holds, in words: "e3, White panther 5", "d9, den, empty".
function describeSquare(b, s, pieces) {
  const p = s.id ? pieces[s.id] : null;
  const terrain = s.kind === "land" || s.kind === "dark" ? "" : s.kind === "light" ? ", light square" : ", " + s.kind;
  return `${s.name}${terrain}, ${p ? pieceName(p) : "empty"}`;
}

// The board of `o.view` (a position from the server) for `game`.
// o: view, picked (square chosen to move from), flipped, last (the squares
// of the last move), focus ([f, r] of the keyboard's square), arrow (a
// move drawn as an arrow), pieces (the editor's pieces, instead of the
// view's), edit (no move markers), premove (the squares of a premove).
function drawBoard(svg, game, o) {
  const b = boardOf(game);
  if (!b || !o.view) { svg.innerHTML = ""; return; }
  const { files, ranks } = b;
  svg.setAttribute("viewBox", `-0.5 0 ${files + 0.5} ${ranks + 0.5}`);
  const xy = (f, r) => o.flipped ? [files - 1 - f, r] : [f, ranks - 1 - r];
  const byId = {};
  for (const s of b.squares) if (s.id) byId[s.id] = s;
  const at = (id) => { const s = byId[id]; return xy(s.f, s.r); };
  const centre = (id) => { const [x, y] = at(id); return [x + 0.5, y + 0.5]; };
  const pieces = o.pieces || b.pieces(o.view.fen);
  const legal = o.edit ? [] : o.view.legal;
  const from = new Set(legal.map((m) => b.path(m.coord)[0]));
  const playing = o.view.status.state === "playing" && !o.edit && o.canMove;
  let html = "";
  for (const s of b.squares) {
    const [x, y] = xy(s.f, s.r);
    html += `<rect class="sq ${s.kind}"${s.id ? ` data-sq="${s.id}"` : ""} x="${x}" y="${y}" width="1" height="1"><title>${describeSquare(b, s, pieces)}</title></rect>`;
    // Trap and den carry a symbol as well as a colour.
    if (s.kind === "trap") html += `<path class="mark" d="M${x + 0.2} ${y + 0.8} l0.15 -0.25 l0.15 0.25 l0.15 -0.25 l0.15 0.25"/>`;
    if (s.kind === "den") html += `<path class="mark" d="M${x + 0.2} ${y + 0.82} v-0.32 l0.3 -0.25 l0.3 0.25 v0.32 z M${x + 0.42} ${y + 0.82} v-0.18 h0.16 v0.18"/>`;
    if (s.kind === "water") html += `<path class="mark wave" d="M${x + 0.15} ${y + 0.8} q0.12 -0.1 0.23 0 t0.23 0 t0.23 0"/>`;
  }
  // Checkers square numbers, in the corner a man leaves free.
  const numbers = b.squares.filter((s) => s.number).map((s) => { const [x, y] = xy(s.f, s.r); return `<text class="sqnum" x="${x + 0.04}" y="${y + 0.17}">${s.number}</text>`; }).join("");
  for (const id of o.last || []) if (byId[id]) { const [x, y] = at(id); html += `<rect class="last" x="${x}" y="${y}" width="1" height="1"/>`; }
  // A premove (set while the engine thinks): its squares outlined.
  for (const id of o.premove || []) if (byId[id]) { const [x, y] = at(id); html += `<rect class="premove" data-premove="${id}" x="${x + 0.04}" y="${y + 0.04}" width="0.92" height="0.92"/>`; }
  for (let f = 0; f < files; f++) { const [x] = xy(f, 0); html += `<text class="coord" x="${x + 0.5}" y="${ranks + 0.35}">${String.fromCharCode(97 + f)}</text>`; }
  for (let r = 0; r < ranks; r++) { const [, y] = xy(0, r); html += `<text class="coord" x="-0.25" y="${y + 0.6}">${r + 1}</text>`; }
  if (playing) for (const id of from) { if (!byId[id]) continue; const [x, y] = at(id); html += ring("movable", x, y, 0.08); }
  if (o.picked && byId[o.picked]) {
    const [x, y] = at(o.picked);
    html += ring("picked", x, y, 0.06);
  }
  for (const [id, p] of Object.entries(pieces)) {
    if (!byId[id]) continue;
    const [x, y] = at(id);
    html += `<g class="${pieceClass(p)}" data-sq="${id}" transform="translate(${x} ${y})">${pieceShape(p)}</g>`;
  }
  html += numbers;
  // The picked piece's targets, with the path of each capture.
  if (o.picked && byId[o.picked] && playing) {
    for (const m of legal) {
      const path = b.path(m.coord);
      if (path[0] !== o.picked || !path.every((id) => byId[id])) continue;
      if (path.length > 2 || /x/.test(m.coord)) html += `<polyline class="path" points="${path.map((id) => centre(id).join(",")).join(" ")}"/>`;
      const [tx, ty] = centre(path[path.length - 1]);
      html += `<circle class="target" data-target="${path[path.length - 1]}" cx="${tx}" cy="${ty}" r="0.15"/>`;
    }
  }
  if (o.arrow) {
    const path = b.path(o.arrow);
    if (path.length >= 2 && path.every((id) => byId[id])) {
      const pts = path.map(centre);
      const [ax, ay] = pts[pts.length - 2], [bx, by] = pts[pts.length - 1];
      const len = Math.hypot(bx - ax, by - ay) || 1, ux = (bx - ax) / len, uy = (by - ay) / len;
      const tip = [bx - ux * 0.15, by - uy * 0.15], base = [tip[0] - ux * 0.3, tip[1] - uy * 0.3];
      const line = pts.slice(0, -1).concat([base]).map((p) => p.join(",")).join(" ");
      html += `<g class="arrow"><polyline points="${line}"/><path d="M${tip[0]} ${tip[1]} L${base[0] - uy * 0.18} ${base[1] + ux * 0.18} L${base[0] + uy * 0.18} ${base[1] - ux * 0.18} Z"/></g>`;
    }
  }
  if (o.focus) {
    const [x, y] = xy(o.focus[0], o.focus[1]);
    html += ring("focus", x, y, 0.03);
  }
  svg.innerHTML = html;
}

// A marker on a square: a white halo under a dark line, so that one of the
// two stands out (contrast 3:1 or more) on every square colour.
function ring(cls, x, y, inset) {
  const w = 1 - 2 * inset, at = `x="${x + inset}" y="${y + inset}" width="${w}" height="${w}"`;
  return `<rect class="${cls} halo" ${at}/><rect class="${cls} line" ${at}/>`;
}

// The square at file f, rank r, and its words (the keyboard's focus).
function squareAtFR(game, f, r) { return boardOf(game).squares.find((s) => s.f === f && s.r === r); }
