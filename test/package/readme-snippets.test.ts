// Every ```ts snippet of README.md and of the docs/ pages it links (PAGES) type-checks as written against the built package (dist/ and
// its .d.ts, through package.json's exports, as an installed `safecut` resolves) under the
// strictest common tsconfig (the @tsconfig/strictest options: strict, exactOptionalPropertyTypes,
// noUncheckedIndexedAccess, noUnusedLocals...; module nodenext), each saved as `.mts` in a
// project like the one `npm init -y` makes (CommonJS by default), as README says to.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "../..");

/** The pages whose TypeScript blocks are checked: README.md and the docs/ pages moved out of it. */
const PAGES = [
  "README.md",
  "docs/library.md",
  "docs/integrations.md",
  "docs/sessions.md",
  "docs/cli.md",
  "docs/settings.md",
  "docs/benchmarks.md",
  "docs/proofs.md",
];

/** The TypeScript blocks of those pages, as written. */
function snippets(): string[] {
  return PAGES.flatMap((page) => {
    const text = readFileSync(join(ROOT, page), "utf8");
    return Array.from(text.matchAll(/```ts\n([\s\S]*?)```/g), (m) => m[1] ?? "");
  });
}

const STRICTEST = {
  compilerOptions: {
    strict: true,
    exactOptionalPropertyTypes: true,
    noUncheckedIndexedAccess: true,
    noImplicitOverride: true,
    noImplicitReturns: true,
    noFallthroughCasesInSwitch: true,
    noPropertyAccessFromIndexSignature: true,
    noUnusedLocals: true,
    noUnusedParameters: true,
    allowUnusedLabels: false,
    allowUnreachableCode: false,
    isolatedModules: true,
    esModuleInterop: true,
    forceConsistentCasingInFileNames: true,
    skipLibCheck: true,
    module: "nodenext",
    moduleResolution: "nodenext",
    target: "es2022",
    types: ["node"],
    noEmit: true,
  },
  include: ["*.mts"],
};

describe("README's entry table", () => {
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");
  const rows = new Map(
    Array.from(readme.matchAll(/^\| `(safecut[^`]*)` \| (.*) \|$/gm), (m) => [m[1] ?? "", m[2] ?? ""] as const),
  );
  const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { exports: Record<string, unknown> };

  it("lists every entry of package.json's exports", () => {
    const entries = Object.keys(pkg.exports)
      .filter((k) => k !== "./package.json")
      .map((k) => (k === "." ? "safecut" : `safecut/${k.slice(2)}`));
    expect([...rows.keys()].sort()).toEqual(entries.sort());
  });

  it("every function a row names is exported by that entry of the built package", async () => {
    expect(existsSync(join(ROOT, "dist/index.js")), "build first: npm run build").toBe(true);
    for (const [entry, text] of rows) {
      const target = pkg.exports[entry === "safecut" ? "." : `./${entry.slice("safecut/".length)}`] as {
        default: string;
      };
      const mod = (await import(join(ROOT, target.default))) as Record<string, unknown>;
      const named = Array.from(text.matchAll(/`([a-z][A-Za-z]+)`/g), (m) => m[1] ?? "").filter((n) =>
        /^[a-z]+[A-Z]/.test(n),
      );
      for (const name of named) expect(typeof mod[name], `${entry} exports ${name}`).toBe("function");
    }
  });
});

describe("README's TypeScript snippets", { timeout: 180_000 }, () => {
  it("type-check against the built package under the strictest common tsconfig", () => {
    expect(existsSync(join(ROOT, "dist/index.d.ts")), "build first: npm run build").toBe(true);
    const blocks = snippets();
    expect(blocks.length).toBeGreaterThanOrEqual(12);
    const dir = join(ROOT, ".tmp/readme-snippets");
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(join(dir, "node_modules"), { recursive: true });
    // `safecut` as installed: this checkout, resolved through its package.json exports (dist/);
    // the SDKs and @types/node resolve from the checkout's node_modules above
    symlinkSync(ROOT, join(dir, "node_modules/safecut"), "dir");
    writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "app", version: "1.0.0", type: "commonjs" }));
    writeFileSync(join(dir, "tsconfig.json"), JSON.stringify(STRICTEST, null, 2));
    blocks.forEach((b, k) => {
      writeFileSync(join(dir, `snippet-${k}.mts`), b);
    });
    const r = spawnSync(process.execPath, [join(ROOT, "node_modules/typescript/bin/tsc"), "-p", dir], {
      cwd: dir,
      encoding: "utf8",
    });
    expect(`${r.stdout}${r.stderr}`).toBe("");
    expect(r.status).toBe(0);
  });
});
