// The game's move tree (docs/web.md, "Variations"): every line played in
// the game is kept. A node is { mv, name, kids, comment? } (the root's
// comment: the one before the first move), the root has no move;
// a node's first kid is its main continuation, the others variations. The
// page's `S.game.moves` is the line shown (the path to the position shown
// and the main continuation after it); this file keeps the tree in step
// with it and draws the variations that branch off it. Uses app.js's state.
"use strict";

const node = (mv, name) => ({ mv, name: name || mv, kids: [] });

// The tree of one line.
function treeOf(moves, names) {
  const root = node(null);
  growLine(root, moves, names);
  return root;
}

// Makes sure the line `moves` is in the tree (a new move becomes the last
// kid of its parent: the main line stays, the new one is a variation).
function growLine(root, moves, names) {
  let at = root;
  moves.forEach((mv, i) => {
    let kid = at.kids.find((k) => k.mv === mv);
    if (!kid) { kid = node(mv, names && names[i]); at.kids.push(kid); }
    // A name better than the coordinate is kept.
    else if (names && names[i] && names[i] !== mv) kid.name = names[i];
    at = kid;
  });
}

// The node reached by the first n moves of `moves` (null when not there).
function nodeAt(root, moves, n) {
  let at = root;
  for (let i = 0; i < n && at; i++) at = at.kids.find((k) => k.mv === moves[i]) || null;
  return at;
}

// The main continuation after a node: its first kid, that one's, …
function mainAfter(n) {
  const line = [];
  for (let at = n.kids[0]; at; at = at.kids[0]) line.push(at.mv);
  return line;
}

// The line through the first n moves of `moves` and on by the main
// continuation: what the page shows after going to that position.
function lineThrough(root, moves, n) {
  const at = nodeAt(root, moves, n);
  return at ? moves.slice(0, n).concat(mainAfter(at)) : moves.slice(0, n);
}

// Deletes the move at depth n of `moves` (n ≥ 1) and all that follows it.
function cutAt(root, moves, n) {
  const parent = nodeAt(root, moves, n - 1);
  if (parent) parent.kids = parent.kids.filter((k) => k.mv !== moves[n - 1]);
}

// The deepest move of the first n of `moves` that is a variation (not
// its parent's first kid), as its depth; 0 when all are main moves.
function variationDepth(root, moves, n) {
  let at = root, deepest = 0;
  for (let i = 0; i < n && at; i++) {
    const k = at.kids.findIndex((x) => x.mv === moves[i]);
    if (k < 0) break;
    if (k > 0) deepest = i + 1;
    at = at.kids[k];
  }
  return deepest;
}

// Makes the variation that holds the position shown the main line at its
// branching point (its move first among its parent's kids).
function promote(root, moves, n) {
  const d = variationDepth(root, moves, n);
  if (!d) return false;
  const parent = nodeAt(root, moves, d - 1), k = parent.kids.findIndex((x) => x.mv === moves[d - 1]);
  parent.kids.unshift(...parent.kids.splice(k, 1));
  return true;
}

// The variations branching off the line shown after its move i (the other
// kids of the node before move i), each as a list of its moves
// { line: [full line to the move], name, comment, subs }: drawn in the
// move list, each move a button. `subs` are the variations nested in it:
// the alternatives to that move (its parent's other kids), written after
// it as PDN writes them.
function branches(root, moves, i) {
  const parent = nodeAt(root, moves, i);
  if (!parent) return [];
  return parent.kids.filter((k) => k.mv !== moves[i]).map((k) => lineFrom(k, moves.slice(0, i)));
}
// The line from node k (the moves before it given) on by its main
// continuation. Its first move's alternatives are the caller's to show.
function lineFrom(k, before) {
  const out = [];
  let path = before, at = k, parent = null;
  while (at) {
    const here = path;
    path = path.concat([at.mv]);
    const subs = parent ? parent.kids.slice(1).map((s) => lineFrom(s, here)) : [];
    out.push({ line: path, name: at.name, comment: at.comment, subs });
    parent = at;
    at = at.kids[0];
  }
  return out;
}

// A compact copy for storage ([mv, name, kids…, comment?]) and back.
function packTree(n) { return [n.mv, n.name, n.kids.map(packTree)].concat(n.comment ? [n.comment] : []); }
function unpackTree(p) {
  if (!Array.isArray(p) || p.length < 3 || p.length > 4 || !Array.isArray(p[2])) return null;
  const n = node(p[0], p[1]);
  if (typeof p[3] === "string") n.comment = p[3];
  for (const k of p[2]) { const u = unpackTree(k); if (!u) return null; n.kids.push(u); }
  return n;
}

// The tree as the server saves it (PDN's order): the main line after a
// node as moves { mv, comment?, variations? }, each move's variations
// (the other kids of its parent) lines of their own. Nested as deep as
// the variations are, not as long as the lines.
function plyLine(n) {
  const out = [];
  for (let at = n; at.kids.length; at = at.kids[0]) {
    const [main, ...alts] = at.kids, p = { mv: main.mv };
    if (main.comment) p.comment = main.comment;
    if (alts.length) p.variations = alts.map((a) => plyLine({ kids: [a] }));
    out.push(p);
  }
  return out;
}
// And back: a loaded game's moves ({ mv, short, comment?, variations? })
// grown under `parent`, each main move its parent's first kid.
function growPlies(parent, plies) {
  let at = parent;
  for (const p of plies) {
    const kid = node(p.mv, p.short);
    if (p.comment) kid.comment = p.comment;
    at.kids.push(kid);
    for (const v of p.variations || []) growPlies(at, v);
    at = kid;
  }
}
