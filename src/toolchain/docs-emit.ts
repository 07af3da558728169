// The kernel's contracts as documentation, generated from the same `//@` annotations the Dafny
// backend translates: docs/kernel.md (each verified function, its preconditions, its guarantees
// and the law it serves) and src/entries/kernel.ts, the `safecut/kernel` entry, which re-exports
// every verified function with its contract in its TSDoc, so an editor shows what is proven.

import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import ts from "typescript";
import { type Annotation, leadingAnnotations } from "./annotations.ts";
import { type Layout, loadKernel } from "./program.ts";

/** The generated files, relative to the project root. */
export const DOC_FILES = { markdown: "docs/kernel.md", entry: "src/entries/kernel.ts" } as const;

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

/** Law names (L1, L2-L6) in a module's opening comment, in order of first mention. */
function headerLaws(sf: ts.SourceFile): string[] {
  const first = sf.statements[0];
  const header = sf.text.slice(0, first === undefined ? sf.text.length : first.getStart(sf));
  const comments = header
    .split("\n")
    .filter((l) => /^\s*\/\/(?!@)/.test(l))
    .join("\n");
  return [...new Set(comments.match(/\bL\d+(?:-L\d+)?\b/g) ?? [])];
}

/** The text of the last `/** ... *\/` comment directly above a node, markers removed. */
function docComment(sf: ts.SourceFile, node: ts.Node): string {
  const ranges = ts.getLeadingCommentRanges(sf.text, node.getFullStart()) ?? [];
  const docs = ranges.filter((r) => sf.text.startsWith("/**", r.pos));
  const last = docs[docs.length - 1];
  if (last === undefined) return "";
  return sf.text
    .slice(last.pos + 3, last.end - 2)
    .split("\n")
    .map((l) => l.replace(/^\s*\*\s?/, "").trimEnd())
    .join("\n")
    .trim();
}

/** An annotation's specification in the form a reader sees: `\result` is the function's result. */
function readable(a: Annotation): string {
  return a.text
    .replace(/\\result\b/g, "result")
    .replace(/\s+/g, " ")
    .trim();
}

function isExported(node: ts.Node): boolean {
  return ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
}

function fnDoc(sf: ts.SourceFile, fd: ts.FunctionDeclaration, ann: readonly Annotation[]): FnDoc {
  const requires: string[] = [];
  const ensures: string[] = [];
  for (const a of ann) {
    if (a.kind === "requires") requires.push(readable(a));
    else if (a.kind === "ensures") ensures.push(readable(a));
    else if (a.kind === "type") {
      // `//@ type x nat`: x (a parameter, or \result) is a natural number
      const [what] = readable(a).split(/\s+/);
      (what === "result" ? ensures : requires).push(`${what} >= 0 (a natural number)`);
    }
  }
  return {
    name: fd.name?.text ?? "",
    tparams: fd.typeParameters === undefined ? "" : `<${fd.typeParameters.map((t) => t.getText(sf)).join(", ")}>`,
    typedParams: fd.parameters.map((p) => p.getText(sf).replace(/\s+/g, " ")),
    returns: fd.type?.getText(sf) ?? "void",
    summary: docComment(sf, fd),
    requires,
    ensures,
  };
}

/** Every kernel module with its exported verified functions and exported types, in file order. */
export function kernelModules(l: Layout): ModuleDoc[] {
  // translating first makes the docs describe exactly what the prover checks (and fail as it does)
  const { mods } = loadKernel(l);
  return mods.map((m) => {
    const sf = ts.createSourceFile(
      m.source,
      readFileSync(join(l.root, m.source), "utf8"),
      ts.ScriptTarget.ES2022,
      true,
      ts.ScriptKind.TS,
    );
    const fns: FnDoc[] = [];
    const types: string[] = [];
    for (const st of sf.statements) {
      if (!isExported(st)) continue;
      if (ts.isFunctionDeclaration(st) && st.name !== undefined) {
        const ann = leadingAnnotations(sf, st);
        // an `extern` function is trusted, not proven: it stays out of the verified entry
        if (ann.some((a) => a.kind === "verify") && m.fns.some((f) => f.name === st.name?.text && !f.extern))
          fns.push(fnDoc(sf, st, ann));
      } else if ((ts.isInterfaceDeclaration(st) || ts.isTypeAliasDeclaration(st)) && st.name !== undefined) {
        types.push(st.name.text);
      }
    }
    return { name: m.name, source: m.source, laws: headerLaws(sf), companion: m.companion, fns, types };
  });
}

function lawText(m: ModuleDoc): string {
  return m.laws.length === 0 ? "no law named" : m.laws.join(", ");
}

/** "law L7", "laws L4, L5", "laws L2-L6". */
function lawPhrase(m: ModuleDoc): string {
  return `${m.laws.length > 1 || m.laws.some((x) => x.includes("-")) ? "laws" : "law"} ${lawText(m)}`;
}

const NO_REQUIRES = "none: every input";
const NO_ENSURES = "none beyond termination and the types";

/** One markdown bullet per specification, or one saying there is none. */
function bullets(xs: readonly string[], none: string): string[] {
  return xs.length === 0 ? [`- ${none}`] : xs.map((x) => `- \`${x}\``);
}

