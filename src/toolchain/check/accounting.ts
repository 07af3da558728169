// Accounting for every verification item: the prover's per-item outcomes (Dafny 2.3's
// `/trace` lines, Dafny 4's CSV log) are matched against the declarations of the files
// verified together, so that an item the prover leaves uncounted (Z3 answering `unknown`
// makes Boogie 2.3 report "0 errors" while the item was never proven) fails the check.

import type { Decl } from "./dafny-scan.ts";

/** One verification item as the prover reported it. */
export interface ItemOutcome {
  /** the Dafny name of the function, method or lemma */
  name: string;
  /** "well-formedness" (the specification and a function's body) or "correctness" (a method's or lemma's body) */
  phase: string;
  /** the prover's word for the outcome: "verified" and "Passed" are the only proofs */
  outcome: string;
}

const PHASES: Record<string, string> = { CheckWellformed: "well-formedness", Impl: "correctness" };

/** The Dafny name behind a Boogie implementation name such as `Impl$$_module.__default.my__lemma`. */
function dafnyNameOfBoogie(qualified: string): string {
  const last = qualified.slice(qualified.lastIndexOf(".") + 1);
  // Dafny 2.3 doubles every underscore of a source name in Boogie names
  return last.replace(/__/g, "_");
}

/** Reads Dafny 2.3's `/trace` output: "Verifying Impl$$M.f ..." then "  [t s, n proof obligations]  verified". */
export function parseTrace23(output: string): ItemOutcome[] {
  const items: ItemOutcome[] = [];
  let pending: { name: string; phase: string } | null = null;
  for (const line of output.split("\n")) {
    const v = /^Verifying ([A-Za-z]+)\$\$(\S+) \.\.\.\s*$/.exec(line);
    if (v) {
      if (pending) items.push({ ...pending, outcome: "no outcome reported" });
      pending = { name: dafnyNameOfBoogie(v[2]), phase: PHASES[v[1]] ?? v[1] };
      continue;
    }
    const o = /^\s*\[[^\]]*proof obligations?\]\s+(.+?)\s*$/.exec(line);
    if (o && pending) {
      items.push({ ...pending, outcome: o[1] });
      pending = null;
    }
  }
  if (pending) items.push({ ...pending, outcome: "no outcome reported" });
  return items;
}

/** Reads Dafny 4's `--log-format csv` file: "name (well-formedness),Passed,...". */
export function parseCsv4(csv: string): ItemOutcome[] {
  return csv
    .split("\n")
    .slice(1)
    .filter((l) => l.trim() !== "")
    .map((l) => {
      const [display, outcome] = l.split(",");
      const m = /^(.*?)(?: \(([^)]*)\))?$/.exec(display.trim());
      const full = m?.[1] ?? display;
      return { name: full.slice(full.lastIndexOf(".") + 1), phase: m?.[2] ?? "", outcome: outcome ?? "" };
    });
}

/** Whether an outcome word is a proof. */
export function isProof(outcome: string): boolean {
  return outcome === "verified" || outcome === "Passed";
}

/** Whether a declaration is trusted rather than proven (no body, an axiom, or not verified). */
export function isTrustedDecl(d: Decl): boolean {
  return (
    d.kind !== "type" &&
    (!d.hasBody || d.attrs.includes("axiom") || d.attrs.includes("verify false") || d.attrs.includes("extern"))
  );
}

/**
 * The items that must be reported proven: a function's well-formedness when it states an
 * `ensures` (its postcondition is checked there), a method's or lemma's correctness when it
 * has a body and an `ensures`. Items that claim nothing may be left out by Dafny 2.3 (it
 * skips items with no proof obligation); when reported, they must be proven too.
 */
export function requiredItems(decls: Decl[]): Array<{ name: string; phase: string; line: number }> {
  const out: Array<{ name: string; phase: string; line: number }> = [];
  for (const d of decls) {
    if (d.kind === "type" || isTrustedDecl(d) || !d.hasEnsures) continue;
    out.push({ name: d.name, phase: d.kind === "function" ? "well-formedness" : "correctness", line: d.line });
  }
  return out;
}

/** Every reason the reported items do not account for the declarations; empty when they do. */
export function accountItems(decls: Array<Decl & { file: string }>, items: ItemOutcome[]): string[] {
  const problems: string[] = [];
  const declared = new Set(decls.map((d) => d.name));
  for (const it of items) {
    if (!isProof(it.outcome)) problems.push(`${it.name} (${it.phase}): ${it.outcome}, not verified`);
    if (!declared.has(it.name))
      problems.push(`${it.name} (${it.phase}): reported by the prover but declared in none of the files verified`);
  }
  for (const r of requiredItems(decls)) {
    const file = decls.find((d) => d.name === r.name && d.line === r.line)?.file ?? "?";
    if (!items.some((it) => it.name === r.name && it.phase === r.phase)) {
      problems.push(`${r.name} (${file}:${r.line}): its ${r.phase} was never reported, so it is not proven`);
    }
  }
  return problems;
}
