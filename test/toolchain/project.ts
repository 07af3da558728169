// Temporary projects for checker tests: a kernel, proof companions and the Z3 wrapper under a
// fresh root, or a copy of this repository's kernel and proofs.

import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { ALLOWED_HEADING, allowListRows } from "../../src/toolchain/check/attributes.ts";
import { layout } from "../../src/toolchain/frontend/load.ts";

export const REPO = join(import.meta.dirname, "..", "..");
const roots: string[] = [];

/** Removes every project made so far (call from afterAll). */
export function removeProjects(): void {
  for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true });
}

/** A temporary project: kernel modules (name -> TypeScript), companions (name -> Dafny), and other files (path -> text). */
export function project(
  sources: Record<string, string>,
  companions: Record<string, string> = {},
  files: Record<string, string> = {},
): string {
  const root = mkdtempSync(join(tmpdir(), "safecut-check-"));
  roots.push(root);
  const l = layout(root);
  for (const d of [l.kernelDir, l.companionDir, l.dafnyDir, join(root, "scripts")]) mkdirSync(d, { recursive: true });
  cpSync(join(REPO, "scripts", "z3-wrapper.sh"), join(root, "scripts", "z3-wrapper.sh"));
  for (const [n, text] of Object.entries(sources)) writeFileSync(join(l.kernelDir, `${n}.ts`), text);
  for (const [n, text] of Object.entries(companions)) writeFileSync(join(l.companionDir, `${n}.dfy`), text);
  for (const [p, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, p)), { recursive: true });
    writeFileSync(join(root, p), text);
  }
  return root;
}

/** A temporary copy of this repository's kernel, proofs, generated Dafny and Z3 wrapper. */
export function copyRepo(): string {
  const root = mkdtempSync(join(tmpdir(), "safecut-check-"));
  roots.push(root);
  for (const p of [join("src", "kernel"), "proofs", "dafny", join("scripts", "z3-wrapper.sh")])
    cpSync(join(REPO, p), join(root, p), { recursive: true });
  return root;
}

/** A PROPERTIES.md with the given per-file counts ("m.dfy: 3"), trusted rows (`| kind | name | file | count | why |`) and the allow-list of attributes. */
export function properties(counts: Record<string, number>, trusted: string[] = []): string {
  return [
    "# Properties",
    "",
    "## Laws",
    "",
    ...Object.entries(counts).map(([f, n]) => `- ${f}: ${n}`),
    "",
    "## Assumptions",
    "",
    "### Trusted elements",
    "",
    "| kind | name | file | count | why |",
    "|------|------|------|-------|-----|",
    ...trusted,
    "",
    ALLOWED_HEADING,
    "",
    "| attribute | why it is allowed |",
    "|-----------|-------------------|",
    ...allowListRows(),
    "",
  ].join("\n");
}
