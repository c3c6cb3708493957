#!/usr/bin/env python3
"""The import circles inside each crate: files (modules) that reach each
other through `crate::`/`super::` paths, as strongly connected groups.
Usage: scripts/import-circles.py [crates/NAME ...]; prints one group a
line, `crate: a <-> b <-> c`. Named in docs/architecture.md."""
import os, re, sys

def modules(src):
    """module path (tuple) -> file, for every .rs file under src."""
    mods = {}
    for dp, _, fs in os.walk(src):
        for f in fs:
            if not f.endswith('.rs'):
                continue
            rel = os.path.relpath(os.path.join(dp, f), src)[:-3].split(os.sep)
            if rel[-1] in ('mod', 'lib', 'main'):
                rel = rel[:-1]
            mods[tuple(rel)] = os.path.join(dp, f)
    return mods

def strip(text):
    """The text without comments and without the items under
    `#[cfg(test)]` (a test module may import anything: not part of the
    layering), each cut to its closing brace or semicolon."""
    text = re.sub(r'//[^\n]*', '', text)
    out, i = [], 0
    while True:
        j = text.find('#[cfg(test)]', i)
        if j < 0:
            out.append(text[i:])
            return ''.join(out)
        out.append(text[i:j])
        k = j + len('#[cfg(test)]')
        # the item ends at a `;` before any `{`, or at the `{`'s match
        semi, brace = text.find(';', k), text.find('{', k)
        if brace < 0 or (0 <= semi < brace):
            i = semi + 1 if semi >= 0 else len(text)
            continue
        depth, k = 0, brace
        while k < len(text):
            if text[k] == '{':
                depth += 1
            elif text[k] == '}':
                depth -= 1
                if depth == 0:
                    break
            k += 1
        i = k + 1

def reexports(mods):
    """item name -> module, for the crate root's `pub use module::{A, B}`."""
    root = mods.get(())
    out = {}
    if not root:
        return out
    text = strip(open(root).read())
    for m in re.finditer(r'pub use (?:crate::)?([a-z_][a-z0-9_]*)::(\{[^}]*\}|[A-Za-z_][A-Za-z0-9_]*)', text):
        if (m.group(1),) not in mods:
            continue
        for item in re.findall(r'[A-Za-z_][A-Za-z0-9_]*', m.group(2)):
            out[item] = (m.group(1),)
    return out

def refs(mod, text, mods, items):
    out = set()
    for m in re.finditer(r'\bcrate::([A-Za-z_][A-Za-z0-9_]*)', text):
        if m.group(1) in items:
            out.add(items[m.group(1)])
    for m in re.finditer(r'\bcrate::\{([^;]*)\}', text):
        for item in re.findall(r'\b[A-Za-z_][A-Za-z0-9_]*', m.group(1)):
            if item in items:
                out.add(items[item])
    for m in re.finditer(r'\b(crate|super)((?:::[a-z_][a-z0-9_]*)+)', text):
        parts = m.group(2).split('::')[1:]
        base = () if m.group(1) == 'crate' else mod[:-1]
        path = base + tuple(parts)
        # the longest module prefix named
        for k in range(len(path), 0, -1):
            if path[:k] in mods:
                out.add(path[:k]); break
    # grouped imports: use crate::{a::X, b::Y}
    for m in re.finditer(r'\bcrate::\{([^}]*(?:\{[^}]*\}[^}]*)*)\}', text):
        for part in re.split(r',\s*', m.group(1)):
            first = part.strip().split('::')[0]
            if (first,) in mods:
                out.add((first,))
    out.discard(mod)
    return out

def sccs(graph):
    index, low, stack, on, out, n = {}, {}, [], set(), [], [0]
    def visit(v):
        index[v] = low[v] = n[0]; n[0] += 1; stack.append(v); on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w); low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop(); on.discard(w); comp.append(w)
                if w == v: break
            if len(comp) > 1: out.append(sorted(comp))
    sys.setrecursionlimit(10000)
    for v in graph:
        if v not in index: visit(v)
    return out

def main():
    root = os.path.join(os.path.dirname(__file__), '..')
    crates = sys.argv[1:] or sorted(os.path.join('crates', c) for c in os.listdir(os.path.join(root, 'crates')))
    total = 0
    for c in crates:
        src = os.path.join(root, c, 'src')
        if not os.path.isdir(src):
            continue
        mods = modules(src)
        items = reexports(mods)
        graph = {m: refs(m, strip(open(f).read()), mods, items) for m, f in mods.items() if m != ()}
        for comp in sccs(graph):
            total += 1
            print(f"{os.path.basename(c)}: " + ' <-> '.join('::'.join(m) for m in comp))
    print(f"{total} circles")

main()
