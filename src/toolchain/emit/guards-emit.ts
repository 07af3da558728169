// Stage: the kernel's preconditions as runtime checks. Input: the kernel's sources (each
// exported `//@ verify` function's parameters and `//@ requires` clauses, read as written) and
// the hand-written list guard-list.ts. Output: src/engine/boundary/kernel-requires.ts, one
// `guard…` function per verified kernel function, which throws a KernelBoundaryError naming the
// first precondition a call breaks; the kernel gate calls it before the kernel. A clause is
// translated as written when it is a quantifier-free expression over the parameters and the
// kernel's functions; every other clause must be in the list. Each number parameter (and each
// number field of a record parameter) is checked to be a safe integer: the proofs read integers.
// It reads no generated file and writes nothing itself (writeGuards does).

import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import ts from "typescript";
import { leadingAnnotations } from "../frontend/annotations.ts";
import type { Layout } from "../frontend/load.ts";
import { isProofModel } from "../frontend/models.ts";
import { HAND_CHECKS, type HandCheck, HELPERS, UNGUARDED } from "./guard-list.ts";

/** The generated guard module, relative to the project root. */
export const GUARD_FILE = "src/engine/boundary/kernel-requires.ts";

/** One exported verified kernel function, as the guards read it. */
interface KernelFn {
  readonly name: string;
  readonly module: string;
  readonly tparams: string;
  readonly params: readonly { readonly name: string; readonly type: string }[];
  readonly requires: readonly string[];
  /** parameters declared natural numbers (`//@ type x nat`) */
  readonly nats: readonly string[];
  /** a proof-only model (frontend/models.ts): the engine never calls it, so it gets no guard */
  readonly model: boolean;
}

/** What the guards need to know of the kernel: its verified functions, every exported function, record fields. */
interface KernelFacts {
  readonly fns: readonly KernelFn[];
  /** every exported kernel function -> its module name */
  readonly fnModule: ReadonlyMap<string, string>;
  /** every exported kernel type -> its module name */
  readonly typeModule: ReadonlyMap<string, string>;
  /** record type -> its number fields */
  readonly numberFields: ReadonlyMap<string, readonly string[]>;
}

const oneLine = (s: string): string => s.replace(/\s+/g, " ").trim();

function exported(node: ts.Node): boolean {
  return ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
}

function readKernel(l: Layout): KernelFacts {
  const fns: KernelFn[] = [];
  const fnModule = new Map<string, string>();
  const typeModule = new Map<string, string>();
  const numberFields = new Map<string, string[]>();
  const files = readdirSync(l.kernelDir)
    .filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts"))
    .sort();
  for (const f of files) {
    const module = f.replace(/\.ts$/, "");
    const sf = ts.createSourceFile(f, readFileSync(join(l.kernelDir, f), "utf8"), ts.ScriptTarget.ES2022, true);
    for (const st of sf.statements) {
      if (!exported(st)) continue;
      if (ts.isInterfaceDeclaration(st) || ts.isTypeAliasDeclaration(st)) {
        typeModule.set(st.name.text, module);
        const members = ts.isInterfaceDeclaration(st)
          ? st.members
          : ts.isTypeLiteralNode(st.type)
            ? st.type.members
            : undefined;
        if (members !== undefined)
          numberFields.set(
            st.name.text,
            members.flatMap((m) =>
              ts.isPropertySignature(m) && m.type?.kind === ts.SyntaxKind.NumberKeyword ? [m.name.getText(sf)] : [],
            ),
          );
      }
      if (!ts.isFunctionDeclaration(st) || st.name === undefined) continue;
      fnModule.set(st.name.text, module);
      const ann = leadingAnnotations(sf, st);
      if (!ann.some((a) => a.kind === "verify")) continue;
      fns.push({
        name: st.name.text,
        module,
        tparams: st.typeParameters === undefined ? "" : `<${st.typeParameters.map((t) => t.getText(sf)).join(", ")}>`,
        params: st.parameters.map((p) => ({
          name: p.name.getText(sf),
          type: oneLine(p.type?.getText(sf) ?? "unknown"),
        })),
        requires: ann.filter((a) => a.kind === "requires").map((a) => oneLine(a.text)),
        nats: ann.flatMap((a) => {
          const [what, type] = oneLine(a.text).split(" ");
          return a.kind === "type" && type === "nat" && what !== "\\result" ? [what] : [];
        }),
        model: isProofModel(st),
      });
    }
  }
  return { fns, fnModule, typeModule, numberFields };
}

