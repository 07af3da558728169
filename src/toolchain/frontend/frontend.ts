// The frontend: from one annotated TypeScript kernel file to its IR module. Input: the file's
// text. Output: a Module (imports, type declarations, functions with contracts and bodies).
// This file reads the top level (imports, declarations, each function's signature and
// annotations) and runs the per-function steps in order: local-name check (local-names.ts),
// statements (front-stmts.ts, with continue lowering), body checks (body-checks.ts), pure
// form (pure-form.ts). It reads every kernel file as one TypeScript program, but asks the
// checker only what a name is bound to (names.ts): the subset is small enough that the
// translator does its own typing, which keeps the output independent of the checker's
// inference. Beyond TypeScript's binding of names it does not look at other files: types
// and calls are resolved program-wide later. Every construct outside the subset is an error
// with file:line:column.

import ts from "typescript";
import { type Fn, type Module, type Param, TranslateError } from "../ir/ir.ts";
import { annotationsIn, leadingAnnotations, posAt } from "./annotations.ts";
import { checkOwnership, endsInReturn } from "./body-checks.ts";
import { FileContext, type FnScope, type SpecPlace, spec, syntaxName } from "./front-context.ts";
import { block } from "./front-stmts.ts";
import { declareType, interfaceDecl, natOf, tyFromNode, typeAlias, typeAnnotation } from "./front-types.ts";
import { checkLocalNames } from "./local-names.ts";
import { type KernelSource, kernelProgram } from "./names.ts";
import { pureForm } from "./pure-form.ts";
import { fnWritten, headerLaws, isExported } from "./written.ts";

/** A kernel file to translate, and whether it has a proof companion. */
export interface KernelFile extends KernelSource {
  hasCompanion: boolean;
}

/** Translates the kernel's files, read as one TypeScript program (names resolve across them as TypeScript resolves them). */
export function translateFiles(files: readonly KernelFile[]): Module[] {
  const program = kernelProgram(files);
  const checker = program.getTypeChecker();
  return files.map((f) => {
    const sf = program.getSourceFile(f.relPath);
    if (sf === undefined) throw new Error(`${f.relPath}: not in the kernel program`);
    return translateFile(sf, checker, f.hasCompanion);
  });
}

/** Translates one kernel source file of the program `checker` checks; its file name is how errors and headers name it. */
function translateFile(sf: ts.SourceFile, checker: ts.TypeChecker, hasCompanion: boolean): Module {
  const relPath = sf.fileName;
  const cx = new FileContext(sf, checker);
  const name = relPath.replace(/^.*\//, "").replace(/\.ts$/, "");
  const mod: Module = {
    name,
    source: relPath,
    imports: [],
    imported: [],
    types: [],
    fns: [],
    unboundedNumbers: false,
    companion: hasCompanion ? name : null,
    laws: headerLaws(sf),
    exportedTypes: [],
  };

  for (const st of sf.statements) {
    for (const a of leadingAnnotations(sf, st)) {
      if (a.kind === "declare-type") mod.types.push(declareType(cx.take(a)));
      if (a.kind === "unbounded-numbers") mod.unboundedNumbers = cx.take(a) !== null;
    }
    if (ts.isImportDeclaration(st)) {
      const target = importTarget(cx, st);
      if (!mod.imports.includes(target)) mod.imports.push(target);
      for (const n of importedNames(cx, st)) mod.imported.push({ name: n.text, from: target, pos: cx.pos(n) });
    } else if (ts.isTypeAliasDeclaration(st)) {
      mod.types.push(typeAlias(cx, st));
      if (isExported(st)) mod.exportedTypes.push(st.name.text);
    } else if (ts.isInterfaceDeclaration(st)) {
      mod.types.push(interfaceDecl(cx, st));
      if (isExported(st)) mod.exportedTypes.push(st.name.text);
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
  const specOnly = ann.some((a) => a.kind === "spec");
  if (!verify && !extern && !specOnly)
    cx.fail(
      fd,
      `function ${name} is neither //@ verify, //@ spec nor //@ extern: the kernel holds only translated code`,
    );
  if ([verify, extern, specOnly].filter((x) => x).length > 1)
    cx.fail(fd, `function ${name} takes one of //@ verify, //@ spec and //@ extern`);
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
    } else if (
      !["verify", "extern", "spec", "unbounded-numbers", "requires", "ensures", "decreases", "declare-type"].includes(
        a.kind,
      )
    ) {
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
  // a contract sees the parameters (and what the module declares), not the body's locals
  const contract: SpecPlace = { location: fd, hidden: fd.body ?? null };
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
    requires: ann.filter((a) => a.kind === "requires").map((a) => spec(cx, a, contract)),
    ensures: ann.filter((a) => a.kind === "ensures").map((a) => spec(cx, a, contract)),
    decreases: ann.filter((a) => a.kind === "decreases").map((a) => spec(cx, a, contract)),
    pureExpr: null,
    stmts: [],
    extern,
    spec: specOnly,
    written: fnWritten(sf, fd, ann),
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
  if (specOnly && !fn.pureExpr)
    cx.fail(
      fd,
      `//@ spec function ${name} must be a chain of consts, if-returns and a final return (a Dafny function)`,
    );
  return fn;
}
