#!/usr/bin/env python3
"""make mutate: mutation testing of the RTL against the regression (docs/mutation.md).

Source-level mutants with mutant schemata. For each block (rtl/<block>/block.toml; rtl/common
too) the script finds every mutation point of its RTL files, picks --count of them from --seed
spread over the files, and classifies each mutant:

  killed-lint  the mutated file alone fails `verilator --lint-only -Wall` (with the blocks'
               lint.vlt) or `iverilog -g2005 -Wall` (a plain mutated copy, like make lint)
  killed-test  a regression entry (tests/*.list) that runs a harness including the mutated file
               fails (or hangs: more than 3x its time on the unmutated build, and again
               more than 6x when rerun)
  equivalent   tests/mutate/equivalent.txt gives the reason it cannot be killed (not run again
               unless --check-equivalent)
  survived     survives every such entry: a test hole (tests/mutate/survivors.txt explains it)

Score = killed-test / (mutants - equivalent - killed-lint).

Mutant schemata: every mutation point k of a file becomes `((mut_sel_q == k) ? (mutant) :
(original))` in one instrumented copy ($BUILD/mutate/<block>/src), where mut_sel_q is read once
at start from the environment (MUT_SEL) through a DPI-C import compiled only into these builds.
Each harness is Verilated once per block with every instrumented file found first on its -y path
($BUILD/mutate/<block>/tb/<harness>); a mutant is one run of the harness's regression entries
with MUT_SEL=k. MUT_SEL=0 is the original design: every entry must pass at 0 first (that
validates the instrumented build, and gives the entry's time). The entries run in a copy of the
tree made of symbolic links ($BUILD/mutate/run/...), whose build/tb/<harness> is the
instrumented build, so their commands run unchanged. Harnesses are built lazily, the one
covering most of the still-living mutants first; a mutant stops at the first entry that kills
it.

Operators (the op field of a mutant id):
  eq      == <-> !=, === <-> !==           rel    < -> <=, <= -> <, > -> >=, >= -> >
  logic   && <-> ||                        bitw   & <-> |, ^ -> |
  arith   + <-> -                          shift  << <-> >>, >>> -> >>
  negcond negate an if / ?: condition      negrm  remove a ! or ~
  const   a constant +1 (-1 at its top), a 1-bit constant flipped
  stuck   a register's next-value assignment holds the old value (x_q <= x_q; x_d = x_q)
  drop    one term of a && || & | ^ + - * removed
  index   a bit/element index off by one
A mutant id is <file>:<line>:<op>:<n> (n counts the same op on the same line, in source order);
it is stable while the line is unchanged. Code under `ifdef/`ifndef (the simulation-only
checkers) and constant contexts (parameters, ranges, part-select bounds, replication counts,
case labels, generate conditions, constant functions) are not mutated.

Usage: scripts/mutate.py [--block B ...] [--count N] [--seed S] [--jobs J] [--list]
       [--files GLOB,...] [--harness H,...] [--no-lint] [--out DIR] [--doc FILE]
"""
import argparse
import concurrent.futures as cf
import fnmatch
import glob
import hashlib
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
import zlib

import blocks
import iverilog_waivers
from results import RESULT

ROOT = blocks.ROOT
BUILD = os.environ.get("BUILD", "build")
EQUIV_FILE = "tests/mutate/equivalent.txt"
NOTES_FILE = "tests/mutate/survivors.txt"
SEL = "mut_sel_q"
DPI = "mut_sel_dpi"


# ================================================================ tokenizer
TOKEN_RE = re.compile(r"""
 (?P<ws>\s+)
|(?P<comment>//[^\n]*|/\*.*?\*/)
|(?P<directive>`[A-Za-z_]\w*)
|(?P<string>"(?:\\.|[^"\\])*")
|(?P<num>(?:\d[\d_]*)?'[sS]?[bBoOdDhH]\s*[0-9a-fA-FxXzZ_?]+|\d[\d_]*(?:\.\d+)?)
|(?P<sysid>\$[A-Za-z_][\w$]*)
|(?P<id>[A-Za-z_][\w$]*|\\\S+)
|(?P<op><<<|>>>|===|!==|==|!=|<=|>=|&&|\|\||<<|>>|~&|~\||~\^|\^~|\*\*|\+:|-:|->|[-+*/%<>!~&|^?:;,.()\[\]{}\#@='])
""", re.S | re.X)


class Tok:
    __slots__ = ("kind", "text", "start", "end", "line", "cond")

    def __init__(self, kind, text, start, end, line, cond):
        self.kind, self.text, self.start, self.end, self.line, self.cond = \
            kind, text, start, end, line, cond

    def __repr__(self):
        return "%s:%r@%d" % (self.kind, self.text, self.line)


def tokenize(src):
    """Significant tokens; cond marks tokens inside `ifdef/`ifndef ... `endif (not mutated).
    `define lines are dropped."""
    toks, pos, line, depth = [], 0, 1, 0
    n = len(src)
    while pos < n:
        m = TOKEN_RE.match(src, pos)
        if not m:
            raise ParseError("line %d: cannot tokenize %r" % (line, src[pos:pos + 20]))
        kind, text = m.lastgroup, m.group()
        if kind == "directive":
            d = text[1:]
            if d in ("ifdef", "ifndef"):
                depth += 1
            elif d == "endif":
                depth = max(0, depth - 1)
            if d in ("define", "undef", "include", "timescale", "default_nettype", "ifdef",
                     "ifndef", "elsif", "else", "endif", "resetall", "celldefine",
                     "endcelldefine"):
                # the directive's argument is the rest of the line (with \ continuations)
                end = pos
                while True:
                    e = src.find("\n", end)
                    if e < 0:
                        e = n
                    if d == "define" and src[end:e].rstrip().endswith("\\"):
                        end = e + 1
                        continue
                    break
                if d in ("ifdef", "ifndef", "elsif", "else", "endif", "include", "define",
                         "undef", "timescale", "default_nettype", "resetall"):
                    line += src.count("\n", pos, e)
                    pos = e
                    continue
        if kind not in ("ws", "comment"):
            toks.append(Tok(kind, text, m.start(), m.end(), line, depth > 0))
        line += text.count("\n")
        pos = m.end()
    return toks


class ParseError(Exception):
    pass


# ================================================================ expressions
BINPREC = {"||": 1, "&&": 2, "|": 3, "^": 4, "^~": 4, "~^": 4, "&": 5,
           "==": 6, "!=": 6, "===": 6, "!==": 6, "<": 7, "<=": 7, ">": 7, ">=": 7,
           "<<": 8, ">>": 8, "<<<": 8, ">>>": 8, "+": 9, "-": 9, "*": 10, "/": 10, "%": 10,
           "**": 11}
UNARY = {"!", "~", "-", "+", "&", "|", "^", "~&", "~|", "~^", "^~"}
# system functions whose arguments are run-time values
RUNTIME_SYS = {"$signed", "$unsigned"}


class Node:
    __slots__ = ("kind", "i0", "i1", "kids", "op", "mutable", "muts", "extra")

    def __init__(self, kind, i0, i1, kids=(), op=None, mutable=True, extra=None):
        self.kind, self.i0, self.i1, self.kids, self.op = kind, i0, i1, list(kids), op
        self.mutable, self.muts, self.extra = mutable, [], extra


class Root:
    """A mutable expression in its context: an assignment's right-hand side, an if condition,
    a case selector, a continuous assignment, an instance's input connection."""
    __slots__ = ("node", "role", "lhs", "seq", "comb")

    def __init__(self, node, role, lhs=None, seq=False, comb=False):
        self.node, self.role, self.lhs, self.seq, self.comb = node, role, lhs, seq, comb