/** Names called in a TypeScript expression (`f(...)`), or null when the text is no plain expression. */
function callsIn(text: string): string[] | null {
  if (/==>|<==>|\\|\bforall\s*\(|\bexists\s*\(/.test(text)) return null;
  const sf = ts.createSourceFile("clause.ts", `(${text});`, ts.ScriptTarget.ES2022, true);
  const diagnostics = (sf as unknown as { parseDiagnostics: readonly ts.Diagnostic[] }).parseDiagnostics;
  if (diagnostics.length > 0 || sf.statements.length !== 1) return null;
  const calls: string[] = [];
  const visit = (n: ts.Node): void => {
    if (ts.isCallExpression(n) && ts.isIdentifier(n.expression)) calls.push(n.expression.text);
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return calls;
}

/** Identifiers a hand-written check calls or reads that are helpers or kernel functions. */
function namesIn(text: string, k: KernelFacts): string[] {
  const helpers = Object.values(HELPERS).flat();
  return [...new Set(text.match(/\b[A-Za-z_]\w*\b/g) ?? [])].filter((n) => helpers.includes(n) || k.fnModule.has(n));
}

const quote = (s: string): string => JSON.stringify(s);
/** A list entry's `says` as a template literal, `$LIMIT` read as EXACT_LIMIT_NAME. */
const says = (s: string): string =>
  `\`${s.replace(/[`\\]/g, "\\$&").replace(/\$LIMIT/g, "\u0024{EXACT_LIMIT_NAME}")}\``;

/** The statements of one guard, and the kernel functions and helpers they use. */
function guardBody(f: KernelFn, k: KernelFacts, used: Set<string>, records: Set<string>): string[] {
  const lines: string[] = [];
  const fail = (cond: string, says: string): string =>
    `  if (!${/^[\w.]+\([^()]*\)$/.test(cond) ? cond : `(${cond})`}) fail(${quote(f.name)}, ${says});`;
  for (const p of f.params) {
    const type = p.type.replace(/^readonly /, "");
    if (type === "number") lines.push(fail(`Number.isSafeInteger(${p.name})`, quote(`${p.name} a safe integer`)));
    if ((k.numberFields.get(type) ?? []).length > 0) {
      records.add(type);
      lines.push(`  integers${type}(${quote(f.name)}, ${quote(p.name)}, ${p.name});`);
    }
  }
  for (const n of f.nats) lines.push(fail(`${n} >= 0`, quote(`${n} >= 0`)));
  const hand = HAND_CHECKS.filter((h) => h.fn === f.name);
  const vouchedCheck = (h: HandCheck): string => {
    for (const n of namesIn(h.check, k)) used.add(n);
    const cond = h.vouch === undefined ? h.check : `vouched.${h.vouch} === true || ${h.check}`;
    if (h.says.includes("$LIMIT")) used.add("EXACT_LIMIT_NAME");
    return fail(cond, says(h.says));
  };
  for (const clause of f.requires) {
    const h = hand.find((x) => x.clause === clause);
    if (h !== undefined) {
      lines.push(vouchedCheck(h));
      continue;
    }
    const calls = callsIn(clause);
    const unknown = calls?.filter((c) => !k.fnModule.has(c) || /^[A-Z]/.test(c));
    if (calls === null || (unknown !== undefined && unknown.length > 0))
      throw new Error(
        `kernel-requires: ${f.name}'s precondition \`${clause}\` has no runtime translation: add its check to src/toolchain/emit/guard-list.ts`,
      );
    for (const c of calls) used.add(c);
    lines.push(fail(clause, quote(clause)));
  }
  for (const h of hand.filter((x) => x.clause === undefined)) lines.push(vouchedCheck(h));
  return lines;
}

