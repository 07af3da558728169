// Trusted material and what proofs/PROPERTIES.md says about it: every element the prover
// assumes instead of proving (externs, axioms, bodiless functions and lemmas, `assume` and
// `expect`, `{:verify false}` in any spelling that skips a proof (dafny-scan.ts), `decreases *`,
// every attribute outside the allow-list (attributes.ts), an `import` of a module the project does
// not declare, `//@ type x nat` parameters) must be listed by name in
// the "Trusted elements" table, and the per-file counts of the laws table must be the check's.

import type { Module } from "../ir/ir.ts";
import { attributeText, isUnlistedAttribute } from "./attributes.ts";
import type { DafnyScan } from "./dafny-scan.ts";

/** The kinds of trusted element, as written in PROPERTIES.md's first column. */
export const TRUSTED_KINDS = [
  "extern",
  "axiom",
  "assume",
  "verify-false",
  "nontermination",
  "attribute",
  "import",
  "nat-parameter",
  "unbounded-numbers",
] as const;
export type TrustedKind = (typeof TRUSTED_KINDS)[number];

/** One trusted element: the same kind, name and file are one row, `count` says how many. */
export interface Trusted {
  kind: TrustedKind;
  name: string;
  /** path relative to the project root */
  file: string;
  count: number;
}

/** The properties file, relative to the project root. */
export const PROPERTIES_FILE = "proofs/PROPERTIES.md";
/** The heading of the machine-read table of trusted elements in PROPERTIES.md. */
export const TRUSTED_HEADING = "### Trusted elements";

function add(out: Trusted[], kind: TrustedKind, name: string, file: string, count = 1): void {
  const row = out.find((t) => t.kind === kind && t.name === name && t.file === file);
  if (row) row.count += count;
  else out.push({ kind, name, file, count });
}

/** Every trusted element in the scanned Dafny files (path -> scan) and the kernel's nat parameters. */
export function collectTrusted(scans: Map<string, DafnyScan>, mods: Module[]): Trusted[] {
  const out: Trusted[] = [];
  const declared = new Set([...scans.values()].flatMap((s) => s.modules));
  for (const [file, scan] of [...scans].sort(([a], [b]) => a.localeCompare(b))) {
    for (const a of scan.attributes)
      if (isUnlistedAttribute(a)) add(out, "attribute", `${a.decl ?? "(top level)"} ${attributeText(a)}`, file);
    for (const imp of scan.imports) if (!declared.has(imp.name.split(".")[0])) add(out, "import", imp.name, file);
    for (const d of scan.decls) {
      if (d.kind === "type") continue;
      const generated = file.startsWith("dafny/");
      if (d.attrs.includes("axiom") || d.attrs.includes("extern") || !d.hasBody)
        add(out, generated && d.attrs.includes("axiom") ? "extern" : "axiom", d.name, file);
      if (d.attrs.includes("verify false")) add(out, "verify-false", d.name, file);
      if (d.assumes > 0) add(out, "assume", d.name, file, d.assumes);
      if (d.decreasesStar) add(out, "nontermination", d.name, file);
    }
  }
  for (const m of mods) {
    if (m.unboundedNumbers) add(out, "unbounded-numbers", m.name, m.source);
    for (const f of m.fns) {
      for (const p of f.params) if (p.ty.k === "nat") add(out, "nat-parameter", `${f.name}.${p.name}`, m.source);
    }
  }
  return out;
}

/** The rows of PROPERTIES.md's trusted table: `| kind | name | file | count | why |`. */
export function parseTrustedTable(md: string): { rows: Trusted[]; problems: string[] } {
  const problems: string[] = [];
  const at = md.indexOf(`\n${TRUSTED_HEADING}\n`);
  if (at < 0) return { rows: [], problems: [`${PROPERTIES_FILE}: no "${TRUSTED_HEADING}" section`] };
  const rest = md.slice(at + TRUSTED_HEADING.length + 2);
  const end = rest.search(/\n#{1,3} /);
  const rows: Trusted[] = [];
  for (const line of (end < 0 ? rest : rest.slice(0, end)).split("\n")) {
    if (!line.startsWith("|") || /^\|\s*-/.test(line) || /^\|\s*kind\s*\|/.test(line)) continue;
    const cells = line
      .split("|")
      .slice(1, -1)
      .map((c) => c.trim().replace(/^`|`$/g, ""));
    const [kind, name, file, count] = cells;
    if (
      !(TRUSTED_KINDS as readonly string[]).includes(kind) ||
      !name ||
      !file ||
      !/^\d+$/.test(count ?? "") ||
      !cells[4]
    ) {
      problems.push(
        `${PROPERTIES_FILE}: trusted row "${line}" is not "| kind | name | file | count | why |" with kind one of ${TRUSTED_KINDS.join(", ")}`,
      );
      continue;
    }
    rows.push({ kind: kind as TrustedKind, name, file, count: Number(count) });
  }
  return { rows, problems };
}

function rowText(t: Trusted): string {
  return `| ${t.kind} | ${t.name} | ${t.file} | ${t.count} | <why> |`;
}

/** Differences between the trusted elements found and the rows listed; empty when they agree. */
export function compareTrusted(found: Trusted[], md: string): string[] {
  const { rows, problems } = parseTrustedTable(md);
  const same = (a: Trusted, b: Trusted): boolean => a.kind === b.kind && a.name === b.name && a.file === b.file;
  for (const t of found) {
    const row = rows.find((r) => same(r, t));
    if (!row)
      problems.push(
        `${PROPERTIES_FILE}: trusted ${t.kind} ${t.name} (${t.file}, ${t.count}) is not listed; add the row ${rowText(t)} under "${TRUSTED_HEADING}"`,
      );
    else if (row.count !== t.count)
      problems.push(
        `${PROPERTIES_FILE}: trusted ${t.kind} ${t.name} (${t.file}) is listed with count ${row.count}, the files hold ${t.count}`,
      );
  }
  for (const r of rows) {
    if (!found.some((t) => same(r, t)))
      problems.push(
        `${PROPERTIES_FILE}: lists trusted ${r.kind} ${r.name} (${r.file}), which the files no longer hold; remove its row`,
      );
  }
  return problems;
}

/** The per-file counts written in PROPERTIES.md ("stretch.dfy: 38"), file -> every count written for it. */
export function parseFileCounts(md: string): Map<string, number[]> {
  const laws = md.slice(0, Math.max(0, md.indexOf("\n## Assumptions")) || md.length);
  const out = new Map<string, number[]>();
  for (const m of laws.matchAll(/\b([\w-]+\.dfy): (\d+)\b/g)) out.set(m[1], [...(out.get(m[1]) ?? []), Number(m[2])]);
  return out;
}

/** Differences between PROPERTIES.md's per-file counts and the verified counts (file -> count); empty when they agree. */
export function compareFileCounts(counts: Map<string, number>, md: string, proverName: string): string[] {
  const written = parseFileCounts(md);
  const problems: string[] = [];
  for (const [file, n] of counts) {
    const w = written.get(file);
    if (n === 0 && !w) continue;
    if (!w)
      problems.push(
        `${PROPERTIES_FILE}: no count for ${file}; write "${file}: ${n}" in the "VCs proven" column of its law (${proverName} verified ${n} items)`,
      );
    else if (w.some((x) => x !== n))
      problems.push(
        `${PROPERTIES_FILE}: says ${file}: ${w.join(", ")}; ${proverName} verified ${n} items: change it to "${file}: ${n}"`,
      );
  }
  return problems;
}
