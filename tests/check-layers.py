#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
#
# What may include what (docs/ARCHITECTURE.md), checked on the sources: no
# header includes itself through others, no top-level file of the engine
# includes an algorithm (the registry's list is generated), a family knows none of its
# algorithms, the figures know no
# algorithm, the engine knows no GTK, the window's parts call only into
# latent-window.c, never into each other, the window leaves runs and
# devices to the session, and a family's part of a snapshot is read only by
# the engine and that family's figures.

import os
import re
import sys

SRC = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
INCLUDE = re.compile(r'^\s*#\s*include\s+([<"])([^>"]+)[>"]', re.M)

failures = 0
count = 0


def check(name, ok, detail=''):
    global failures, count
    count += 1
    print(f'{"ok" if ok else "not ok"} {count} - {name}')
    if not ok:
        failures += 1
        for line in str(detail).splitlines():
            print(f'# {line}')


def sources(*folders):
    for folder in folders:
        for root, _, files in os.walk(os.path.join(SRC, folder)):
            for f in sorted(files):
                if f.endswith(('.c', '.h')):
                    yield os.path.relpath(os.path.join(root, f), SRC)


def includes(path):
    with open(os.path.join(SRC, path), encoding='utf-8') as f:
        return [(kind, name) for kind, name in INCLUDE.findall(f.read())]


def cycles_of(graph):
    """Each circle a depth-first walk of graph (node → nodes) meets, as text."""
    found, seen = [], set()

    def visit(node, stack):
        if node in stack:
            found.append(' → '.join(stack[stack.index(node):] + [node]))
        elif node not in seen:
            seen.add(node)
            for nxt in graph.get(node, []):
                visit(nxt, stack + [node])

    for node in graph:
        visit(node, [])
    return found


code = list(sources('engine', 'ui', 'app'))
by_name = {}
for path in code:
    by_name.setdefault(os.path.basename(path), path)
algorithm_headers = {os.path.basename(p) for p in sources('engine/algorithms') if p.endswith('.h')}

# 1. No circle of quoted includes among the project's headers.
graph = {p: [by_name[n] for k, n in includes(p) if k == '"' and n in by_name]
         for p in code if p.endswith('.h')}
check('no header includes itself through others', not cycles_of(graph), '\n'.join(cycles_of(graph)))

# 2. The engine's top-level files include no algorithm: the registry's
# getters come from engine/meson.build's list.
leaks = [f'{p}: {n}' for p in code if os.path.dirname(p) == 'engine'
         for k, n in includes(p) if n in algorithm_headers]
check('no top-level file of engine/ includes algorithm headers', not leaks, '\n'.join(leaks))

# 3. Data and device code know nothing above latent-params and latent-json.
allowed_low = {'latent-params.h', 'latent-json.h'}
upper = {os.path.basename(p) for p in code if os.path.dirname(p) == 'engine'} - allowed_low
leaks = [f'{p}: {n}' for p in code if p.startswith(('engine/data/', 'engine/cl/'))
         for k, n in includes(p) if n in upper or n in algorithm_headers]
check('engine/data and engine/cl include no higher floor', not leaks, '\n'.join(leaks))

# 3b. A family (engine/families/) is what its algorithms share: it knows none of them.
leaks = [f'{p}: {n}' for p in code if p.startswith('engine/families/')
         for k, n in includes(p) if n in algorithm_headers]
check('engine/families includes no algorithm header', not leaks, '\n'.join(leaks))

# 4. The engine never includes GTK or the window's headers.
ui_headers = {os.path.basename(p) for p in sources('ui') if p.endswith('.h')}
leaks = [f'{p}: {n}' for p in code if p.startswith('engine/')
         for k, n in includes(p) if n.startswith('gtk/') or n in ui_headers]
check('engine/ includes no GTK and no ui/ header', not leaks, '\n'.join(leaks))