class Parser:
    def __init__(self, toks, src, modules=None):
        self.t, self.src, self.i = toks, src, 0
        self.modules = modules or {}
        self.roots = []

    # ---- token helpers
    def peek(self, k=0):
        j = self.i + k
        return self.t[j].text if j < len(self.t) else ""

    def kind(self, k=0):
        j = self.i + k
        return self.t[j].kind if j < len(self.t) else ""

    def take(self, want=None):
        if self.i >= len(self.t):
            raise ParseError("unexpected end of file")
        tok = self.t[self.i]
        if want is not None and tok.text != want:
            raise ParseError("line %d: expected %r, found %r" % (tok.line, want, tok.text))
        self.i += 1
        return tok

    def skip_balanced(self):
        """Skip a ( ... ), [ ... ] or { ... } group starting at the current token."""
        pairs = {"(": ")", "[": "]", "{": "}"}
        stack = [pairs[self.take().text]]
        while stack:
            x = self.take().text
            if x in pairs:
                stack.append(pairs[x])
            elif x == stack[-1]:
                stack.pop()

    def skip_to(self, text):
        while self.peek() != text:
            if self.peek() in ("(", "[", "{"):
                self.skip_balanced()
            else:
                self.take()
        self.take()

    # ---- expressions
    def expr(self, mut, minprec=0):
        left = self.unary(mut)
        while True:
            op = self.peek()
            if op == "?" and minprec == 0:
                self.take()
                a = self.expr(mut)
                self.take(":")
                b = self.expr(mut)
                left = Node("tern", left.i0, b.i1, [left, a, b], mutable=mut)
                continue
            p = BINPREC.get(op)
            if p is None or p < max(minprec, 1) or self.kind() != "op":
                return left
            opi = self.i
            self.take()
            right = self.expr(mut, p + 1)
            left = Node("bin", left.i0, right.i1, [left, right], op=opi, mutable=mut)

    def unary(self, mut):
        if self.kind() == "op" and self.peek() in UNARY:
            i0 = self.i
            self.take()
            a = self.unary(mut)
            return Node("un", i0, a.i1, [a], op=i0, mutable=mut)
        return self.primary(mut)

    def arglist(self, mut):
        kids = []
        self.take("(")
        if self.peek() != ")":
            kids.append(self.expr(mut))
            while self.peek() == ",":
                self.take()
                kids.append(self.expr(mut))
        self.take(")")
        return kids

    def primary(self, mut):
        i0 = self.i
        k, x = self.kind(), self.peek()
        if k == "num":
            self.take()
            return Node("num", i0, self.i, mutable=mut)
        if k == "string":
            self.take()
            return Node("str", i0, self.i, mutable=False)
        if x == "(":
            self.take()
            e = self.expr(mut)
            self.take(")")
            return Node("paren", i0, self.i, [e], mutable=mut)
        if x == "{":
            self.take()
            first = self.expr(mut)
            if self.peek() == "{":
                # replication {N{...}}: the count is a constant
                first = Node("const", first.i0, first.i1, mutable=False)
                self.take("{")
                kids = [self.expr(mut)]
                while self.peek() == ",":
                    self.take()
                    kids.append(self.expr(mut))
                self.take("}")
                self.take("}")
                return Node("repl", i0, self.i, kids, mutable=mut)
            kids = [first]
            while self.peek() == ",":
                self.take()
                kids.append(self.expr(mut))
            self.take("}")
            return Node("concat", i0, self.i, kids, mutable=mut)
        if k == "sysid":
            self.take()
            if self.peek() == "(":
                kids = self.arglist(mut and x in RUNTIME_SYS)
                return Node("call", i0, self.i, kids, mutable=False)
            return Node("id", i0, self.i, mutable=False)
        if k == "directive":
            self.take()
            if self.peek() == "(":
                self.skip_balanced()
            return Node("macro", i0, self.i, mutable=False)
        if k == "id":
            self.take()
            if self.peek() == "(":
                kids = self.arglist(mut)
                return Node("call", i0, self.i, kids, mutable=False, extra=x)
            node = Node("id", i0, self.i, mutable=mut)
            while True:
                if self.peek() == "[":
                    self.take()
                    a = self.expr(mut)
                    if self.peek() in (":", "+:", "-:"):
                        # part-select: constant bounds (a +: base could vary; left alone)
                        self.take()
                        self.expr(False)
                        self.take("]")
                        node = Node("psel", i0, self.i, [node], mutable=False)
                        _freeze(a)
                    else:
                        self.take("]")
                        node = Node("sel", i0, self.i, [node, a], mutable=mut)
                elif self.peek() == "." and self.kind(1) == "id":
                    # hierarchical name: the scope indices before it are constants
                    _freeze(node)
                    self.take()
                    self.take()
                    node = Node("id", i0, self.i, mutable=False)
                else:
                    return node
        raise ParseError("line %d: unexpected %r in an expression" % (self.t[i0].line, x)
                         if i0 < len(self.t) else "unexpected end of file")

    def lvalue(self):
        """An assignment target: identifier with selects, or a concatenation (never mutated)."""
        e = self.primary(False)
        _freeze(e)
        return e

    # ---- statements
    def stmt(self, ctx):
        x = self.peek()
        if x == "begin":
            self.take()
            if self.peek() == ":":
                self.take()
                self.take()
            while self.peek() != "end":
                self.stmt(ctx)
            self.take("end")
            if self.peek() == ":":
                self.take()
                self.take()
        elif x == "if":
            self.take()
            self.take("(")
            c = self.expr(ctx["mut"])
            self.take(")")
            self.roots.append(Root(c, "if"))
            self.stmt(ctx)
            if self.peek() == "else":
                self.take()
                self.stmt(ctx)
        elif x in ("case", "casez", "casex"):
            self.take()
            self.take("(")
            e = self.expr(ctx["mut"])
            self.take(")")
            self.roots.append(Root(e, "case"))
            while self.peek() != "endcase":
                if self.peek() == "default":
                    self.take()
                    if self.peek() == ":":
                        self.take()
                else:
                    _freeze(self.expr(False))
                    while self.peek() == ",":
                        self.take()
                        _freeze(self.expr(False))
                    self.take(":")
                self.stmt(ctx)
            self.take("endcase")
        elif x == "for":
            self.take()
            self.skip_balanced()
            self.stmt(ctx)
        elif x in ("while", "repeat"):
            self.take()
            self.skip_balanced()
            self.stmt(ctx)
        elif x == "forever":
            self.take()
            self.stmt(ctx)
        elif x == ";":
            self.take()
        elif self.kind() == "sysid" or x in ("#", "disable", "->", "@", "wait"):
            self.skip_to(";")
        elif x in ("reg", "integer", "wire", "localparam", "parameter", "genvar", "real",
                   "time"):
            self.skip_to(";")
        elif self.kind() == "directive":
            self.take()
            if self.peek() == "(":
                self.skip_balanced()
            if self.peek() == ";":
                self.take()
        else:
            i0 = self.i
            lhs = self.lvalue()
            if self.peek() == ";":          # a task call without arguments
                self.take()
                return
            op = self.take().text
            if op not in ("=", "<="):
                raise ParseError("line %d: expected an assignment after %r"
                                 % (self.t[i0].line, self.text(lhs)))
            rhs = self.expr(ctx["mut"])
            self.take(";")
            self.roots.append(Root(rhs, "rhs", lhs=lhs, seq=ctx["seq"], comb=ctx["comb"]))

    def text(self, node):
        return self.src[self.t[node.i0].start:self.t[node.i1 - 1].end]


def _freeze(node):
    node.mutable = False
    for k in node.kids:
        _freeze(k)


# ================================================================ one RTL file
DECL_KW = {"input", "output", "inout", "reg", "integer", "wire", "localparam", "parameter",
           "real", "time", "genvar"}


class Candidate:
    """One mutation point: where, which operator, the node and how it changes."""
    __slots__ = ("id", "file", "line", "op", "node", "kind", "arg", "before", "after", "k",
                 "anchor", "root")

    def __init__(self, file, line, op, node, kind, arg, anchor):
        self.file, self.line, self.op, self.node, self.kind, self.arg = \
            file, line, op, node, kind, arg
        self.anchor = anchor
        self.id = self.before = self.after = self.root = None
        self.k = 0


