// Stage: local-name check. Input: one function body as TypeScript syntax, before any
// translation. Output: nothing, or a TranslateError for a `var`, a local that shadows or
// repeats another name, or a use outside the block that declares it. It exists because
// later steps move statements (continue lowering, the `for` increment), which is sound only
// when every local of a function has its own name. It does not translate anything.

import ts from "typescript";
import type { FileContext } from "./front-context.ts";

/** The names a scope node declares directly, with their declarations. */
function declaredIn(scopeNode: ts.Node): ts.VariableDeclaration[] {
  const lists: ts.VariableDeclarationList[] = [];
  const stmts = ts.isBlock(scopeNode)
    ? scopeNode.statements
    : ts.isCaseBlock(scopeNode)
      ? scopeNode.clauses.flatMap((c) => [...c.statements])
      : [];
  for (const st of stmts) if (ts.isVariableStatement(st)) lists.push(st.declarationList);
  if (
    (ts.isForStatement(scopeNode) || ts.isForOfStatement(scopeNode) || ts.isForInStatement(scopeNode)) &&
    scopeNode.initializer &&
    ts.isVariableDeclarationList(scopeNode.initializer)
  )
    lists.push(scopeNode.initializer);
  return lists.flatMap((l) => [...l.declarations]);
}

/**
 * Locals are `let` or `const`, and each has a name no enclosing scope declares. Dafny scopes
 * locals by block like `let`, but the translation moves statements: `continue` lowering
 * copies the rest of a loop body into the branches of an `if`, and a `for` increment goes to
 * the end of the body block; a local that shadows an outer name would capture them.
 */
export function checkLocalNames(cx: FileContext, body: ts.Block, params: Set<string>): void {
  const locals = new Map<string, ts.VariableDeclaration>();
  const collect = (n: ts.Node): void => {
    if (ts.isVariableDeclaration(n) && ts.isIdentifier(n.name) && !locals.has(n.name.text)) locals.set(n.name.text, n);
    ts.forEachChild(n, collect);
  };
  collect(body);
  // the declaration of local x that is in scope at node n (declared before it), if any
  const inScope = (x: string, n: ts.Node): ts.VariableDeclaration | undefined => {
    for (let s: ts.Node | undefined = n.parent; s !== undefined && s !== body.parent; s = s.parent) {
      const d = declaredIn(s).find((v) => ts.isIdentifier(v.name) && v.name.text === x && v.pos < n.pos);
      if (d) return d;
    }
    return undefined;
  };
  const visit = (n: ts.Node): void => {
    // a use of a local where JavaScript does not see it: Dafny might, once the translation
    // has moved the use into the block that declares it
    if (ts.isIdentifier(n) && locals.has(n.text) && !params.has(n.text) && isValueUse(n) && !inScope(n.text, n)) {
      const at = cx.pos(locals.get(n.text) as ts.VariableDeclaration);
      cx.unsupported(n, `use of ${n.text} outside the block that declares it (${at.file}:${at.line}:${at.col})`);
    }
    if (ts.isVariableDeclarationList(n) && !(n.flags & (ts.NodeFlags.Let | ts.NodeFlags.Const))) {
      cx.unsupported(n, "'var' (function-scoped in JavaScript): declare locals with let or const");
    }
    if (ts.isVariableDeclaration(n) && ts.isIdentifier(n.name)) {
      const x = n.name.text;
      if (params.has(x))
        cx.unsupported(n, `local ${x}: it shadows the parameter ${x} (give each local of a function its own name)`);
      for (let s: ts.Node | undefined = n.parent; s !== undefined && s !== body.parent; s = s.parent) {
        const here = declaredIn(s);
        // within one scope the later declaration is the repetition
        const other = here.find(
          (d) => d !== n && ts.isIdentifier(d.name) && d.name.text === x && (!here.includes(n) || d.pos < n.pos),
        );
        if (other) {
          const at = cx.pos(other);
          cx.unsupported(
            n,
            `local ${x}: it ${here.includes(n) ? "repeats" : "shadows"} the ${x} declared at ${at.file}:${at.line}:${at.col} (give each local of a function its own name)`,
          );
        }
      }
    }
    ts.forEachChild(n, visit);
  };
  visit(body);
}

/** Whether an identifier stands for a value (not a declared name, a field or a type). */
function isValueUse(id: ts.Identifier): boolean {
  const p = id.parent;
  if ((ts.isVariableDeclaration(p) || ts.isParameter(p) || ts.isFunctionDeclaration(p)) && p.name === id) return false;
  if ((ts.isPropertyAccessExpression(p) || ts.isPropertyAssignment(p)) && p.name === id) return false;
  return !ts.isTypeReferenceNode(p) && !ts.isQualifiedName(p);
}
