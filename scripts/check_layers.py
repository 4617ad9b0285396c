#!/usr/bin/env python3
"""The include graph of sim/, render/ and app/: no file-level cycle (a header and its .cpp count
as one node), and inside sim/ and app/ no cycle between folders. Prints the folder order it
found and exits 1 with the offending arrows otherwise. Run by the test suite (layers test)."""
import os
import re
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..'))
INCLUDE = re.compile(r'^\s*#\s*include\s+"((?:sim|render|app)/[^"]+)"', re.M)
SOURCES = ('.h', '.cpp', '.cu', '.cuh')


def node(path):
    # A header and the .cpp that implements it are one node; a .cu keeps its own name (a CUDA
    # class's launches include its private Impl header, which includes the public one).
    base, ext = os.path.splitext(path)
    return base + '.cu' if ext == '.cu' else base


def folder(path):
    return os.path.dirname(path)


def graph():
    edges = {}
    for top in ('sim', 'render', 'app'):
        for dirpath, _, files in os.walk(os.path.join(ROOT, top)):
            for f in files:
                if not f.endswith(SOURCES):
                    continue
                rel = os.path.relpath(os.path.join(dirpath, f), ROOT)
                with open(os.path.join(ROOT, rel), encoding='utf-8') as fh:
                    text = fh.read()
                for inc in INCLUDE.findall(text):
                    if node(inc) != node(rel):
                        edges.setdefault(node(rel), set()).add(node(inc))
    return edges


def cycles(edges):
    """Strongly connected components with more than one member (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]
    sys.setrecursionlimit(10000)

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    nodes = set(edges) | {w for ws in edges.values() for w in ws}
    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return out


def main():
    edges = graph()
    problems = []
    for comp in cycles(edges):
        problems.append('files include each other: ' + ' <-> '.join(comp))
    for top in ('sim', 'app'):
        fedges = {}
        for a, ws in edges.items():
            for b in ws:
                fa, fb = folder(a), folder(b)
                if fa != fb and fa.startswith(top) and fb.startswith(top):
                    fedges.setdefault(fa, set()).add(fb)
        for comp in cycles(fedges):
            arrows = [f'{a} -> {b}' for a in comp for b in fedges.get(a, ()) if b in comp]
            problems.append(f'folders of {top}/ include each other: ' + ', '.join(sorted(arrows)))
        # A file at a top folder's root that a subfolder includes is an arrow back up.
        for a, ws in edges.items():
            for b in ws:
                if folder(b) == top and folder(a) != top and folder(a).startswith(top + '/'):
                    problems.append(f'{a} includes {b} at the top of {top}/ (an arrow back up)')
    for p in problems:
        print('check_layers:', p)
    if problems:
        return 1
    print(f'check_layers: {len(edges)} files, no cycle between files or folders')
    return 0


if __name__ == '__main__':
    sys.exit(main())