class RtlFile:
    """A parsed RTL file: its mutation candidates, plain mutants and the schema copy."""

    def __init__(self, path, modules):
        self.path = path                      # relative to ROOT
        self.base = os.path.basename(path)
        self.src = open(os.path.join(ROOT, path)).read()
        self.toks = tokenize(self.src)
        self.modules = modules                # module name -> set of its input port names
        self.roots = []
        self.insert_at = []                   # char offsets after each module header
        self.warnings = []
        self.cands = []
        self._parse()
        self._candidates()

    # ---- module-level scan
    def _parse(self):
        p = Parser(self.toks, self.src, self.modules)
        t = self.toks
        regions = []                          # (i0, i1) token ranges of parsed run-time code
        funcs = {}                            # function name -> (i0, i1, roots)
        while p.i < len(t):
            tok = t[p.i]
            x = tok.text
            start = p.i
            nroots = len(p.roots)
            try:
                if x == "module" and tok.kind == "id":
                    depth = 0
                    while True:
                        y = p.take().text
                        if y in ("(", "[", "{"):
                            depth += 1
                        elif y in (")", "]", "}"):
                            depth -= 1
                        elif y == ";" and depth == 0:
                            break
                    self.insert_at.append(t[p.i - 1].end)
                    continue
                if tok.kind != "id" or tok.cond:
                    p.i += 1
                    continue
                if x in ("always", "always_ff", "always_comb", "always_latch"):
                    p.take()
                    seq = False
                    if p.peek() == "@":
                        p.take()
                        if p.peek() == "(":
                            j = p.i
                            p.skip_balanced()
                            seq = any(t[q].text in ("posedge", "negedge") for q in range(j, p.i))
                        else:
                            p.take()          # @*
                    seq = seq or x == "always_ff"
                    p.stmt({"mut": True, "seq": seq, "comb": not seq})
                elif x == "initial" or x == "final":
                    p.take()
                    p.stmt({"mut": False, "seq": False, "comb": False})
                    del p.roots[nroots:]
                elif x == "assign":
                    p.take()
                    lhs = p.lvalue()
                    p.take("=")
                    rhs = p.expr(True)
                    p.roots.append(Root(rhs, "assign", lhs=lhs))
                    while p.peek() == ",":
                        p.take()
                        lhs = p.lvalue()
                        p.take("=")
                        rhs = p.expr(True)
                        p.roots.append(Root(rhs, "assign", lhs=lhs))
                    p.take(";")
                elif x == "wire":
                    p.take()
                    # wire [signed] [range] name = expr {, name = expr};
                    while True:
                        if p.peek() in ("(", "[", "{"):
                            p.skip_balanced()
                        elif p.peek() == "=":
                            p.take()
                            rhs = p.expr(True)
                            p.roots.append(Root(rhs, "assign"))
                        elif p.peek() == ";":
                            p.take()
                            break
                        else:
                            p.take()
                elif x in ("function", "task"):
                    end = "end" + x
                    p.take()
                    name = None
                    while p.peek() != ";":
                        if p.peek() in ("(", "["):
                            p.skip_balanced()
                        else:
                            if p.kind() == "id":
                                name = p.peek()
                            p.take()
                    p.take(";")
                    # declarations, then the body
                    while p.peek() in DECL_KW:
                        p.skip_to(";")
                    fi0 = p.i
                    if x == "function":
                        while p.peek() != end:
                            p.stmt({"mut": True, "seq": False, "comb": False})
                        funcs[name] = (fi0, p.i, list(range(nroots, len(p.roots))))
                    else:
                        while p.peek() != end:
                            p.take()
                        del p.roots[nroots:]
                    p.take(end)
                    continue
                elif x in self.modules and p.kind(1) in ("id", "op") and \
                        (p.peek(1) == "#" or p.kind(1) == "id") and \
                        (start == 0 or t[start - 1].text in (";", "end", "begin", ")", "endcase",
                                                             "endgenerate", "generate", "else")
                         or t[start - 1].kind == "id"):
                    self._instance(p, x)
                else:
                    p.i += 1
                    continue
                regions.append((start, p.i))
            except ParseError as e:
                self.warnings.append("%s: %s (construct at line %d skipped)"
                                     % (self.path, e, tok.line))
                del p.roots[nroots:]
                # resynchronize at the next ';' at this level
                p.i = start + 1
                while p.i < len(t) and t[p.i].text != ";":
                    p.i += 1
        # a function called from a constant context (parameter, range, generate condition)
        # must stay constant: its body is not mutated
        drop = set()
        for name, (fi0, fi1, idx) in funcs.items():
            for q, tok in enumerate(t):
                if tok.text == name and q + 1 < len(t) and t[q + 1].text == "(" and \
                        not (fi0 <= q < fi1) and \
                        not any(a <= q < b for a, b in regions):
                    drop.update(idx)
                    break
        self.roots = [r for i, r in enumerate(p.roots) if i not in drop]
        self.parser = p

    def _instance(self, p, mod):
        p.take()
        if p.peek() == "#":
            p.take()
            p.skip_balanced()
        p.take()                              # instance name
        if p.peek() == "[":
            p.skip_balanced()
        p.take("(")
        inputs = self.modules.get(mod, set())
        while p.peek() != ")":
            if p.peek() == ".":
                p.take()
                port = p.take().text
                p.take("(")
                if p.peek() != ")":
                    e = p.expr(port in inputs)
                    if port in inputs:
                        p.roots.append(Root(e, "port"))
                p.take(")")
            else:
                p.expr(False)                 # positional: not mutated
            if p.peek() == ",":
                p.take()
        p.take(")")
        p.take(";")

    # ---- candidates
    def _candidates(self):
        p, t = self.parser, self.toks
        regs = set(x.text for x in t if x.kind == "id")
        out = []

        def add(node, op, kind, arg, anchor_tok):
            c = Candidate(self.path, t[anchor_tok].line, op, node, kind, arg,
                          (t[anchor_tok].start, len(out)))
            c.root = root
            node.muts.append(c)
            out.append(c)

        def walk(n, parent):
            if n.mutable and not t[n.i0].cond:
                if n.kind == "bin":
                    op = t[n.op].text
                    swap = {"==": ("eq", "!="), "!=": ("eq", "=="), "===": ("eq", "!=="),
                            "!==": ("eq", "==="), "<": ("rel", "<="), "<=": ("rel", "<"),
                            ">": ("rel", ">="), ">=": ("rel", ">"), "&&": ("logic", "||"),
                            "||": ("logic", "&&"), "&": ("bitw", "|"), "|": ("bitw", "&"),
                            "^": ("bitw", "|"), "+": ("arith", "-"), "-": ("arith", "+"),
                            "<<": ("shift", ">>"), ">>": ("shift", "<<"),
                            ">>>": ("shift", ">>")}.get(op)
                    if swap:
                        add(n, swap[0], "optok", swap[1], n.op)
                    if op in ("&&", "||", "&", "|", "^", "+", "*"):
                        add(n, "drop", "keep", 0, n.op)     # right term removed
                        add(n, "drop", "keep", 1, n.op)     # left term removed
                    elif op == "-":
                        add(n, "drop", "keep", 0, n.op)
                elif n.kind == "un" and t[n.op].text in ("!", "~"):
                    add(n, "negrm", "keep", 0, n.op)
                elif n.kind == "tern":
                    add(n, "negcond", "negkid", 0, n.kids[0].i1 if n.kids[0].i1 < len(t)
                        else n.i0)
                elif n.kind == "num" and not (parent is not None and parent.kind == "sel"):
                    new = const_mutant(t[n.i0].text)
                    if new is not None:
                        add(n, "const", "text", new, n.i0)
                elif n.kind == "sel":
                    idx = n.kids[1]
                    if idx.kind == "num":
                        v = parse_int(t[idx.i0].text)
                        if v is not None:
                            add(n, "index", "kid", (1, str(v + 1 if v == 0 else v - 1)), idx.i0)
                    elif all(t[q].text[:1].isupper() for q in range(idx.i0, idx.i1)
                             if t[q].kind == "id"):
                        # a parameter expression (parameters are UpperCamelCase): often the
                        # top index, so one below it
                        add(n, "index", "kidplus", (1, "-"), idx.i0)
                    else:
                        add(n, "index", "kidplus", (1, "+"), idx.i0)
            for k in n.kids:
                walk(k, n)

        for r in self.roots:
            n = r.node
            root = r
            if t[n.i0].cond:
                continue
            if r.role == "if" and n.mutable:
                add(n, "negcond", "negself", None, n.i0)
            if r.role == "rhs" and n.mutable and r.lhs is not None and \
                    not is_constant(n, t):
                lhs = p.text(r.lhs)
                rhs = p.text(n)
                if r.seq:
                    if rhs.strip() != lhs.strip():
                        add(n, "stuck", "text", lhs, r.lhs.i0)
                elif r.comb:
                    m = re.match(r"^(\w+)_d\b(.*)$", lhs, re.S)
                    if m and (m.group(1) + "_q") in regs:
                        hold = m.group(1) + "_q" + m.group(2)
                        if rhs.strip() != hold.strip():
                            add(n, "stuck", "text", hold, r.lhs.i0)
            walk(n, None)

        # ids: <file>:<line>:<op>:<n>, n in source order of the anchors
        out.sort(key=lambda c: (c.line, c.anchor))
        seen = {}
        for c in out:
            key = (c.line, c.op)
            c.id = "%s:%d:%s:%d" % (self.base, c.line, c.op, seen.get(key, 0))
            seen[key] = seen.get(key, 0) + 1
            c.before = squash(p.text(c.node))
            c.after = squash(self.render(c.node, ("plain", c)))
        self.cands = out

    # ---- rendering
    def slice(self, node, repl):
        """The node's source text with the given (char start, char end) -> text replacements."""
        s, e = self.toks[node.i0].start, self.toks[node.i1 - 1].end
        out, pos = [], s
        for (a, b), txt in sorted(repl.items()):
            out.append(self.src[pos:a])
            out.append(txt)
            pos = b
        out.append(self.src[pos:e])
        return "".join(out)

    def span(self, node):
        return (self.toks[node.i0].start, self.toks[node.i1 - 1].end)

    def render(self, node, mode):
        """mode: ("orig",), ("plain", candidate) or ("schema", {candidate ids})."""
        kids = [self.render(k, mode) for k in node.kids]
        repl = {self.span(k): r for k, r in zip(node.kids, kids)}
        base = self.slice(node, repl)
        if mode[0] == "orig":
            return base
        if mode[0] == "plain":
            for c in node.muts:
                if c is mode[1]:
                    # same line count: the rest of the node's last line stays on its line
                    return flat(self.mutant_text(c, node, kids, repl, base)) + \
                        "\n" * base.count("\n")
            return base
        mine = [c for c in node.muts if c.id in mode[1]]
        if not mine:
            return base
        # one selector is active at a time: a mutant's alternative holds the original children
        # (their schema text would repeat the subtree once per level: exponential)
        okids = [self.render(k, ("orig",)) for k in node.kids]
        orepl = {self.span(k): r for k, r in zip(node.kids, okids)}
        obase = self.slice(node, orepl)
        alts = [(c.k, flat(self.mutant_text(c, node, okids, orepl, obase))) for c in mine]
        out = "(%s)" % base
        for k, txt in reversed(alts):
            out = "((%s == %d) ? (%s) : %s)" % (SEL, k, txt, out)
        return out

    def mutant_text(self, c, node, kids, repl, base):
        t = self.toks
        if c.kind == "optok":
            r = dict(repl)
            r[(t[node.op].start, t[node.op].end)] = c.arg
            return self.slice(node, r)
        if c.kind == "keep":
            return "(%s)" % kids[c.arg]
        if c.kind == "negkid":
            r = dict(repl)
            r[self.span(node.kids[c.arg])] = "!(%s)" % kids[c.arg]
            return self.slice(node, r)
        if c.kind == "negself":
            return "!(%s)" % base
        if c.kind == "text":
            return c.arg
        if c.kind == "kid":
            r = dict(repl)
            r[self.span(node.kids[c.arg[0]])] = c.arg[1]
            return self.slice(node, r)
        if c.kind == "kidplus":
            r = dict(repl)
            r[self.span(node.kids[c.arg[0]])] = "(%s) %s 1'b1" % (kids[c.arg[0]], c.arg[1])
            return self.slice(node, r)
        raise AssertionError(c.kind)

    def text_with(self, mode, inserts=None):
        """The whole file with every root rendered in mode (root spans do not overlap), and
        the given (offset, text) insertions."""
        repl = {}
        for r in self.roots:
            txt = self.render(r.node, mode)
            sp = self.span(r.node)
            if txt != self.src[sp[0]:sp[1]]:
                repl[sp] = txt
        for pos, txt in inserts or ():
            repl[(pos, pos)] = txt
        out, pos = [], 0
        for (a, b), txt in sorted(repl.items()):
            out.append(self.src[pos:a])
            out.append(txt)
            pos = b
        out.append(self.src[pos:])
        return "".join(out)

    def plain(self, cand):
        """The file with this one mutant applied (only its root is rendered again)."""
        a, b = self.span(cand.root.node)
        return self.src[:a] + self.render(cand.root.node, ("plain", cand)) + self.src[b:]

    def schema(self, ids):
        """The instrumented copy: every candidate in ids behind its selector, and the selector
        read once at start through DPI-C (inserted on the module header's line: line numbers,
        and so the lint.vlt waivers, stay as they are)."""
        decl = (' import "DPI-C" function int %s(); integer %s; initial %s = %s();'
                % (DPI, SEL, SEL, DPI))
        return self.text_with(("schema", ids), [(pos, decl) for pos in self.insert_at])


