// Re-checking the proofs from an installed package under a TypeScript it cannot use: the
// translator reads the kernel with TypeScript 5's compiler API, which TypeScript 7 (a native
// compiler whose package exports only its version and an unstable API) does not offer. The peer
// range says so (below 7), and scripts/check.sh says so in one line, not with a stack trace.
// The package is laid out as npm installs it (node_modules/safecut beside node_modules/typescript),
// with the real typescript@7 from the registry.
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../support/cli-run.ts";

const ROOT = resolve(import.meta.dirname, "../..");
const TS7 = "7.0.2";

describe("scripts/check.sh of an installed package under TypeScript 7", () => {
  it("the peer range stops below 7", () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
      peerDependencies: Record<string, string>;
    };
    expect(pkg.peerDependencies.typescript).toBe(">=5.7 <7");
  });

  it("says in one line which TypeScript it needs (exit 3), no stack trace", () => {
    expect(existsSync(join(ROOT, "dist/toolchain/cli.js")), "run npm run build first").toBe(true);
    const d = tempDir();
    writeFileSync(join(d, "package.json"), JSON.stringify({ name: "consumer", version: "1.0.0", private: true }));
    execFileSync("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", `typescript@${TS7}`], {
      cwd: d,
      stdio: "ignore",
    });
    const pkg = join(d, "node_modules/safecut");
    mkdirSync(join(pkg, "scripts"), { recursive: true });
    cpSync(join(ROOT, "package.json"), join(pkg, "package.json"));
    cpSync(join(ROOT, "scripts/check.sh"), join(pkg, "scripts/check.sh"));
    cpSync(join(ROOT, "dist"), join(pkg, "dist"), { recursive: true });
    const r = spawnSync("bash", ["node_modules/safecut/scripts/check.sh", "dafny"], { cwd: d, encoding: "utf8" });
    expect(r.stderr).not.toMatch(/TypeError|\n\s+at /);
    expect(r.stderr).toBe(
      `check.sh: re-checking the proofs needs TypeScript 5.7 or later, below 7 (found ${TS7}): the translator reads the kernel with TypeScript 5's compiler API, which TypeScript 7 does not offer; install it beside safecut: npm install -D typescript@5\n`,
    );
    expect(r.status).toBe(3);
  }, 120_000);
});
