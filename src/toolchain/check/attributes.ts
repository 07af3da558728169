// The allow-list of Dafny attributes: the only ones generated or companion Dafny may carry
// without being counted as trusted. An attribute can change what the prover checks (Boogie's
// `{:selective_checking}` with `{:start_checking_here}` turns every earlier assertion into an
// assumption; `{:fuel}`, `{:focus}`, `@IsolateAssertions` and the rest change or split what is
// proven), and no list of bad spellings can be complete, so every attribute outside this list
// is trusted material that proofs/PROPERTIES.md must name (trusted.ts), whatever it does.

import type { AttributeUse } from "./dafny-scan.ts";

/** Each attribute the project needs, with why it cannot make the prover assume anything. */
export const ALLOWED_ATTRIBUTES: ReadonlyMap<string, string> = new Map([
  [
    "opaque",
    "hides a function's body from the prover except where a proof reveals it: the prover knows less, never more (proofs/dafny/stretch.dfy's SplicedViewSealed keeps a large predicate out of every proof that does not reveal it)",
  ],
  [
    "trigger",
    "names the terms on which the prover instantiates a quantifier: it restricts which facts are derived, never adds one",
  ],
]);

/**
 * Attributes the checker already counts under their own trusted kind when written on a
 * declaration (trusted.ts: `{:axiom}`, `{:extern}` and `@Axiom` as axiom or extern; `{:verify}`,
 * `{:only}` and `@VerifyOnly` as verify-false wherever they stand, dafny-scan.ts `skipsProof`).
 */
const COUNTED_ON_DECLARATIONS = new Set(["axiom", "extern", "@Axiom"]);
const COUNTED_ANYWHERE = new Set(["verify", "only", "@VerifyOnly"]);

/** How an attribute is written, for messages and PROPERTIES.md rows: `{:name}` or `@Name`. */
export function attributeText(a: AttributeUse): string {
  return a.name.startsWith("@") ? a.name : `{:${a.name}}`;
}

/** Whether an attribute use must be listed as trusted under the kind "attribute" (outside the allow-list, counted nowhere else). */
export function isUnlistedAttribute(a: AttributeUse): boolean {
  if (ALLOWED_ATTRIBUTES.has(a.name)) return false;
  if (COUNTED_ANYWHERE.has(a.name) && a.decl !== null) return false;
  return !(COUNTED_ON_DECLARATIONS.has(a.name) && a.head);
}

/** The heading of PROPERTIES.md's table of allowed attributes. */
export const ALLOWED_HEADING = "### Allowed attributes";

/** The rows PROPERTIES.md's allow-list table must hold, one per allowed attribute: `| name | why |`. */
export function allowListRows(): string[] {
  return [...ALLOWED_ATTRIBUTES].map(([name, why]) => `| ${name} | ${why} |`);
}

/** Differences between PROPERTIES.md's allow-list table and ALLOWED_ATTRIBUTES; empty when they agree. */
export function compareAllowList(md: string, file: string): string[] {
  const at = md.indexOf(`\n${ALLOWED_HEADING}\n`);
  if (at < 0) return [`${file}: no "${ALLOWED_HEADING}" section; it lists ${allowListRows().join(" ")}`];
  const rest = md.slice(at + ALLOWED_HEADING.length + 2);
  const end = rest.search(/\n#{1,3} /);
  const rows = (end < 0 ? rest : rest.slice(0, end))
    .split("\n")
    .filter((l) => l.startsWith("|") && !/^\|\s*-/.test(l) && !/^\|\s*attribute\s*\|/.test(l))
    .map((l) => l.trim());
  const want = allowListRows();
  const problems: string[] = [];
  for (const w of want) if (!rows.includes(w)) problems.push(`${file}: the allow-list lacks the row ${w}`);
  for (const r of rows)
    if (!want.includes(r))
      problems.push(
        `${file}: the allow-list row ${r} is not src/toolchain/check/attributes.ts's; remove or correct it`,
      );
  return problems;
}