def flat(s):
    """An expression's text on one line: comments dropped, line breaks made spaces (a schema's
    mutant alternative is added beside the original, which keeps the line breaks)."""
    return re.sub(r"//[^\n]*|/\*.*?\*/", " ", s, flags=re.S).replace("\n", " ")


def squash(s, width=70):
    s = re.sub(r"\s+", " ", s).strip()
    return s if len(s) <= width else s[:width - 3] + "..."


NUM_RE = re.compile(r"^(\d[\d_]*)?'([sS]?)([bBoOdDhH])\s*([0-9a-fA-F_]+)$")


def parse_int(text):
    if re.match(r"^\d[\d_]*$", text):
        return int(text.replace("_", ""))
    m = NUM_RE.match(text)
    if not m:
        return None
    base = {"b": 2, "o": 8, "d": 10, "h": 16}[m.group(3).lower()]
    try:
        return int(m.group(4).replace("_", ""), base)
    except ValueError:
        return None


def const_mutant(text):
    """The constant +1 (or -1 at the top of its width; a 1-bit constant flipped), same size and
    base; None for x/z constants and reals."""
    if re.match(r"^\d[\d_]*$", text):
        return str(int(text.replace("_", "")) + 1)
    m = NUM_RE.match(text)
    if not m:
        return None
    size, sgn, b = m.group(1), m.group(2), m.group(3)
    base = {"b": 2, "o": 8, "d": 10, "h": 16}[b.lower()]
    try:
        v = int(m.group(4).replace("_", ""), base)
    except ValueError:
        return None
    w = int(size.replace("_", "")) if size else 32
    nv = v + 1 if v + 1 < (1 << w) else v - 1
    digits = {2: "{:b}", 8: "{:o}", 10: "{:d}", 16: "{:X}"}[base].format(nv)
    if base == 16 and m.group(4).islower():
        digits = digits.lower()
    return "%s'%s%s%s" % (size or "", sgn, b, digits)


def is_constant(node, toks):
    """True for a number, a replication/concatenation of numbers, a parenthesized constant."""
    if node.kind == "num":
        return True
    if node.kind in ("paren", "repl", "concat", "un"):
        return all(is_constant(k, toks) for k in node.kids)
    return False


# ================================================================ blocks, files, harnesses
def module_ports(path):
    """Input port names of the module in path (ANSI header)."""
    src = blocks._strip_comments(open(os.path.join(ROOT, path), errors="replace").read())
    m = re.search(r"\bmodule\s+\w+\s*(?:#\s*\(.*?\)\s*)?\((.*?)\)\s*;", src, re.S)
    ins = set()
    if not m:
        return ins
    direction = None
    for tok in re.findall(r"\[[^\]]*\]|[A-Za-z_]\w*", m.group(1)):
        if tok in ("input", "output", "inout"):
            direction = tok
        elif tok.startswith("[") or tok in ("wire", "reg", "signed", "logic", "integer"):
            continue
        elif direction == "input":
            ins.add(tok)
    return ins


INST_RE = re.compile(r"\b([A-Za-z_]\w*)\s*(?:#\s*\(|[A-Za-z_]\w*\s*(?:\[[^\]]*\]\s*)?\()")


def instantiated(path, names):
    src = blocks._strip_comments(open(os.path.join(ROOT, path), errors="replace").read())
    own = os.path.basename(path)[:-2]
    return {m.group(1) for m in INST_RE.finditer(src)} & (names - {own})


class Scope:
    """One block's files, harnesses, regression entries."""

    def __init__(self, blk, every):
        self.blk = blk
        common = [b for b in every if b.kind == "shared"]
        self.dirs = blk.rtl_dirs()
        self.vlts = [v for x in common if x is not blk for v in x.vlt()] + blk.vlt()
        self.files = list(blk.rtl)
        self.harnesses = [h for h in blk.harnesses if not h.bench and not h.hier]
        # module -> file over rtl/common, the block folder and the harnesses' own Verilog
        mod2file = {}
        for d in self.dirs:
            for f in sorted(glob.glob(os.path.join(ROOT, d, "*.v"))):
                mod2file[os.path.basename(f)[:-2]] = os.path.relpath(f, ROOT)
        for h in self.harnesses:
            for v in h.verilog:
                mod2file.setdefault(os.path.basename(v)[:-2], v)
        self.mod2file = mod2file
        names = set(mod2file)
        self.graph = {m: instantiated(f, names) for m, f in mod2file.items()}
        self.inputs = {m: module_ports(f) for m, f in mod2file.items()}
        # files each harness elaborates (static closure from its top)
        self.h_files = {}
        for h in self.harnesses:
            seen, todo = set(), [h.top]
            while todo:
                m = todo.pop()
                if m in seen or m not in mod2file:
                    continue
                seen.add(m)
                todo.extend(self.graph.get(m, ()))
            self.h_files[h.name] = {mod2file[m] for m in seen}

    def harnesses_of(self, path):
        return [h for h in self.harnesses if path in self.h_files[h.name]]


def load_entries():
    """Every regression entry: (list, group, name, command, harnesses it runs)."""
    out = []
    for path in sorted(glob.glob(os.path.join(ROOT, "tests", "*.list"))):
        rel = os.path.relpath(path, ROOT)
        with open(path) as f:
            for line in f:
                line = line.split("#", 1)[0].strip()      # as tests/run_tests.py reads it
                if not line:
                    continue
                parts = line.split(None, 2)
                if len(parts) < 3:
                    continue
                text = parts[2]
                for s in re.findall(r"\btests/[\w/.-]+\.(?:sh|py)\b", text):
                    try:
                        text += "\n" + open(os.path.join(ROOT, s)).read()
                    except OSError:
                        pass
                hs = set(re.findall(r"\btb/([\w.-]+)/\1(?![\w-])", text))
                out.append((rel, parts[0], parts[1], parts[2], hs))
    return out