# 5. Figures include no algorithm header; the window no private figure header.
leaks = [f'{p}: {n}' for p in code if p.startswith('ui/figures/')
         for k, n in includes(p) if n in algorithm_headers]
check('ui/figures includes no algorithm header', not leaks, '\n'.join(leaks))
leaks = [f'{p}: {n}' for p in code if p.startswith('ui/') and not p.startswith('ui/figures/')
         for k, n in includes(p) if n.startswith('latent-figure') and n.endswith('-private.h')]
check('the window includes only latent-figure.h of the figures', not leaks, '\n'.join(leaks))

# 6. The window's parts call latent-window.c, never each other.
parts = ['ui/latent-window-run.c', 'ui/latent-window-files.c', 'ui/latent-window-filter.c',
         'ui/latent-window-features.c']
text = {p: open(os.path.join(SRC, p), encoding='utf-8').read() for p in parts}
defined = {p: set(re.findall(r'^(_latent_window_\w+)\s*\(', text[p], re.M)) for p in parts}
crossings = [f'{caller} calls {name} of {owner}'
             for owner in parts for caller in parts if caller != owner
             for name in defined[owner] if re.search(r'\b' + name + r'\b', text[caller])]
check('the window\'s parts do not call each other', not crossings, '\n'.join(crossings))
check('the window\'s parts define the functions they offer', all(defined.values()),
      f'found none in: {[p for p in parts if not defined[p]]}')

# 7. The figures call downwards only: no two files call each other, even
# through others (a file calls another when it names a function defined there).
figures = [p for p in code if p.startswith('ui/figures/') and p.endswith('.c')]
text = {p: open(os.path.join(SRC, p), encoding='utf-8').read() for p in figures}
defined = {p: set(re.findall(r'^(_?latent_\w+)\s*\(', text[p], re.M)) for p in figures}
calls = {p: sorted({q for q in figures if q != p
                    for name in defined[q] if re.search(r'\b' + name + r'\b', text[p])})
         for p in figures}
cycles = cycles_of(calls)
check('no circle of calls among the figure files', not cycles, '\n'.join(cycles))

# 8. A parameter's name is spoken by its owner only: its algorithm (or family)
# reads it, and the front ends find parameters by role. A call that passes
# parameters and a literal name ("tol") elsewhere is a guess at what a name
# means. The generators own their options; a family's file may read its
# algorithms' (the filter family's words describe a filter from them).
NAMED = re.compile(r'(?:\blatent_params_\w+\s*\(\s*[^,;()]*|\(\s*[\w>.-]*params\s*),\s*"([a-z][\w-]*)"')
owners = ('engine/algorithms/', 'engine/families/', 'engine/data/', 'engine/latent-params.c')
named = [f'{p}:{text[:m.start()].count(chr(10)) + 1}: "{m.group(1)}"'
         for p in code if p.endswith('.c') and not p.startswith(owners)
         for text in [open(os.path.join(SRC, p), encoding='utf-8').read()]
         for m in NAMED.finditer(text)]
check('parameters are read by name only in their own files', not named, '\n'.join(named))

# 9. The window shows the session (engine/run/latent-session.h): it neither
# drives a run nor holds a device itself.
leaks = [f'{p}: {n}' for p in code if p.startswith('ui/')
         for k, n in includes(p) if n in ('latent-run.h', 'latent-cl.h')]
check('ui/ includes neither latent-run.h nor latent-cl.h', not leaks, '\n'.join(leaks))

# 10. The window's parts share few functions: the state is the session's.
private = open(os.path.join(SRC, 'ui/latent-window-private.h'), encoding='utf-8').read()
shared = re.findall(r'^\w[\w\s*]*?\b(_latent_window_\w+)\s*\(', private, re.M)
check('the window\'s private API is at most 10 functions', 0 < len(shared) <= 10,
      f'{len(shared)}: {", ".join(shared)}')

