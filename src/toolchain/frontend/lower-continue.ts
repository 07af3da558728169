// Stage: continue lowering. Input: the IR statements of one loop body, as the statement
// translation produced them (they may hold `continue`, and nested loops are already
// lowered). Output: the same body without `continue` (Dafny 2.3 has none). It does not read
// TypeScript, report errors or look into nested loops: a `continue` there is theirs.

import type { Stmt } from "../ir/ir.ts";
import { someOutsideLoops } from "../ir/walk.ts";

function isContinue(s: Stmt): boolean {
  return s.k === "continue";
}

function containsContinue(stmts: Stmt[]): boolean {
  return someOutsideLoops(stmts, isContinue);
}

/**
 * Removes `continue` from a loop body: the rest of the body after an `if` that may continue
 * moves into its branches, and `continue` itself becomes `tail` (the increment of a `for`
 * loop, or nothing).
 */
export function lowerContinue(stmts: Stmt[], tail: Stmt[]): Stmt[] {
  const out: Stmt[] = [];
  for (let i = 0; i < stmts.length; i++) {
    const s = stmts[i];
    if (isContinue(s)) return [...out, ...tail];
    if (s.k === "if" && (containsContinue(s.t) || containsContinue(s.f))) {
      const rest = stmts.slice(i + 1);
      out.push({
        ...s,
        t: lowerContinue([...s.t, ...rest], tail),
        f: lowerContinue([...s.f, ...rest], tail),
      });
      return out;
    }
    if (s.k === "block" && containsContinue(s.body)) {
      return [...out, ...lowerContinue([...s.body, ...stmts.slice(i + 1)], tail)];
    }
    out.push(s);
  }
  return [...out, ...tail];
}
