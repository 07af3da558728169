// Stage: the program table. Input: every kernel module's IR and the text of each proof
// companion. Output: ProgramInfo, the one namespace the kernel shares: every union, record
// and function by name (with the module declaring it and whether it is a function or a
// method), the names each companion declares, and which modules each module reaches through
// its imports. It rejects a name declared twice, an unknown import and an import of an
// undeclared name. It does not look into function bodies beyond their calls, type anything
// or print anything.

import { type Expr, type Fn, type Module, type Param, type Pos, TranslateError, VALUE_EQUALITY } from "../ir/ir.ts";
import type { FnKind } from "../ir/resolved-ir.ts";
import { forEachExpr } from "../ir/walk.ts";

/** A union type: its tags and constructors. */
export interface UnionInfo {
  /** string literal -> constructor; empty for an enum (its members are numbers in JavaScript) */
  tags: Map<string, string>;
  numeric: boolean;
  ctors: Set<string>;
}

/** What the later stages know about the whole kernel: types, functions, and proof companions. */
export interface ProgramInfo {
  unions: Map<string, UnionInfo>;
  records: Map<string, Param[]>;
  fns: Map<string, { fn: Fn; kind: FnKind; module: string }>;
  /** names declared in each module's proof companion */
  companionNames: Map<string, Set<string>>;
  /** modules each module includes, transitively (itself included) */
  reach: Map<string, Set<string>>;
  /** the calls each function's code makes (not its specifications), filled in by resolution */
  codeCalls: Map<string, Array<{ to: string; pos: Pos }>>;
}

/** Collects the declarations of every module and decides which functions become methods. */
export function programInfo(mods: Module[], companionText: Map<string, string>): ProgramInfo {
  const info: ProgramInfo = {
    unions: new Map(),
    records: new Map(),
    fns: new Map(),
    companionNames: new Map(),
    reach: new Map(),
    codeCalls: new Map(),
  };
  const seen = new Map<string, Pos>();
  const declare = (name: string, pos: Pos) => {
    const prev = seen.get(name);
    if (prev)
      throw new TranslateError(
        pos,
        `${name} is already declared at ${prev.file}:${prev.line}:${prev.col} (the kernel shares one namespace)`,
      );
    seen.set(name, pos);
  };
  for (const m of mods) {
    for (const t of m.types) {
      declare(t.name, t.pos);
      if (t.k === "union") {
        info.unions.set(t.name, {
          tags: new Map(t.numeric ? [] : t.tags.map((x) => [x.tag, x.ctor])),
          numeric: t.numeric,
          ctors: new Set(t.tags.map((x) => x.ctor)),
        });
      } else info.records.set(t.name, t.fields);
    }
    for (const f of m.fns) {
      declare(f.name, f.pos);
      if (f.name === VALUE_EQUALITY)
        throw new TranslateError(
          f.pos,
          `${VALUE_EQUALITY} is the specification's value equality: a kernel function cannot take that name`,
        );
      info.fns.set(f.name, { fn: f, kind: f.extern || f.pureExpr ? "function" : "method", module: m.name });
    }
    const text = companionText.get(m.name);
    const names = new Set<string>();
    if (text)
      for (const mm of text.matchAll(/\b(?:function|predicate|lemma)\s+(?:\{[^}]*\}\s*)*([A-Za-z][A-Za-z0-9_']*)/g))
        names.add(mm[1]);
    info.companionNames.set(m.name, names);
  }
  // a record literal is emitted as the unqualified constructor R(...): no union may have a
  // constructor of that name (Dafny would find it ambiguous)
  for (const m of mods) {
    for (const t of m.types) {
      if (t.k !== "union") continue;
      for (const x of t.tags) {
        if (info.records.has(x.ctor)) {
          throw new TranslateError(
            t.pos,
            `union member "${x.tag}" of ${t.name} becomes the constructor ${x.ctor}, which is also the record type ${x.ctor}`,
          );
        }
      }
    }
  }
  const byName = new Map(mods.map((m) => [m.name, m]));
  const reachOf = (name: string, acc: Set<string>): Set<string> => {
    if (acc.has(name)) return acc;
    acc.add(name);
    for (const i of byName.get(name)?.imports ?? []) reachOf(i, acc);
    return acc;
  };
  for (const m of mods) {
    for (const i of m.imports)
      if (!byName.has(i))
        throw new TranslateError({ file: m.source, line: 1, col: 1 }, `import of unknown kernel module './${i}'`);
    for (const x of m.imported) {
      const from = byName.get(x.from);
      if (from && !from.fns.some((f) => f.name === x.name) && !from.types.some((t) => t.name === x.name)) {
        throw new TranslateError(x.pos, `${x.from}.ts declares no ${x.name}`);
      }
    }
    info.reach.set(m.name, reachOf(m.name, new Set()));
  }
  // A pure-shaped function that calls a method must itself be a method.
  for (let changed = true; changed; ) {
    changed = false;
    for (const entry of info.fns.values()) {
      if (entry.kind === "function" && !entry.fn.extern && entry.fn.pureExpr && callsMethod(entry.fn.pureExpr, info)) {
        entry.kind = "method";
        changed = true;
      }
    }
  }
  return info;
}

function callsMethod(e: Expr, info: ProgramInfo): boolean {
  let found = false;
  forEachExpr(e, (x) => {
    if (x.k === "call" && info.fns.get(x.fn)?.kind === "method") found = true;
  });
  return found;
}

/**
 * Rejects recursion in code (after resolution has filled `codeCalls`): a function whose code
 * calls itself, directly or through others, takes a stack frame per step, so a proof of it by
 * `decreases` says nothing about Node, which overflows its stack at some ten thousand frames.
 * Recursion belongs in `//@ spec` functions; code calls a loop proven equal to them.
 */
export function rejectCodeRecursion(info: ProgramInfo): void {
  const done = new Set<string>();
  const path: string[] = [];
  const visit = (fn: string): void => {
    if (done.has(fn)) return;
    path.push(fn);
    for (const c of info.codeCalls.get(fn) ?? []) {
      if (info.fns.get(c.to)?.fn.spec) continue;
      const at = path.indexOf(c.to);
      if (at >= 0) {
        const cycle = [...path.slice(at), c.to].join(" -> ");
        throw new TranslateError(
          c.pos,
          `recursion in code (${cycle}): each step takes a stack frame, and Node's call stack overflows long before a proof by decreases runs out; write a loop, or mark a recursive definition //@ spec (for specifications only) with a loop proven equal for code`,
        );
      }
      visit(c.to);
    }
    path.pop();
    done.add(fn);
  };
  for (const [name, entry] of info.fns) if (!entry.fn.spec) visit(name);
}