# 11. A family's part of a snapshot (->linear., .classifier. …) is read in the
# engine — by its own family's algorithms, engine/families and the engine's
# top-level files (result writing, metrics, the fit loop) — and by that
# family's figure files; the window and the programs ask engine/families
# (latent-family.h). A mixture fills the clusters' part too. The scatter
# serves the clusterings and the linear models (their projections), and
# latent-figure-draw.c holds what every family's figures share (the header,
# the classifiers' and linear models' helpers), so it may read any part.
# The families: [LatentFamily value, snapshot member, part type, file] rows
# of engine/meson.build's list, so a new family is checked without a line here.
FAMILIES = re.findall(r"\['([A-Z_]+)', '(\w+)', '(\w+)', '([\w-]+)'\]",
                      open(os.path.join(SRC, 'engine/meson.build'), encoding='utf-8').read())
MEMBER = {value: member for value, member, _, _ in FAMILIES}
PART = re.compile(r'(?:->|\.)(%s)\.[a-z_]' % '|'.join(MEMBER.values()))
# Files that read more than their family's part, or serve several.
ALGORITHM_PARTS = {
    'gmm': {'clusters', 'mixture'},
    'linear': {'linear'}, 'filter': {'filter'}, 'classify': {'classifier'},
    'embedding-input': {'embedding'},
    # Pretraining reads an autoencoder's result.
    'mlp': {'classifier', 'autoencoder'},
}
FIGURE_PARTS = {
    'scatter': {'clusters', 'mixture', 'linear', 'embedding'}, 'images': {'clusters', 'mixture'},
    'segments': {'clusters'},
    'linear': {'linear'}, 'linear-matrices': {'linear'}, 'linear-examples': {'linear'},
    'filter': {'filter'}, 'filter-private': {'filter'}, 'kernel': {'filter'},
    'autoencoder': {'autoencoder'}, 'curves': {'autoencoder'},
    'classes': {'classifier'}, 'confusion': {'classifier'}, 'episode': {'classifier'},
    'network': {'classifier'},
    'draw': set(MEMBER.values()),
}


def algorithm_parts(name):
    """An algorithm's family's part, from its table's .family."""
    if name in ALGORITHM_PARTS:
        return ALGORITHM_PARTS[name]
    path = os.path.join(SRC, f'engine/algorithms/latent-{name}.c')
    text = open(path, encoding='utf-8').read() if os.path.exists(path) else ''
    return {MEMBER[v] for v in re.findall(r'\.family\s*=\s*LATENT_FAMILY_(\w+)', text) if v in MEMBER}


def parts_allowed(path):
    """The parts a source file may read, or None for any. A figure file
    named after a family's file (latent-figure-<file>.c) reads its part."""
    stem = os.path.splitext(os.path.basename(path))[0]
    if path.startswith('engine/algorithms/'):
        return algorithm_parts(re.sub(r'^latent-|-(cl|reference|private)$', '', stem))
    if path.startswith('engine/'):
        return None
    if path.startswith('ui/figures/'):
        stem = stem.removeprefix('latent-figure-')
        return FIGURE_PARTS.get(stem, {member for _, member, _, file in FAMILIES if file == stem})
    return set()


def strip_comments(text):
    return re.sub(r'/\*.*?\*/|//[^\n]*', lambda m: re.sub(r'[^\n]', ' ', m.group(0)), text, flags=re.S)


readers = []
for p in code:
    allowed = parts_allowed(p)
    if allowed is None:
        continue
    text = strip_comments(open(os.path.join(SRC, p), encoding='utf-8').read())
    readers += [f'{p}:{text[:m.start()].count(chr(10)) + 1}: {m.group(1)}'
                for m in PART.finditer(text) if m.group(1) not in allowed]
check('a family\'s part is read by the engine and its own figures only', not readers, '\n'.join(readers))

print(f'1..{count}')
sys.exit(1 if failures else 0)