const NOTATION =
  "Notation: `result` is the function's return value; `==>` is implication, `<==>` equivalence; " +
  "`forall(x: nat, P)` / `exists(x: int, P)` quantify over integers (`nat`: >= 0); numbers are integers in the proofs.";

/** docs/kernel.md: per module, each verified function with preconditions, guarantees and law. */
export function kernelMarkdown(mods: readonly ModuleDoc[]): string {
  const out = [
    "# The verified kernel",
    "",
    "Generated by `npm run docs` (src/toolchain/docs-emit.ts) from the `//@` annotations in",
    "src/kernel/; do not edit. Each function below is exported by the `safecut/kernel` entry, and",
    "`scripts/check.sh dafny` proves, with Dafny, that for every input meeting its preconditions",
    "it returns a result meeting its guarantees. The laws (L1-L12) and every assumption are listed",
    "in proofs/PROPERTIES.md.",
    "",
    NOTATION,
    "",
  ];
  for (const m of mods) {
    if (m.fns.length === 0 && m.types.length === 0) continue;
    out.push(`## ${m.name} (${lawText(m)})`, "", `Source: ${m.source}.`);
    if (m.types.length > 0) out.push(`Types: ${m.types.map((t) => `\`${t}\``).join(", ")}.`);
    if (m.companion !== null)
      out.push(`Predicates and lemmas written with a capital letter are defined in proofs/dafny/${m.companion}.dfy.`);
    out.push("");
    for (const f of m.fns) {
      out.push(
        `### \`${f.name}\``,
        "",
        "```ts",
        `function ${f.name}${f.tparams}(${f.typedParams.join(", ")}): ${f.returns}`,
        "```",
        "",
      );
      if (f.summary !== "") out.push(f.summary.replace(/\n/g, " "), "");
      out.push(
        `Law: ${lawText(m)}.`,
        "",
        "Preconditions:",
        "",
        ...bullets(f.requires, NO_REQUIRES),
        "",
        "Guarantees:",
        "",
        ...bullets(f.ensures, NO_ENSURES),
        "",
      );
    }
  }
  return out.join("\n");
}

/** Text safe inside a `/** *\/` comment. */
function inComment(s: string): string {
  return s.replace(/\*\//g, "*\\/");
}

/** The namespace a kernel module is imported as (never a function's name: `splice` holds `splice`). */
function ns(m: ModuleDoc): string {
  return `${m.name}Module`;
}

/** src/entries/kernel.ts: every verified function re-exported under its name, with its contract as TSDoc. */
export function kernelEntry(mods: readonly ModuleDoc[]): string {
  const seen = new Map<string, string>();
  for (const m of mods) {
    for (const n of [...m.fns.map((f) => f.name), ...m.types]) {
      const other = seen.get(n);
      if (other !== undefined) throw new Error(`kernel entry: ${n} is exported by both ${other} and ${m.source}`);
      seen.set(n, m.source);
    }
  }
  const used = mods.filter((m) => m.fns.length > 0 || m.types.length > 0);
  const out = [
    "// The `safecut/kernel` entry: every verified kernel function and type, and nothing else.",
    "// Generated by `npm run docs` (src/toolchain/docs-emit.ts) from the `//@` annotations in",
    "// src/kernel/; do not edit. Each function's TSDoc carries the contract Dafny proves for it.",
    "",
    ...used.filter((m) => m.fns.length > 0).map((m) => `import * as ${ns(m)} from "../kernel/${m.name}.ts";`),
    "",
    ...used
      .filter((m) => m.types.length > 0)
      .map((m) => `import type { ${m.types.join(", ")} } from "../kernel/${m.name}.ts";`),
    "",
    `export type { ${used.flatMap((m) => m.types).join(", ")} };`,
  ];
  for (const m of used) {
    for (const f of m.fns) {
      const doc = [
        ...(f.summary === "" ? [] : [...f.summary.split("\n"), ""]),
        `Proven by Dafny (\`scripts/check.sh dafny\`), ${lawPhrase(m)}; see docs/kernel.md.`,
        "",
        "Requires:",
        ...bullets(f.requires, NO_REQUIRES),
        "",
        "Ensures:",
        ...bullets(f.ensures, NO_ENSURES),
      ];
      out.push("", "/**", ...doc.map((d) => (d === "" ? " *" : ` * ${inComment(d)}`)), " */");
      // the signature is written out (not `typeof`) so that editors show this comment, not the
      // kernel's own, at a call; the compiler checks it against the kernel function
      out.push(
        `export const ${f.name}: ${f.tparams}(${f.typedParams.join(", ")}) => ${f.returns} = ${ns(m)}.${f.name};`,
      );
    }
  }
  return `${out.join("\n")}\n`;
}

/** The generated documentation files: path relative to the root -> text. */
export function generateDocs(l: Layout): Map<string, string> {
  const mods = kernelModules(l);
  return new Map([
    [DOC_FILES.markdown, kernelMarkdown(mods)],
    [DOC_FILES.entry, kernelEntry(mods)],
  ]);
}

/** Writes the generated documentation; returns the files whose text changed. */
export function writeDocs(l: Layout): string[] {
  const changed: string[] = [];
  for (const [rel, text] of generateDocs(l)) {
    const path = join(l.root, rel);
    if (existsSync(path) && readFileSync(path, "utf8") === text) continue;
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
    changed.push(rel);
  }
  return changed;
}