function capital(s: string): string {
  return s[0].toUpperCase() + s.slice(1);
}

/** The name of kernel function `fn`'s guard: `guard` and the name capitalised (the entry calls it by this name). */
export function guardNameOf(fn: string): string {
  return `guard${capital(fn)}`;
}

/** Fails on a list entry that names no function or clause of the kernel. */
function checkList(k: KernelFacts): void {
  for (const e of [...HAND_CHECKS, ...UNGUARDED]) {
    const f = k.fns.find((x) => x.name === e.fn);
    if (f === undefined)
      throw new Error(`src/toolchain/emit/guard-list.ts: ${e.fn} is no verified kernel function (a stale entry)`);
    if (f.model)
      throw new Error(
        `src/toolchain/emit/guard-list.ts: ${e.fn} is a proof-only model, which gets no guard (a stale entry)`,
      );
    if (e.clause !== undefined && !f.requires.includes(e.clause))
      throw new Error(`src/toolchain/emit/guard-list.ts: ${e.fn} has no precondition \`${e.clause}\` (a stale entry)`);
  }
}

/** The text of src/engine/boundary/kernel-requires.ts for the kernel under a layout. */
export function generateGuards(l: Layout): string {
  return buildGuards(l).text;
}

/**
 * The kernel functions that have a guard (`guard` + the name capitalised): the `safecut/kernel`
 * entry checks each call's copied arguments with it (docs-emit.ts).
 */
export function guardedFunctions(l: Layout): ReadonlySet<string> {
  return buildGuards(l).guarded;
}

