#!/usr/bin/python3
"""Lists the Swift functions longer than 60 lines (counted from the `func`/`init`/`deinit` line to
its closing brace) and the Swift files longer than 400 lines under the folders given (default:
Sources), one a line, then how many; exits 1 when there is any. Braces in strings, interpolations
and comments are not counted. Usage: .ci/long_code.py [FOLDER ...]"""
import re, sys, os
MAXF, MAXL = 60, 400
roots = sys.argv[1:] or ["Sources"]
decl = re.compile(r'^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|private|fileprivate|internal|package|open|static|class|final|override|mutating|nonmutating|nonisolated(?:\(unsafe\))?|convenience|required|dynamic|isolated|consuming|borrowing)\s+)*(func\s+[^\s(<]+|init[?!]?|deinit)\b')
def strip(line, state):
    # remove strings and comments; state carries multiline comment / multiline string
    out = []; i = 0; n = len(line)
    while i < n:
        if state['block']:
            j = line.find('*/', i)
            if j < 0: return ''.join(out)
            state['block'] = False; i = j + 2; continue
        if state['ml']:
            j = line.find('"""', i)
            if j < 0: return ''.join(out)
            state['ml'] = False; i = j + 3; continue
        c = line[i]
        if line.startswith('//', i): break
        if line.startswith('/*', i): state['block'] = True; i += 2; continue
        if line.startswith('"""', i): state['ml'] = True; i += 3; continue
        if c == '"':
            i += 1; depth = 0
            while i < n:
                if line[i] == '\\' and i + 1 < n and line[i+1] == '(':
                    # interpolation: skip balanced parens
                    i += 2; d = 1
                    while i < n and d:
                        if line[i] == '(': d += 1
                        elif line[i] == ')': d -= 1
                        i += 1
                    continue
                if line[i] == '\\': i += 2; continue
                if line[i] == '"': i += 1; break
                i += 1
            continue
        out.append(c); i += 1
    return ''.join(out)
bad = 0
for root in roots:
    for dp, dn, fn in os.walk(root):
        for f in sorted(fn):
            if not f.endswith('.swift'): continue
            p = os.path.join(dp, f)
            lines = open(p, encoding='utf-8').read().split('\n')
            if lines and lines[-1] == '': lines.pop()
            if len(lines) > MAXL: print(f"FILE {len(lines):4d} {p}"); bad += 1
            state = {'block': False, 'ml': False}
            code = [strip(l, state) for l in lines]
            for i, l in enumerate(lines):
                m = decl.match(code[i])
                if not m: continue
                depth = 0; opened = False; end = None
                for j in range(i, len(lines)):
                    for ch in code[j]:
                        if ch == '{': depth += 1; opened = True
                        elif ch == '}': depth -= 1
                    if opened and depth <= 0: end = j; break
                    if not opened and j > i and code[j].strip() and not code[j].strip().startswith(('->', 'where', 'throws', 'async')) and decl.match(code[j]): break
                if end is None: continue
                length = end - i + 1
                if length > MAXF: print(f"FUNC {length:4d} {p}:{i+1} {m.group(1)}"); bad += 1
print(f"{bad} over the limits (functions {MAXF} lines, files {MAXL})")
sys.exit(1 if bad else 0)
