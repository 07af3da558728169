// From annotated TypeScript to the IR. Uses the TypeScript 5.x parser (syntax only: the
// subset is small enough that the translator does its own typing, which keeps the output
// independent of the checker's inference). Every construct outside the subset is an error
// with file:line:column.

import ts from "typescript";
import { type Annotation, annotationsIn, leadingAnnotations, posAt } from "./annotations.ts";
import { checkOwnership, containsBreak, endsInReturn } from "./body-checks.ts";
import { FileContext, type FnScope, spec, syntaxName } from "./front-context.ts";
import { expr } from "./front-exprs.ts";
import { declareType, interfaceDecl, natOf, tyFromNode, typeAlias, typeAnnotation } from "./front-types.ts";
import { type Expr, type Fn, type Module, type Param, type Stmt, TranslateError, type Ty } from "./ir.ts";
import { checkLocalNames } from "./local-names.ts";
import { lowerContinue } from "./lower-continue.ts";

/** Translates one kernel source file. `relPath` is how errors and headers name it. */
export function translateFile(relPath: string, text: string, hasCompanion: boolean): Module {
  const sf = ts.createSourceFile(relPath, text, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
  const cx = new FileContext(sf);
  const name = relPath.replace(/^.*\//, "").replace(/\.ts$/, "");
  const mod: Module = {
    name,
    source: relPath,
    imports: [],
    imported: [],
    types: [],
    fns: [],
    companion: hasCompanion ? name : null,
  };

  for (const st of sf.statements) {
    for (const a of leadingAnnotations(sf, st)) {
      if (a.kind === "declare-type") mod.types.push(declareType(cx.take(a)));
    }
    if (ts.isImportDeclaration(st)) {
      const target = importTarget(cx, st);
      if (!mod.imports.includes(target)) mod.imports.push(target);
      for (const n of importedNames(cx, st)) mod.imported.push({ name: n.text, from: target, pos: cx.pos(n) });
    } else if (ts.isTypeAliasDeclaration(st)) {
      mod.types.push(typeAlias(cx, st));
    } else if (ts.isInterfaceDeclaration(st)) {
      mod.types.push(interfaceDecl(cx, st));
    } else if (ts.isEnumDeclaration(st)) {
      mod.types.push({
        k: "union",
        name: st.name.text,
        // JavaScript numbers the members: no string literal denotes one
        numeric: true,
        tags: st.members.map((m) => {
          if (m.initializer) cx.unsupported(m, "enum member initializer");
          const key = m.name.getText(sf);
          return { tag: key, ctor: key };
        }),
        pos: cx.pos(st),
      });
    } else if (ts.isFunctionDeclaration(st)) {
      mod.fns.push(functionDecl(cx, st));
    } else {
      if (ts.isClassDeclaration(st))
        cx.unsupported(st, "class declaration (the kernel holds only functions and types)");
      cx.unsupported(st, `top-level statement (${syntaxName(st.kind)}) in a kernel file`);
    }
  }
  for (const a of annotationsIn(sf, sf.statements.end, sf.text.length)) {
    if (a.kind === "declare-type") mod.types.push(declareType(cx.take(a)));
  }
  // an annotation the translation did not read would silently check nothing
  for (const a of annotationsIn(sf, 0, sf.text.length)) {
    if (!cx.used.has(a.offset)) throw new TranslateError(a.pos, `//@ ${a.kind} is not allowed here`);
  }
  return mod;
}

function importTarget(cx: FileContext, st: ts.ImportDeclaration): string {
  const spec = (st.moduleSpecifier as ts.StringLiteral).text;
  const m = /^\.\/([A-Za-z0-9_-]+)(\.ts)?$/.exec(spec);
  if (!m) cx.fail(st, `unsupported import '${spec}': the kernel imports only sibling kernel files`);
  return m[1];
}

/**
 * The names an import binds. Calls resolve by the name the callee is declared with, so an
 * import must bind exactly that name: no renaming, no default or namespace import.
 */
function importedNames(cx: FileContext, st: ts.ImportDeclaration): ts.Identifier[] {
  const clause = st.importClause;
  if (!clause) return [];
  if (clause.name)
    cx.unsupported(clause.name, "default or namespace import (the kernel imports names as they are declared)");
  const bindings = clause.namedBindings;
  if (!bindings) return [];
  if (ts.isNamespaceImport(bindings))
    cx.unsupported(bindings, "default or namespace import (the kernel imports names as they are declared)");
  return bindings.elements.map((el) => {
    if (el.propertyName)
      cx.unsupported(el, `renamed import '${el.getText(cx.sf)}' (the kernel imports names as they are declared)`);
    return el.name;
  });
}

function functionDecl(cx: FileContext, fd: ts.FunctionDeclaration): Fn {
  const sf = cx.sf;
  if (!fd.name) cx.unsupported(fd, "anonymous function");
  const name = fd.name.text;
  const ann = leadingAnnotations(sf, fd).map((a) => cx.take(a));
  const verify = ann.some((a) => a.kind === "verify");
  const extern = ann.some((a) => a.kind === "extern");
  if (!verify && !extern)
    cx.fail(fd, `function ${name} is neither //@ verify nor //@ extern: the kernel holds only translated code`);
  if (verify && extern) cx.fail(fd, `function ${name} cannot be both //@ verify and //@ extern`);
  if (fd.asteriskToken) cx.unsupported(fd, "generator function");
  if (fd.modifiers?.some((m) => m.kind === ts.SyntaxKind.AsyncKeyword)) cx.unsupported(fd, "async function");
  if (fd.modifiers?.some((m) => m.kind === ts.SyntaxKind.DefaultKeyword))
    cx.unsupported(fd, "export default (kernel functions are exported and imported by name)");
  const tparams = new Set(
    (fd.typeParameters ?? []).map((p) => {
      if (p.constraint || p.default) cx.unsupported(p, "type parameter constraint or default");
      return p.name.text;
    }),
  );
  const natNames = new Set<string>();
  const paramNames = new Set(fd.parameters.map((p) => (ts.isIdentifier(p.name) ? p.name.text : "")));
  for (const a of ann) {
    if (a.kind === "type") {
      const x = typeAnnotation(a);
      if (x !== "\\result" && !paramNames.has(x))
        throw new TranslateError(a.pos, `//@ type ${x} nat: ${name} has no parameter ${x}`);
      natNames.add(x);
    } else if (!["verify", "extern", "requires", "ensures", "decreases", "declare-type"].includes(a.kind)) {
      throw new TranslateError(a.pos, `//@ ${a.kind} is not allowed above a function`);
    }
  }
  const params: Param[] = fd.parameters.map((p) => {
    if (!ts.isIdentifier(p.name)) cx.unsupported(p, "destructuring parameter");
    if (!p.type) cx.fail(p, `parameter ${p.name.text} needs a type annotation`);
    if (p.questionToken || p.initializer || p.dotDotDotToken) cx.unsupported(p, "optional, default or rest parameter");
    const ty = tyFromNode(cx, p.type, tparams);
    return { name: p.name.text, ty: natNames.has(p.name.text) ? natOf(cx, p, ty) : ty };
  });
  if (!fd.type) cx.fail(fd, `function ${name} needs a return type annotation`);
  let ret = tyFromNode(cx, fd.type, tparams);
  if (natNames.has("\\result")) ret = natOf(cx, fd, ret);
  const scope: FnScope = {
    fnName: name,
    retText: fd.type.getText(sf),
    natNames,
    params: new Set(params.map((p) => p.name)),
    tparams,
  };
  const fn: Fn = {
    name,
    tparams: [...tparams],
    params,
    ret,
    requires: ann.filter((a) => a.kind === "requires").map(spec),
    ensures: ann.filter((a) => a.kind === "ensures").map(spec),
    decreases: ann.filter((a) => a.kind === "decreases").map(spec),
    pureExpr: null,
    stmts: [],
    extern,
    pos: cx.pos(fd),
  };
  if (extern) return fn;
  if (!fd.body) cx.fail(fd, `function ${name} has no body`);
  // `//@ type x nat` lines anywhere in the body apply to the local x
  const locals = new Set<string>();
  const findLocals = (n: ts.Node): void => {
    if (ts.isVariableDeclaration(n) && ts.isIdentifier(n.name)) locals.add(n.name.text);
    ts.forEachChild(n, findLocals);
  };
  findLocals(fd.body);
  for (const a of annotationsIn(sf, fd.body.getStart(sf), fd.body.end)) {
    if (a.kind !== "type") continue;
    const x = typeAnnotation(cx.take(a));
    if (paramNames.has(x) || x === "\\result")
      throw new TranslateError(a.pos, `//@ type ${x} nat: annotate parameters and \\result above the function`);
    if (!locals.has(x)) throw new TranslateError(a.pos, `//@ type ${x} nat: ${name} has no local ${x}`);
    natNames.add(x);
  }
  checkLocalNames(cx, fd.body, paramNames);
  fn.stmts = block(cx, fd.body, scope, false);
  if (!endsInReturn(fn.stmts)) {
    throw new TranslateError(
      posAt(sf, fd.body.end - 1),
      `function ${name} can reach its end without returning a value (JavaScript returns undefined)`,
    );
  }
  checkOwnership(fn.stmts);
  fn.pureExpr = pureForm(cx, fd.body.statements, scope, fd.body);
  return fn;
}

// ---------------------------------------------------------------- pure (function) form

/** The body as one expression when it is a chain of const / if-return / return, else null. */
function pureForm(cx: FileContext, stmts: readonly ts.Statement[], scope: FnScope, at: ts.Node): Expr | null {
  const sf = cx.sf;
  // statement-level annotations (assert, use, ...) need a method body
  if (annotationsIn(sf, at.getStart(sf), at.end).some((a) => a.kind !== "type")) return null;
  const go = (i: number): Expr | null => {
    if (i >= stmts.length) return null;
    const st = stmts[i];
    if (ts.isReturnStatement(st)) return st.expression ? expr(cx, st.expression) : null;
    if (ts.isVariableStatement(st)) {
      if (!(st.declarationList.flags & ts.NodeFlags.Const)) return null;
      const decls = st.declarationList.declarations;
      if (decls.length !== 1) return null;
      const d = decls[0];
      if (!ts.isIdentifier(d.name) || !d.initializer) return null;
      const body = go(i + 1);
      if (!body) return null;
      const ty = d.type ? tyFromNode(cx, d.type, scope.tparams) : { k: "unknown" as const };
      return {
        k: "let",
        name: d.name.text,
        ty: scope.natNames.has(d.name.text) ? { k: "nat" } : ty,
        e: expr(cx, d.initializer),
        body,
        pos: cx.pos(d),
      };
    }
    if (ts.isIfStatement(st)) {
      const t = branch(st.thenStatement);
      if (!t) return null;
      if (st.elseStatement) {
        if (i + 1 < stmts.length) return null;
        const f = branch(st.elseStatement);
        return f ? { k: "cond", c: expr(cx, st.expression), t, f, pos: cx.pos(st) } : null;
      }
      const f = go(i + 1);
      return f ? { k: "cond", c: expr(cx, st.expression), t, f, pos: cx.pos(st) } : null;
    }
    return null;
  };
  const branch = (s: ts.Statement): Expr | null =>
    ts.isBlock(s) ? pureForm(cx, s.statements, scope, s) : pureForm(cx, [s], scope, s);
  return go(0);
}

// ---------------------------------------------------------------- statements

function block(cx: FileContext, b: ts.Block, scope: FnScope, isLoopBody: boolean): Stmt[] {
  const sf = cx.sf;
  const out: Stmt[] = [];
  const emitAnnotations = (anns: Annotation[]) => {
    for (const a of anns) {
      if (a.kind === "assert") out.push({ k: "assert", e: spec(cx.take(a)), pos: a.pos });
      else if (a.kind === "use") {
        const call = spec(cx.take(a));
        if (call.k !== "call") throw new TranslateError(a.pos, "//@ use expects a lemma call 'Name(args)'");
        out.push({ k: "use", call, pos: a.pos });
      } else if (a.kind === "type") continue;
      else if ((a.kind === "invariant" || a.kind === "decreases") && isLoopBody) {
        // loopSpecs took those above the first statement
        if (!cx.used.has(a.offset))
          throw new TranslateError(a.pos, `//@ ${a.kind} must come before the first statement of the loop body`);
      } else throw new TranslateError(a.pos, `//@ ${a.kind} is not allowed here`);
    }
  };
  let cursor = b.getStart(sf) + 1;
  for (const st of b.statements) {
    emitAnnotations(annotationsIn(sf, cursor, st.getStart(sf)));
    out.push(...statement(cx, st, scope));
    cursor = st.end;
  }
  emitAnnotations(annotationsIn(sf, cursor, b.end - 1));
  return out;
}

function asBlock(cx: FileContext, s: ts.Statement, scope: FnScope, isLoopBody: boolean): Stmt[] {
  if (ts.isBlock(s)) return block(cx, s, scope, isLoopBody);
  if (isLoopBody) cx.fail(s, "a loop body must be a block { ... } (it holds the invariants)");
  return statement(cx, s, scope);
}

/** The invariant and decreases annotations of a loop (first lines of its body block). */
function loopSpecs(cx: FileContext, body: ts.Statement): { invariants: Expr[]; decreases: Expr[] } {
  const sf = cx.sf;
  if (!ts.isBlock(body)) cx.fail(body, "a loop body must be a block { ... } (it holds the invariants)");
  const end = body.statements.length > 0 ? body.statements[0].getStart(sf) : body.end;
  const anns = annotationsIn(sf, body.getStart(sf), end);
  return {
    invariants: anns.filter((a) => a.kind === "invariant").map((a) => spec(cx.take(a))),
    decreases: anns.filter((a) => a.kind === "decreases").map((a) => spec(cx.take(a))),
  };
}

function declarations(cx: FileContext, list: ts.VariableDeclarationList, scope: FnScope): Stmt[] {
  return list.declarations.map((d) => {
    if (!ts.isIdentifier(d.name)) cx.unsupported(d, "destructuring declaration");
    if (!d.initializer) cx.fail(d, `${d.name.text} needs an initializer`);
    let ty: Ty = d.type ? tyFromNode(cx, d.type, scope.tparams) : { k: "unknown" };
    if (scope.natNames.has(d.name.text)) ty = { k: "nat" };
    return { k: "var", name: d.name.text, ty, init: expr(cx, d.initializer), pos: cx.pos(d) };
  });
}

function statement(cx: FileContext, st: ts.Statement, scope: FnScope): Stmt[] {
  const pos = cx.pos(st);
  if (ts.isVariableStatement(st)) return declarations(cx, st.declarationList, scope);
  if (ts.isExpressionStatement(st)) return [exprStatement(cx, st.expression, scope)];
  if (ts.isIfStatement(st)) {
    return [
      {
        k: "if",
        c: expr(cx, st.expression),
        t: asBlock(cx, st.thenStatement, scope, false),
        f: st.elseStatement ? asBlock(cx, st.elseStatement, scope, false) : [],
        pos,
      },
    ];
  }
  if (ts.isWhileStatement(st)) {
    const { invariants, decreases } = loopSpecs(cx, st.statement);
    const body = lowerContinue(asBlock(cx, st.statement, scope, true), []);
    return [{ k: "while", c: expr(cx, st.expression), invariants, decreases, body, pos }];
  }
  if (ts.isForStatement(st)) return [forLoop(cx, st, scope)];
  if (ts.isBreakStatement(st)) {
    if (st.label) cx.unsupported(st, "labelled break");
    return [{ k: "break", pos }];
  }
  if (ts.isContinueStatement(st)) {
    if (st.label) cx.unsupported(st, "labelled continue");
    return [{ k: "continue", pos }];
  }
  if (ts.isReturnStatement(st)) {
    if (!st.expression) cx.unsupported(st, `return without a value (${scope.fnName} returns ${scope.retText})`);
    return [{ k: "return", e: expr(cx, st.expression), pos }];
  }
  if (ts.isBlock(st)) return [{ k: "block", body: block(cx, st, scope, false), pos }];
  if (ts.isSwitchStatement(st)) return switchStatement(cx, st, scope);
  if (ts.isLabeledStatement(st))
    cx.unsupported(st, `labelled statement '${st.label.text}:' (and so labelled break/continue)`);
  cx.unsupported(st, `statement (${syntaxName(st.kind)})`);
}

function forLoop(cx: FileContext, st: ts.ForStatement, scope: FnScope): Stmt {
  const pos = cx.pos(st);
  if (!st.initializer || !ts.isVariableDeclarationList(st.initializer))
    cx.unsupported(st, "for loop without a 'let' initializer");
  const init = declarations(cx, st.initializer, scope);
  if (!st.condition) cx.unsupported(st, "for loop without a condition");
  if (!st.incrementor) cx.unsupported(st, "for loop without an increment");
  const incr = exprStatement(cx, st.incrementor, scope);
  const { invariants, decreases } = loopSpecs(cx, st.statement);
  const body = lowerContinue(asBlock(cx, st.statement, scope, true), [incr]);
  // the block scopes the loop variable, as `let` does in TypeScript
  return {
    k: "block",
    body: [...init, { k: "while", c: expr(cx, st.condition), invariants, decreases, body, pos }],
    pos,
  };
}

function switchStatement(cx: FileContext, st: ts.SwitchStatement, scope: FnScope): Stmt[] {
  const pos = cx.pos(st);
  const disc = expr(cx, st.expression);
  const clauses = st.caseBlock.clauses.map((c) => {
    const body = c.statements.flatMap((s) => statement(cx, s, scope));
    const last = body[body.length - 1];
    const endsWithBreak = last !== undefined && last.k === "break";
    const stmts = endsWithBreak ? body.slice(0, -1) : body;
    if (containsBreak(stmts)) cx.fail(c, "a break inside a switch clause must be its last statement");
    const terminates = endsWithBreak || (last !== undefined && last.k === "return");
    return { label: ts.isCaseClause(c) ? expr(cx, c.expression) : null, stmts, terminates, node: c };
  });
  // A clause entered at index i runs its statements and falls through to the next
  // clauses until one terminates.
  const bodyFrom = (i: number): Stmt[] => {
    const out: Stmt[] = [];
    for (let j = i; j < clauses.length; j++) {
      out.push(...clauses[j].stmts);
      if (clauses[j].terminates) break;
    }
    return out;
  };
  const defaultIndex = clauses.findIndex((c) => c.label === null);
  let chain: Stmt[] = defaultIndex >= 0 ? bodyFrom(defaultIndex) : [];
  for (let i = clauses.length - 1; i >= 0; i--) {
    const label = clauses[i].label;
    if (label === null) continue;
    chain = [{ k: "if", c: { k: "bin", op: "==", l: disc, r: label, pos }, t: bodyFrom(i), f: chain, pos }];
  }
  return chain;
}

function exprStatement(cx: FileContext, e: ts.Expression, scope: FnScope): Stmt {
  const pos = cx.pos(e);
  const local = (id: ts.Expression, what: string): string => {
    if (!ts.isIdentifier(id)) cx.unsupported(id, `${what} of anything but a local variable`);
    if (scope.params.has(id.text))
      cx.fail(id, `unsupported mutation of parameter ${id.text} (parameters are values in the proofs)`);
    return id.text;
  };
  const v = (name: string, at: ts.Node): Expr => ({ k: "var", name, pos: cx.pos(at) });
  const one: Expr = { k: "num", v: "1", pos };
  if (ts.isBinaryExpression(e)) {
    const op = e.operatorToken.kind;
    if (op === ts.SyntaxKind.EqualsToken) {
      if (ts.isElementAccessExpression(e.left)) {
        const name = local(e.left.expression, "element assignment");
        return {
          k: "assign",
          name,
          e: { k: "update", e: v(name, e.left), i: expr(cx, e.left.argumentExpression), v: expr(cx, e.right), pos },
          pos,
          inPlace: true,
        };
      }
      return { k: "assign", name: local(e.left, "assignment"), e: expr(cx, e.right), pos };
    }
    if (op === ts.SyntaxKind.PlusEqualsToken || op === ts.SyntaxKind.MinusEqualsToken) {
      const name = local(e.left, "compound assignment");
      return {
        k: "assign",
        name,
        e: {
          k: "bin",
          op: op === ts.SyntaxKind.PlusEqualsToken ? "+" : "-",
          l: v(name, e.left),
          r: expr(cx, e.right),
          pos,
        },
        pos,
      };
    }
  }
  if (
    (ts.isPostfixUnaryExpression(e) || ts.isPrefixUnaryExpression(e)) &&
    (e.operator === ts.SyntaxKind.PlusPlusToken || e.operator === ts.SyntaxKind.MinusMinusToken)
  ) {
    const name = local(e.operand, "increment");
    return {
      k: "assign",
      name,
      e: { k: "bin", op: e.operator === ts.SyntaxKind.PlusPlusToken ? "+" : "-", l: v(name, e.operand), r: one, pos },
      pos,
    };
  }
  if (ts.isCallExpression(e) && ts.isPropertyAccessExpression(e.expression) && e.expression.name.text === "push") {
    const name = local(e.expression.expression, "push");
    if (e.arguments.length !== 1) cx.unsupported(e, "push with other than one argument");
    const item: Expr = { k: "seqlit", elems: [expr(cx, e.arguments[0])], pos };
    return {
      k: "assign",
      name,
      e: { k: "bin", op: "concat", l: v(name, e.expression.expression), r: item, pos },
      pos,
      inPlace: true,
    };
  }
  cx.unsupported(e, `expression statement '${e.getText(cx.sf)}'`);
}