# ================================================================ selection
def choose(files, count, seed, blk_name):
    """count candidates spread over the files: files in a seeded order, round-robin, each file's
    candidates in a seeded order that cycles through the operators."""
    rng = random.Random("%d:%s" % (seed, blk_name))
    per_file = []
    for f in files:
        by_op = {}
        for c in f.cands:
            by_op.setdefault(c.op, []).append(c)
        ops = sorted(by_op)
        rng.shuffle(ops)
        for op in ops:
            rng.shuffle(by_op[op])
        seq = []
        while any(by_op.values()):
            for op in ops:
                if by_op[op]:
                    seq.append(by_op[op].pop())
        if seq:
            per_file.append(seq)
    rng.shuffle(per_file)
    out = []
    while len(out) < count and any(per_file):
        for seq in per_file:
            if seq and len(out) < count:
                out.append(seq.pop(0))
    return out


# ================================================================ lint of plain mutants
_lint_lock = threading.Lock()


def lint_mutant(scope, rf, cand, workdir):
    """'' when the plain mutant passes make lint's two checks, else the first error line."""
    d = os.path.join(workdir, re.sub(r"[^\w.-]", "_", cand.id))
    os.makedirs(d, exist_ok=True)
    path = os.path.join(d, rf.base)
    with open(path, "w") as f:
        f.write(rf.plain(cand))
    m = rf.base[:-2]
    ydirs = [x for dd in scope.dirs for x in ("-y", dd)]
    # -fno-dfg: Verilator 5.006's DFG optimizer stops with an internal error on some mutants
    cmd = ["verilator", "--lint-only", "-Wall", "-fno-dfg"] + ydirs + scope.vlts + \
        ["--top-module", m, path]
    p = subprocess.run(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    out = p.stdout.decode(errors="replace").strip()
    if p.returncode or out:
        return "verilator: " + first_msg(out)
    cmd = ["iverilog", "-g2005", "-Wall"] + [x for dd in scope.dirs for x in ("-y", dd, "-I", dd)] \
        + ["-s", m, "-o", "/dev/null", path]
    p = subprocess.run(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    # the waivers name the file by its place in the tree (rtl/<block>/<file>.v): Icarus's
    # messages about the mutated copy are matched as if they were about the original
    out = p.stdout.decode(errors="replace").replace(path, rf.path)
    out = iverilog_waivers.strip(out).strip()
    if p.returncode or out:
        return "iverilog: " + first_msg(out)
    shutil.rmtree(d, ignore_errors=True)
    return ""


def first_msg(out):
    for l in out.splitlines():
        if l.strip():
            return squash(re.sub(r"\S*/mutate/\S*/", "", l), 110)
    return "(exit status only)"


# ================================================================ builds and runs
MUTSEL_CPP = r"""// Generated by scripts/mutate.py: the mutant selector of the instrumented RTL (MUT_SEL).
#include <cstdlib>
extern "C" int mut_sel_dpi() {
  const char *s = std::getenv("MUT_SEL");
  return s ? std::atoi(s) : 0;
}
"""


RUNTIME_OBJS = ("verilated.o", "verilated_threads.o", "verilated_dpi.o", "tb_lib.o")


def build_harness(scope, h, srcdir, outdir, log):
    """Verilate harness h with the instrumented copies in srcdir found first; returns the
    binary's path or None (the log says why)."""
    os.makedirs(outdir, exist_ok=True)
    cpp = os.path.join(outdir, "mutsel_dpi.cpp")
    with open(cpp, "w") as f:
        f.write(MUTSEL_CPP)
    blk = scope.blk
    top = h.top_file()
    inst = os.path.join(srcdir, os.path.basename(top))
    topsrc = inst if os.path.isfile(inst) and top not in h.verilog else os.path.join(ROOT, top)
    flags = ["-y", srcdir]
    for d in scope.dirs:
        flags += ["-y", os.path.join(ROOT, d), "-I" + os.path.join(ROOT, d)]
    flags += [os.path.join(ROOT, v) for v in scope.vlts]
    verilog = []
    for v in h.verilog:
        iv = os.path.join(srcdir, os.path.basename(v))
        verilog.append(iv if os.path.isfile(iv) else os.path.join(ROOT, v))
    fl = []
    for x in h.verilator_flags():
        fl.append(x.replace("$(CURDIR)", ROOT))
    lib = os.path.join(ROOT, BUILD, "cmodel", "lib%s.a" % blk.name)
    cflags = "-I%s/tb/common -I%s/cmodel/include -I%s/sw" % (ROOT, ROOT, ROOT)
    cmd = ["verilator", "--cc", "--exe", "--assert", "--x-assign", "unique",
           "--x-initial", "unique", "-Wno-fatal", "-Wno-lint", "-Wno-style", "-fno-dfg", "-O3",
           "-j", "1",
           "--top-module", h.top, "-Mdir", outdir, "-o", h.name,
           "-CFLAGS", cflags, "-LDFLAGS", "%s -lm -lz" % lib] + flags + fl + verilog
    if top not in h.verilog:
        cmd.append(topsrc)
    cmd += [os.path.join(ROOT, h.cpp), os.path.join(ROOT, "tb/common/tb_lib.cpp"), cpp]
    env = dict(os.environ)
    cc = shutil.which("ccache")
    if cc and "OBJCACHE" not in env:
        env["OBJCACHE"] = cc
    env["CCACHE_BASEDIR"] = ROOT
    env["CCACHE_NOHASHDIR"] = "true"
    stamp_text = json.dumps([cmd, [file_hash(os.path.join(srcdir, x)) for x in
                                   sorted(os.listdir(srcdir))],
                             file_hash(lib), file_hash(os.path.join(ROOT, h.cpp)),
                             file_hash(os.path.join(ROOT, "tb/common/tb_lib.h"))])
    stamp = os.path.join(outdir, "stamp.json")
    binary = os.path.join(outdir, h.name)
    if os.path.isfile(binary) and os.path.isfile(stamp) and open(stamp).read() == stamp_text:
        return binary, 0.0
    if os.path.exists(stamp):
        os.remove(stamp)
    t0 = time.time()
    if os.path.exists(binary):
        os.remove(binary)
    with open(log, "w") as f:
        f.write("$ " + " ".join(cmd) + "\n")
        f.flush()
        p = subprocess.run(cmd, cwd=ROOT, stdout=f, stderr=subprocess.STDOUT, env=env)
        if p.returncode == 0:
            # the run-time objects the regression's harnesses without tracing share (Makefile,
            # RUNTIME_RULE): copied in after code generation, newer than its makefile
            rt = os.path.join(ROOT, BUILD, "tb", "_runtime_nt")
            for o in RUNTIME_OBJS:
                if os.path.isfile(os.path.join(rt, o)):
                    shutil.copy(os.path.join(rt, o), os.path.join(outdir, o))
            mk = ["make", "-s", "-C", outdir, "-f", "V%s.mk" % h.top,
                  "OBJCACHE=%s" % env.get("OBJCACHE", "")]
            f.write("$ " + " ".join(mk) + "\n")
            f.flush()
            p = subprocess.run(mk, cwd=ROOT, stdout=f, stderr=subprocess.STDOUT, env=env)
    dt = time.time() - t0
    if p.returncode or not os.path.isfile(binary):
        return None, dt
    with open(stamp, "w") as f:
        f.write(stamp_text)
    return binary, dt


def file_hash(path):
    try:
        return hashlib.sha1(open(path, "rb").read()).hexdigest()
    except OSError:
        return ""


# What a farm's build directory links from the real one: the built tools, C tests and models
# only. Everything else an entry writes there (its work files, under build/<block...>/)
# stays in the farm, so two farms running the same entry at once (--jobs 2) do not overwrite each
# other's files, which made false kills. An entry that needs another prebuilt file fails at
# MUT_SEL=0 and is left out with a warning.
FARM_SHARED = ("sw", "sw-san", "tests", "cmodel", "blocks.mk")


def make_farm(farm, built):
    """A tree of symbolic links to the repository where build/tb/<h> is the instrumented build
    of each harness in built (name -> directory)."""
    if os.path.isdir(farm):
        shutil.rmtree(farm)
    os.makedirs(os.path.join(farm, BUILD, "tb"))
    for x in os.listdir(ROOT):
        if x != BUILD and not (BUILD.startswith(x + "/")):
            os.symlink(os.path.join(ROOT, x), os.path.join(farm, x))
    real = os.path.join(ROOT, BUILD)
    for x in FARM_SHARED:
        if os.path.exists(os.path.join(real, x)):
            os.symlink(os.path.join(real, x), os.path.join(farm, BUILD, x))
    for x in os.listdir(os.path.join(real, "tb")):
        src = built.get(x, os.path.join(real, "tb", x))
        os.symlink(src, os.path.join(farm, BUILD, "tb", x))
    for x, src in built.items():
        if not os.path.exists(os.path.join(farm, BUILD, "tb", x)):
            os.symlink(src, os.path.join(farm, BUILD, "tb", x))


# A harness's mismatch line (tb_lib.cpp TbScore): once one is printed the run fails
STOP_RE = re.compile(r"^(?:MISMATCH\b|FAIL \S+ id=\d+)")
STDBUF = next((p for p in ("/usr/libexec/coreutils/libstdbuf.so",
                           "/usr/lib/coreutils/libstdbuf.so") if os.path.isfile(p)), None)


def run_entry(cmd, farm, sel, timeout, early=False):
    """(ok, seconds, why, output) of one regression command with MUT_SEL=sel in the farm.
    early: stop at the first mismatch line of a harness (the entry's unmutated run prints none):
    the harness would run to its end and fail anyway. Its output is line-buffered for that
    (coreutils' stdbuf library)."""
    env = dict(os.environ)
    env["MUT_SEL"] = str(sel)
    env["BUILD"] = BUILD
    # the entry's empty work directory, as tests/run_tests.py gives it (a farm runs one at a time)
    env["WORK"] = os.path.join(BUILD, "work", "entry")
    shutil.rmtree(os.path.join(farm, env["WORK"]), ignore_errors=True)
    os.makedirs(os.path.join(farm, env["WORK"]))
    if early and STDBUF:
        env["LD_PRELOAD"] = (STDBUF + " " + env.get("LD_PRELOAD", "")).strip()
        env["_STDBUF_O"] = "L"
    t0 = time.time()
    p = subprocess.Popen(cmd, shell=True, cwd=farm, env=env, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, start_new_session=True)
    lines, hit = [], threading.Event()
    stop = [None]

    def reader():
        for raw in p.stdout:
            l = raw.decode(errors="replace").rstrip("\n")
            lines.append(l)
            if early and stop[0] is None and STOP_RE.match(l):
                stop[0] = l
                hit.set()
        hit.set()

    th = threading.Thread(target=reader, daemon=True)
    th.start()
    finished = hit.wait(timeout)
    why = None
    if not finished:
        why = "timeout"
    elif stop[0] is not None:
        why = stop[0]
    if why is not None:
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    p.wait()
    th.join(5)
    dt = time.time() - t0
    out = "\n".join(lines)
    if why is not None:
        return False, dt, squash(why, 90), out
    lines = [l for l in lines if l.strip()]
    last = lines[-1] if lines else ""
    ok = p.returncode == 0
    m = RESULT.match(last)
    if m:
        ok = ok and int(m.group(1)) > 0 and int(m.group(2)) == 0
    if ok:
        return True, dt, "", out
    why = last if m else "exit %d" % p.returncode
    for l in lines:
        if re.search(r"assert|Assertion|%Error|hold rule|MISMATCH|mismatch|timeout", l):
            why = l
            break
    return False, dt, squash(why, 90), out


# ================================================================ equivalents, notes
def read_notes(path):
    """<mutant id> <text> per line ('#' comments, continuation lines start with whitespace)."""
    out, last = {}, None
    p = os.path.join(ROOT, path)
    if not os.path.isfile(p):
        return out
    for raw in open(p):
        if raw.startswith("#") or not raw.strip():
            last = None
            continue
        if raw[0].isspace() and last:
            out[last] += " " + raw.strip()
            continue
        parts = raw.strip().split(None, 1)
        last = parts[0]
        out[last] = parts[1] if len(parts) > 1 else ""
    return out


# ================================================================ the block run
class Runner:
    def __init__(self, args, every):
        self.a, self.every = args, every
        self.out = os.path.join(ROOT, args.out)
        self.entries = load_entries()
        self.equiv = read_notes(EQUIV_FILE)
        self.print_lock = threading.Lock()
        self.errors = 0                       # failed instrumented builds, broken baselines

    def say(self, s=""):
        with self.print_lock:
            print(s, flush=True)

    def files_of(self, scope):
        out = []
        pats = [p for p in (self.a.files or "").split(",") if p]
        for f in scope.files:
            if pats and not any(fnmatch.fnmatch(os.path.basename(f), p) for p in pats):
                continue
            rf = RtlFile(f, scope.inputs)
            for w in rf.warnings:
                self.say("mutate: warning: " + w)
            out.append(rf)
        return out

    def block(self, blk):
        a = self.a
        t_start = time.time()
        scope = Scope(blk, self.every)
        files = self.files_of(scope)
        hn = [x for x in (a.harness or "").split(",") if x]
        if hn:
            scope.harnesses = [h for h in scope.harnesses if h.name in hn]
        # only files some harness of the scope elaborates can be killed by a test
        covered = set().union(*scope.h_files.values()) if scope.h_files else set()
        hnames = {h.name for h in scope.harnesses}
        covered = {f for h, fs in scope.h_files.items() if h in hnames for f in fs}
        cand_files = [f for f in files if f.path in covered]
        uncovered = sorted(f.path for f in files if f.path not in covered and f.cands)
        chosen = choose(cand_files, a.count, a.seed, blk.name)
        chosen.sort(key=lambda c: (scope.files.index(c.file), c.line, c.id))
        by_path = {f.path: f for f in files}
        for i, c in enumerate(chosen, 1):
            c.k = i
        res = {c.id: {"id": c.id, "file": c.file, "line": c.line, "op": c.op,
                      "before": c.before, "after": c.after, "k": c.k, "result": None,
                      "by": ""} for c in chosen}
        total_cands = sum(len(f.cands) for f in files)
        self.say("== %s: %d mutation points in %d files, %d chosen (seed %d)%s"
                 % (blk.name, total_cands, len(files), len(chosen), a.seed,
                    "; no harness elaborates %s" % ", ".join(uncovered) if uncovered else ""))
        if a.list:
            for c in chosen:
                hs = ",".join(h.name for h in scope.harnesses_of(c.file))
                self.say("%-40s %-26s %-8s %s -> %s   [%s]" % (
                    c.id, "%s:%d" % (c.file, c.line), c.op, c.before, c.after, hs or "-"))
            return None
        if not chosen:
            return None
        work = os.path.join(self.out, blk.name)
        os.makedirs(work, exist_ok=True)
        # ---- lint of the plain mutants
        if not a.no_lint:
            with cf.ThreadPoolExecutor(max_workers=a.jobs) as ex:
                futs = {ex.submit(lint_mutant, scope, by_path[c.file], c,
                                  os.path.join(work, "lint")): c for c in chosen}
                for fut, c in futs.items():
                    why = fut.result()
                    if why:
                        res[c.id]["result"] = "killed-lint"
                        res[c.id]["by"] = why
        # mutants recorded as equivalent are not run again unless --check-equivalent
        live = [c for c in chosen if res[c.id]["result"] is None and
                (a.check_equivalent or c.id not in self.equiv)]
        # ---- instrumented copies
        srcdir = os.path.join(work, "src")
        if os.path.isdir(srcdir):
            shutil.rmtree(srcdir)
        os.makedirs(srcdir)
        ids_by_file = {}
        for c in live:
            ids_by_file.setdefault(c.file, set()).add(c.id)
        for path, ids in ids_by_file.items():
            with open(os.path.join(srcdir, os.path.basename(path)), "w") as f:
                f.write(by_path[path].schema(ids))
        # ---- harnesses, most living mutants per elaborated line first, built lazily
        entries_of = {}
        for e in self.entries:
            for h in e[4]:
                entries_of.setdefault(h, []).append(e)
        tried = set()
        built = {}
        build_s = 0.0
        while True:
            pending = [c for c in live if res[c.id]["result"] is None]
            best = None
            for h in scope.harnesses:
                if h.name in tried or not entries_of.get(h.name):
                    continue
                n = sum(1 for c in pending if c.file in scope.h_files[h.name])
                if not n:
                    continue
                cost = 300 + sum(len(open(os.path.join(ROOT, f)).read().splitlines())
                                 for f in scope.h_files[h.name])
                cost *= 1 + 0.2 * len(entries_of[h.name])
                key = (n / cost, h.name)
                if best is None or key > best[0]:
                    best = (key, h)
            if best is None:
                break
            h = best[1]
            tried.add(h.name)
            hdir = os.path.join(work, "tb", h.name)
            self.say("-- %s: building harness %s (%d living mutants in its files)"
                     % (blk.name, h.name,
                        sum(1 for c in pending if c.file in scope.h_files[h.name])))
            binary, dt = build_harness(scope, h, srcdir, hdir, os.path.join(work, h.name
                                                                              + ".build.log"))
            build_s += dt
            if not binary:
                self.errors += 1
                self.say("mutate: %s: the instrumented build failed (%s.build.log):"
                         % (h.name, os.path.join(a.out, blk.name, h.name)))
                log = open(os.path.join(work, h.name + ".build.log")).read().splitlines()
                for l in [l for l in log if "%Error" in l or "error:" in l][:8]:
                    self.say("    | " + l)
                continue
            built[h.name] = hdir
            self.run_harness(blk, scope, h, entries_of[h.name], built, pending, res, work)
        # ---- classify
        for c in chosen:
            r = res[c.id]
            if r["result"] is None:
                if c.id in self.equiv:
                    r["result"], r["by"] = "equivalent", self.equiv[c.id]
                else:
                    r["result"] = "survived"
                    if not scope.harnesses_of(c.file):
                        r["by"] = "no harness elaborates the file"
            elif c.id in self.equiv:
                self.say("mutate: warning: %s is listed in %s but was %s (%s)"
                         % (c.id, EQUIV_FILE, r["result"], r["by"]))
        for c in chosen:
            r = res[c.id]
            self.say("%-40s %-30s %-8s %s -> %s   %s%s" % (
                c.id, "%s:%d" % (c.file, c.line), c.op, c.before, c.after, r["result"],
                "  (%s)" % r["by"] if r["by"] else ""))
        summ = summary([res[c.id] for c in chosen])
        summ["wall_s"] = round(time.time() - t_start)
        summ["build_s"] = round(build_s)
        summ["harnesses"] = sorted(built)
        summ["seed"], summ["count"] = a.seed, a.count
        summ["points"] = total_cands
        self.say(summary_line(blk.name, summ))
        return {"summary": summ, "mutants": [res[c.id] for c in chosen]}

    def run_harness(self, blk, scope, h, entries, built, pending, res, work):
        a = self.a
        mine = [c for c in pending if c.file in scope.h_files[h.name]]
        nslots = max(1, a.jobs)
        farms = []
        for j in range(nslots):
            farm = os.path.join(work, "run", "w%d" % j)
            make_farm(farm, built)
            farms.append(farm)
        # baseline: every entry at MUT_SEL=0 (the original design) passes, and its time
        base = []
        for e in entries:
            ok, dt, why, out = run_entry(e[3], farms[0], 0, a.entry_timeout)
            if ok:
                # stop a mutant's run at its first mismatch when the unmutated run prints none
                early = not any(STOP_RE.match(l) for l in out.splitlines())
                base.append((dt, early, e))
            else:
                self.say("mutate: warning: %s fails at MUT_SEL=0 (%s): left out" % (e[2], why))
        base.sort(key=lambda x: x[0])
        self.say("-- %s: %d entries of %s pass unmutated (%.0f s); %d mutants to run"
                 % (blk.name, len(base), h.name, sum(x[0] for x in base), len(mine)))
        if not base:
            self.errors += 1
            return
        free = list(farms)
        lock = threading.Lock()

        def one(c):
            with lock:
                farm = free.pop()
            try:
                for dt, early, e in base:
                    ok, t, why, _ = run_entry(e[3], farm, c.k, max(3 * dt, dt + 10), early)
                    if not ok and why == "timeout":
                        # a slow run on a loaded machine is no hang: a timeout kills only when
                        # the entry also outlives twice that limit
                        ok, t, why, _ = run_entry(e[3], farm, c.k, max(6 * dt, dt + 60), early)
                        if why == "timeout":
                            why = "timeout (also at 6x its unmutated time)"
                    if not ok:
                        return c, e[2], why
                return c, None, ""
            finally:
                with lock:
                    free.append(farm)

        with cf.ThreadPoolExecutor(max_workers=nslots) as ex:
            for c, killer, why in ex.map(one, mine):
                if killer:
                    res[c.id]["result"] = "killed-test"
                    res[c.id]["by"] = "%s: %s" % (killer, why)
                self.say("   %-40s %s" % (c.id, "killed by %s" % killer if killer
                                          else "lives through %s" % h.name))


def summary(rs):
    n = len(rs)
    cnt = {k: sum(1 for r in rs if r["result"] == k)
           for k in ("killed-lint", "killed-test", "survived", "equivalent")}
    den = n - cnt["equivalent"] - cnt["killed-lint"]
    return {"mutants": n, **cnt, "score": (cnt["killed-test"] / den) if den else None}


def summary_line(name, s):
    return ("%s: %d mutants, %d killed-lint, %d killed-test, %d survived, %d equivalent, "
            "score %s" % (name, s["mutants"], s["killed-lint"], s["killed-test"],
                          s["survived"], s["equivalent"],
                          "%.1f%%" % (100 * s["score"]) if s["score"] is not None else "-"))


# ================================================================ report
DOC_HEAD = """# Mutation testing

`make mutate` (`scripts/mutate.py`) measures how well the regression checks the RTL: it changes
the RTL one small fault at a time (a *mutant*) and runs the regression entries whose harnesses
elaborate the changed file. A good regression fails on (*kills*) nearly every mutant. This page
is written by the tool from `{results}`; the explanations of the survivors come from
`tests/mutate/survivors.txt` and the equivalent mutants' reasons from
`tests/mutate/equivalent.txt`.

## Method

- **Mutants are source-level**, on the Verilog text (not Yosys's `mutate` on a netlist, as in
  YosysHQ's mcy): the harnesses are Verilator C++ programs that read the RTL's own signals, and
  a source mutant keeps its file and line for the report. Operators: equality and relational
  swaps (`==`/`!=`, `<`/`<=`, ...), `&&`/`||` and `&`/`|` swaps, `+`/`-` and shift swaps, a
  negated `if` or `?:` condition, a removed `!`/`~`, a constant +1 (or a flipped 1-bit
  constant), a register's next-value assignment stuck (holds its old value), one term of a
  sum, product or conjunction removed, a bit/element index off by one.
- **Mutation points** are found in every run-time expression: continuous assignments, `always`
  blocks, input connections of instances, and functions that are not called from a constant
  context. Simulation-only code (`` `ifndef SYNTHESIS`` checkers, and so `cc_hold_check`) and
  constant contexts (parameters, ranges, generate conditions, case labels) are left alone.
  `--count` mutants per block (default 40) are picked from `--seed` (default 1), round-robin
  over the block's files and, within a file, over the operators. A mutant's id is
  `<file>:<line>:<operator>:<n>`.
- **Killed by lint**: the mutated file alone fails `make lint`'s two checks (Verilator
  `--lint-only -Wall` with the lint.vlt files, Icarus `-g2005 -Wall`).
- **Killed by a test**: one of the regression entries (`tests/*.list`) that run a harness
  elaborating the file fails, or runs more than 3x its unmutated time (at least 10 s more) and
  again more than 6x (at least 60 s more) when rerun, so a slow run on a loaded machine is no
  kill. Only the block's own harnesses are used: a shared cell is judged by the shared cells'
  harnesses. Entries run in *farms* (`$BUILD/mutate/<block>/run/w<j>`, one per `--jobs`): trees
  of links to the repository whose `build/tb` holds the instrumented harnesses and whose
  `build/` links only the built tools, C tests and models, so an entry's work files are its
  farm's own (two farms sharing them made false kills at `--jobs 2`).
- **Mutant schemata** keep it affordable: each file gets one instrumented copy in which mutation
  point *k* is `((mut_sel_q == k) ? (mutant) : (original))`, the selector read once from the
  environment (`MUT_SEL`) through a DPI-C import. Each harness is Verilated once per block
  (`$BUILD/mutate/<block>/tb/<harness>`, without `-Wall` as fatal and without tracing), its
  entries are first run at `MUT_SEL=0` (the original design: they must pass, which validates the
  instrumented build), and each mutant is one run of those entries with its selector, shortest
  entry first, up to the first failure. Harnesses are built lazily: the one elaborating the
  most still-living mutants per line of RTL first.
- **Equivalent** mutants are listed with their reason in `tests/mutate/equivalent.txt` and are
  not run again (`--check-equivalent` runs them and reports a listed one that a test kills).
  Every other mutant that lives through every entry is a survivor: a test hole, explained in
  `tests/mutate/survivors.txt` until a test kills it.
- **Entries stop early**: a mutant's run of an entry ends at the harness's first mismatch line
  when the unmutated run prints none (the harness would run to its end and fail anyway).
- **Score** = killed-test / (mutants - equivalent - killed-lint). Target: 95 % on at least 30
  mutants per block; every survivor becomes a test or is explained.

Run: `make mutate` (every block; `MUTATE_ARGS="--block <name> --count N --seed S"` for part of
it), `scripts/mutate.py --list` to see the mutants without running them.
"""


def mutant_rows(data, result, text):
    """The report's table rows of every mutant with this result (blocks in report order):
    id, change, and text(mutant) as the last column; one '| - | - | none |' row if there is none."""
    rows = ["| `%s` | `%s` -> `%s` | %s |" % (r["id"], md(r["before"]), md(r["after"]),
                                             md_text(text(r)))
            for name in sorted(data, key=lambda n: (not n.startswith("common"), n))
            for r in data[name]["mutants"] if r["result"] == result]
    return rows or ["| - | - | none |"]


def write_doc(path, data):
    L = [DOC_HEAD.format(results=os.path.join(BUILD, "mutate", "results.json"))]
    L.append("## Scores\n")
    L.append("| block | seed | points | mutants | killed-lint | killed-test | survived | "
             "equivalent | score | harness builds | wall time |")
    L.append("|---|---|---|---|---|---|---|---|---|---|---|")
    for name in sorted(data, key=lambda n: (not n.startswith("common"), n)):
        s = data[name]["summary"]
        L.append("| %s | %d | %d | %d | %d | %d | %d | %d | %s | %d | %s |" % (
            name, s["seed"], s.get("points", 0), s["mutants"], s["killed-lint"],
            s["killed-test"], s["survived"], s["equivalent"],
            "%.1f %%" % (100 * s["score"]) if s["score"] is not None else "-",
            len(s.get("harnesses", [])), fmt_time(s.get("wall_s", 0))))
    notes = read_notes(NOTES_FILE)
    L.append("\n## Survivors\n")
    L.append("What each surviving mutant means, and the test that would kill it "
             "(`tests/mutate/survivors.txt`).\n")
    L.append("| mutant | change | meaning |")
    L.append("|---|---|---|")
    L += mutant_rows(data, "survived",
                     lambda r: notes.get(r["id"], r["by"] or "not yet explained"))
    L.append("\n## Equivalent mutants\n")
    L.append("| mutant | change | why no test can kill it |")
    L.append("|---|---|---|")
    L += mutant_rows(data, "equivalent", lambda r: r["by"])
    L.append("\n## Every mutant\n")
    for name in sorted(data, key=lambda n: (not n.startswith("common"), n)):
        L.append("<details><summary>%s (%d)</summary>\n" % (name, len(data[name]["mutants"])))
        L.append("| mutant | change | result | by |")
        L.append("|---|---|---|---|")
        for r in data[name]["mutants"]:
            L.append("| `%s` | `%s` -> `%s` | %s | %s |" % (
                r["id"], md(r["before"]), md(r["after"]), r["result"], md_text(r["by"])))
        L.append("\n</details>\n")
    with open(path, "w") as f:
        f.write("\n".join(L).rstrip() + "\n")


def md(s):
    return s.replace("|", "\\|").replace("`", "'")


def md_text(s):
    return s.replace("|", "\\|")


def fmt_time(s):
    s = int(s)
    return "%d min %02d s" % (s // 60, s % 60) if s >= 60 else "%d s" % s


# ================================================================ self-test
def selftest(every, seed):
    """--selftest: generation is deterministic, every candidate applies (the plain mutant
    differs from the original in its line only, the schema keeps every line), and a few
    instrumented files pass Verilator's parser. Ends 'N passed, N failed'."""
    npass = nfail = 0

    def check(ok, what):
        nonlocal npass, nfail
        if ok:
            npass += 1
        else:
            nfail += 1
            print("FAIL: " + what)

    lists = []
    for rep in range(2):
        out = []
        for b in every:
            scope = Scope(b, every)
            files = [RtlFile(f, scope.inputs) for f in scope.files]
            for f in files:
                for w in f.warnings:
                    print("warning: " + w)
            ch = choose(files, 40, seed, b.name)
            out.append((b.name, [c.id for c in ch], sum(len(f.cands) for f in files)))
            if rep == 0:
                bad = 0
                for f in files:
                    lines = f.src.splitlines()
                    for c in f.cands:
                        txt = f.plain(c)
                        ml = txt.splitlines()
                        diff = [i for i, (x, y) in enumerate(zip(lines, ml)) if x != y]
                        if txt == f.src or len(ml) != len(lines) or not diff:
                            bad += 1
                            if bad <= 5:
                                print("  %s: plain mutant does not apply" % c.id)
                    ids = {c.id for c in f.cands}
                    sch = f.schema(ids)
                    check(len(sch.splitlines()) == len(lines),
                          "%s: the schema copy keeps the line count" % f.path)
                    check(len(set(c.id for c in f.cands)) == len(f.cands),
                          "%s: mutant ids are unique" % f.path)
                check(bad == 0, "%s: every mutant applies (%d do not)" % (b.name, bad))
                check(len(ch) >= min(30, sum(len(f.cands) for f in files)),
                      "%s: at least 30 mutants chosen" % b.name)
        lists.append(out)
    check(lists[0] == lists[1], "the mutant lists are the same on a second generation")
    for name, ids, n in lists[0]:
        print("%-12s %5d points, %d chosen, first %s" % (name, n, len(ids), ids[0] if ids else "-"))
    print("%d passed, %d failed" % (npass, nfail))
    return 1 if nfail else 0


def report(a):
    path = os.path.join(ROOT, a.out, "results.json")
    if not os.path.isfile(path):
        print("mutate: no %s: run the mutants first" % os.path.join(a.out, "results.json"))
        return 1
    data = json.load(open(path))
    equiv = read_notes(EQUIV_FILE)
    for name, blk in data.items():
        for r in blk["mutants"]:
            if r["result"] == "survived" and r["id"] in equiv:
                r["result"], r["by"] = "equivalent", equiv[r["id"]]
        summ = summary(blk["mutants"])
        blk["summary"].update(summ)
    with open(path, "w") as f:
        json.dump(data, f, indent=1)
    if a.doc:
        write_doc(os.path.join(ROOT, a.doc), data)
    for name in sorted(data, key=lambda n: (not n.startswith("common"), n)):
        print(summary_line(name, data[name]["summary"]))
    return 0


# ================================================================ main
def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--block", action="append", default=[],
                    help="block(s) to mutate (default: every one; repeat or comma-separate)")
    ap.add_argument("--count", type=int, default=40, help="mutants per block (default 40)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=1, help="mutants run in parallel (default 1)")
    ap.add_argument("--list", action="store_true", help="list the mutants, run nothing")
    ap.add_argument("--files", default="", help="only these RTL files (comma-separated globs)")
    ap.add_argument("--harness", default="", help="only these harnesses (comma-separated)")
    ap.add_argument("--no-lint", action="store_true", help="skip the lint check")
    ap.add_argument("--check-equivalent", action="store_true",
                    help="run the mutants listed in %s too (a killed one is reported)"
                    % EQUIV_FILE)
    ap.add_argument("--out", default=os.path.join(BUILD, "mutate"),
                    help="work directory and results.json (default $BUILD/mutate)")
    ap.add_argument("--doc", default="docs/mutation.md",
                    help="the Markdown report ('' for none)")
    ap.add_argument("--entry-timeout", type=int, default=1800,
                    help="seconds for an unmutated entry (default 1800)")
    ap.add_argument("--nice", type=int, default=10, help="niceness of the run (default 10)")
    ap.add_argument("--report", action="store_true",
                    help="rewrite the report from results.json with the current equivalent list "
                    "and survivor notes (a listed survivor becomes equivalent); run nothing")
    ap.add_argument("--selftest", action="store_true",
                    help="check generation (deterministic, every mutant applies) and exit")
    a = ap.parse_args()
    try:
        every = blocks.load()
    except blocks.DescriptionError as e:
        sys.exit("mutate: %s" % e)
    if a.selftest:
        sys.exit(selftest(every, a.seed))
    if a.report:
        sys.exit(report(a))
    names = [n for x in a.block for n in x.split(",") if n]
    known = [b.name for b in every]
    for n in names:
        if n not in known:
            sys.exit("mutate: --block %s: no such block (known: %s)" % (n, ", ".join(known)))
    if a.count < 1:
        sys.exit("mutate: --count must be at least 1")
    if a.jobs < 1:
        sys.exit("mutate: --jobs must be at least 1")
    if a.nice:
        try:
            os.nice(a.nice)
        except OSError:
            pass
    sel = [b for b in every if not names or b.name in names]
    if not a.list:
        for b in sel:
            lib = os.path.join(ROOT, BUILD, "cmodel", "lib%s.a" % b.name)
            if not os.path.isfile(lib) or not os.path.isdir(os.path.join(ROOT, BUILD, "tb")):
                sys.exit("mutate: %s missing: run make build-tests first" % lib)
    r = Runner(a, every)
    out = {}
    for b in sel:
        res = r.block(b)
        if res is not None:
            # a run on part of a block (--files, --harness) is kept beside the whole block's
            key = b.name + ("" if not (a.files or a.harness) else
                            " [%s]" % "; ".join(x for x in (a.files, a.harness) if x))
            out[key] = res
    if a.list or not out:
        return 1 if r.errors else 0
    path = os.path.join(ROOT, a.out, "results.json")
    data = {}
    if os.path.isfile(path):
        try:
            data = json.load(open(path))
        except ValueError:
            data = {}
    data.update(out)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        json.dump(data, f, indent=1)
    if a.doc:
        write_doc(os.path.join(ROOT, a.doc), data)
    print()
    for name in sorted(data, key=lambda n: (not n.startswith("common"), n)):
        print(summary_line(name, data[name]["summary"]))
    if r.errors:
        print("mutate: %d harness(es) could not be used (see above)" % r.errors)
    return 1 if r.errors else 0


if __name__ == "__main__":
    sys.exit(main())
