// Prover errors at their TypeScript position. Input: a prover's output on a module and where
// each safe-integer obligation of the generated Dafny comes from (emit/dafny-emit.ts origins).
// Output: one "file:line:col: ..." line per error that names such an obligation, at the
// arithmetic in the kernel's TypeScript, so the author reads where the code is, not where the
// generated file is. It decides nothing: the verdicts and the accounting are the prover's.

import type { Origin } from "../emit/dafny-emit.ts";

/** An error line of Dafny 2.3 or 4 in a generated file (dafny/m.dfy(12,15): Error: ...), not in a companion under proofs/dafny. */
const ERROR = /([^\s()]*?)dafny\/([\w-]+\.dfy)\((\d+),(\d+)\): Error:?\s*(.*)$/;

/** Each error of `output` on an obligation with an origin, as "src/kernel/m.ts:line:col: ... (where Dafny reports it)". */
export function locateErrors(output: string, origins: ReadonlyMap<string, readonly Origin[]>): string[] {
  const found: string[] = [];
  for (const raw of output.split("\n")) {
    const m = ERROR.exec(raw.trim());
    if (m === null || m[1].endsWith("proofs/")) continue;
    const [, , file, line, col, message] = m;
    // the obligation whose call starts last before the reported column (calls nest on a line)
    let best: Origin | undefined;
    for (const o of origins.get(file) ?? [])
      if (o.line === Number(line) && o.col <= Number(col) && (best === undefined || o.col > best.col)) best = o;
    if (best === undefined) continue;
    const { at } = best;
    const text = `${at.file}:${at.line}:${at.col}: this arithmetic may leave the safe integers +-(2^53 - 1), where JavaScript's numbers stop being exact (dafny/${file}(${line},${col}): ${message})`;
    if (!found.includes(text)) found.push(text);
  }
  return found;
}
