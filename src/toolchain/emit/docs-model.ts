// Stage: the documentation model. Input: the frontend's result for every kernel module (so
// the docs describe exactly what the prover checks, fail as it does, and parse no source
// again). Output: ModuleDoc per module: each exported verified function's signature as written, its doc comment, its
// requires and ensures in the form a reader sees, the module's exported types and the laws
// its header names. It writes and renders nothing (docs-emit.ts does).

import { type Layout, loadKernel } from "../frontend/load.ts";
import { withoutModelTag } from "../frontend/models.ts";
import type { Fn } from "../ir/ir.ts";

/** One exported, verified kernel function as the documentation shows it. */
export interface FnDoc {
  name: string;
  /** type parameters as written ("<T>"), or "" */
  tparams: string;
  /** the parameters as written, with their types */
  typedParams: string[];
  returns: string;
  /** the function's own doc comment, without the comment markers */
  summary: string;
  requires: string[];
  ensures: string[];
  /** a proof-only model (frontend/models.ts): proven, never called by the engine */
  model: boolean;
  /** `//@ spec`: for specifications only, so not in the `safecut/kernel` entry */
  specOnly: boolean;
}

/** One kernel module: its verified functions, exported types and the laws its header names. */
export interface ModuleDoc {
  name: string;
  source: string;
  laws: string[];
  /** proof companion under proofs/dafny, where the capitalised predicates are defined */
  companion: string | null;
  fns: FnDoc[];
  types: string[];
}

/** A specification in the form a reader sees: `\\result` is the function's result. */
function readable(text: string): string {
  return text
    .replace(/\\result\b/g, "result")
    .replace(/\s+/g, " ")
    .trim();
}

function fnDoc(f: Fn): FnDoc {
  const w = f.written;
  const requires: string[] = [];
  const ensures: string[] = [];
  for (const c of w.contract) {
    if (c.kind === "requires") requires.push(readable(c.text));
    else if (c.kind === "ensures") ensures.push(readable(c.text));
    else {
      // `//@ type x nat`: x (a parameter, or \result) is a natural number
      const [what] = readable(c.text).split(/\s+/);
      (what === "result" ? ensures : requires).push(`${what} >= 0 (a natural number)`);
    }
  }
  return {
    name: f.name,
    tparams: w.tparams,
    typedParams: w.typedParams,
    returns: w.returns,
    summary: withoutModelTag(w.doc),
    requires,
    ensures,
    model: w.model,
    specOnly: f.spec,
  };
}

/** Every kernel module with its exported verified functions and exported types, in file order. */
export function kernelModules(l: Layout): ModuleDoc[] {
  // the frontend's result: the docs describe exactly what the prover checks (and fail as it does)
  const { mods } = loadKernel(l);
  return mods.map((m) => ({
    name: m.name,
    source: m.source,
    laws: m.laws,
    companion: m.companion,
    // an `extern` function is trusted, not proven: it stays out of the verified entry
    fns: m.fns.filter((f) => f.written.exported && !f.extern).map(fnDoc),
    types: m.exportedTypes,
  }));
}