/** The guard module's text and the functions it guards. */
function buildGuards(l: Layout): { text: string; guarded: ReadonlySet<string> } {
  const k = readKernel(l);
  checkList(k);
  const used = new Set<string>();
  const types = new Set<string>();
  const records = new Set<string>();
  const out: string[] = [];
  const nothing: string[] = [];
  const guarded = new Set<string>();
  const models: string[] = [];
  for (const f of k.fns) {
    if (f.model) {
      models.push(f.name);
      continue;
    }
    const skip = UNGUARDED.find((u) => u.fn === f.name);
    if (skip !== undefined) {
      out.push("", `// ${f.name}: no guard (\`${skip.clause}\` has no runtime check): ${skip.why}.`);
      continue;
    }
    const body = guardBody(f, k, used, records);
    if (body.length === 0) {
      nothing.push(f.name);
      continue;
    }
    for (const p of f.params)
      for (const t of p.type.match(/\b[A-Z]\w*\b/g) ?? []) if (k.typeModule.has(t)) types.add(t);
    const vouches = HAND_CHECKS.some((h) => h.fn === f.name && h.vouch !== undefined);
    // a parameter no check reads (splice's summary) is named as unused
    const read = (n: string): boolean => body.some((b) => new RegExp(`\\b${n}\\b`).test(b));
    const params = [
      ...f.params.map((p) => `${read(p.name) ? "" : "_"}${p.name}: ${p.type}`),
      ...(vouches ? ["vouched: Vouched = NOTHING_VOUCHED"] : []),
    ];
    guarded.add(f.name);
    out.push(
      "",
      `/** ${f.name} (src/kernel/${f.module}.ts): throws a KernelBoundaryError naming the first precondition the call breaks. */`,
      `export function ${guardNameOf(f.name)}${f.tparams}(${params.join(", ")}): void {`,
      ...body,
      "}",
    );
  }
  const recordChecks = [...records]
    .sort()
    .flatMap((t) => [
      "",
      `/** Every number field of a ${t} is a safe integer (the proofs read integers). */`,
      `function integers${t}(fn: string, name: string, x: ${t}): void {`,
      ...(k.numberFields.get(t) ?? []).map(
        (field) => `  if (!Number.isSafeInteger(x.${field})) fail(fn, \`\${name}.${field} a safe integer\`);`,
      ),
      "}",
    ]);
  for (const t of records) types.add(t);
  const byModule = (names: Iterable<string>, of: ReadonlyMap<string, string>): Map<string, string[]> => {
    const m = new Map<string, string[]>();
    for (const n of [...names].sort()) {
      const mod = of.get(n);
      if (mod !== undefined) m.set(mod, [...(m.get(mod) ?? []), n]);
    }
    return m;
  };
  const kernelImports = [...byModule(used, k.fnModule)]
    .sort()
    .map(([m, ns]) => `import { ${ns.join(", ")} } from "../../kernel/${m}.ts";`);
  const typeImports = [...byModule(types, k.typeModule)]
    .sort()
    .map(([m, ns]) => `import type { ${ns.join(", ")} } from "../../kernel/${m}.ts";`);
  const helperImports = Object.entries(HELPERS).flatMap(([mod, ns]) => {
    const needed = ns.filter((n) => used.has(n));
    return needed.length === 0 ? [] : [`import { ${needed.join(", ")} } from "${mod}";`];
  });
  const text = `${[
    "// The kernel's preconditions as runtime checks: one guard per verified kernel function, which",
    "// throws a KernelBoundaryError naming the first `//@ requires` (or exactness check) a call breaks.",
    "// Generated by `npm run docs` (src/toolchain/emit/guards-emit.ts) from the `//@ requires` in src/kernel/",
    "// and the hand-written list src/toolchain/emit/guard-list.ts; do not edit.",
    "",
    ...kernelImports,
    ...typeImports,
    'import { KernelBoundaryError } from "../../model/errors.ts";',
    ...helperImports,
    "",
    "/** Preconditions a caller keeps itself and vouches for, instead of a full check here. */",
    "export interface Vouched {",
    "  /** the views' tool pairing (the store keeps it incrementally over its live views) */",
    "  readonly Pairing?: boolean;",
    "}",
    "",
    "const NOTHING_VOUCHED: Vouched = {};",
    "",
    "function fail(fn: string, requirement: string): never {",
    "  throw new KernelBoundaryError(fn, requirement);",
    "}",
    ...recordChecks,
    ...out,
    "",
    `// no precondition to check: ${nothing.join(", ")}.`,
    `// proof-only models, never called by the engine (no guard): ${models.join(", ")}.`,
  ].join("\n")}\n`;
  return { text, guarded };
}

/** Whether the project has the engine the guards are for (a kernel-only copy, as the teeth tests make, has none). */
function hasEngine(l: Layout): boolean {
  return existsSync(dirname(join(l.root, GUARD_FILE)));
}

/** Writes the generated guard module when its text changed; returns the files written. */
export function writeGuards(l: Layout): string[] {
  if (!hasEngine(l)) return [];
  const text = generateGuards(l);
  const path = join(l.root, GUARD_FILE);
  if (existsSync(path) && readFileSync(path, "utf8") === text) return [];
  writeFileSync(path, text);
  return [GUARD_FILE];
}

/** A reason the committed guard module is stale (differs from a fresh generation), or null. */
export function staleGuards(l: Layout): string | null {
  if (!hasEngine(l)) return null;
  const path = join(l.root, GUARD_FILE);
  if (!existsSync(path)) return `${GUARD_FILE} is missing (run: npm run docs)`;
  return readFileSync(path, "utf8") === generateGuards(l)
    ? null
    : `${GUARD_FILE} differs from a fresh generation from the kernel's //@ requires (run: npm run docs; never edit it by hand)`;
}
