// The package as a dependency: `npm pack`, install the tarball into a fresh project offline
// (its dependencies come from npm's cache, pinned by a lockfile made from ours), then use it
// the ways a user would: plain node (ESM and require), TypeScript under node16 and bundler
// resolution, the README's library and kernel snippets exactly as written, the installed bin, and the
// shipped proof artifacts re-generated from the shipped kernel sources.
import { execFileSync, type SpawnSyncReturns, spawnSync } from "node:child_process";
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "../..");
const EXAMPLE = "examples/session.openai.json";

let tmp = "";
let app = "";
let packed: string[] = [];

function run(cmd: string, args: readonly string[], cwd = app, env: NodeJS.ProcessEnv = {}): SpawnSyncReturns<string> {
  return spawnSync(cmd, args, { cwd, encoding: "utf8", env: { ...process.env, ...env }, timeout: 120_000 });
}

/** Output of a run that must succeed; shows its stderr when it does not. */
function ok(r: SpawnSyncReturns<string>): string {
  expect(r.error, String(r.error)).toBeUndefined();
  expect(r.status, `exit ${r.status}\n${r.stderr}\n${r.stdout.slice(0, 2000)}`).toBe(0);
  return r.stdout;
}

/** A lockfile entry for every package safecut depends on (transitively), taken from our lockfile. */
function dependencyLock(deps: Readonly<Record<string, string>>): Record<string, object> {
  const lock = JSON.parse(readFileSync(join(ROOT, "package-lock.json"), "utf8")) as {
    packages: Record<string, { version: string; integrity: string; dependencies?: Record<string, string> }>;
  };
  const out: Record<string, object> = {};
  const todo = Object.keys(deps);
  while (todo.length > 0) {
    const name = todo.pop() as string;
    const key = `node_modules/${name}`;
    if (key in out) continue;
    const e = lock.packages[key];
    if (e === undefined) throw new Error(`${name} is not in package-lock.json`);
    const base = name.replace(/^@[^/]+\//, "");
    out[key] = {
      version: e.version,
      resolved: `https://registry.npmjs.org/${name}/-/${base}-${e.version}.tgz`,
      integrity: e.integrity,
      dependencies: e.dependencies,
    };
    todo.push(...Object.keys(e.dependencies ?? {}));
  }
  return out;
}

beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), "safecut-consumer-"));
  // Packed from a copy without dist/ (as a fresh clone has it): `npm pack` runs `prepare`, so
  // this also proves the build runs from the sources, and it never rewrites this checkout's
  // dist/ while other tests run bin/safecut.js.
  const source = join(tmp, "source");
  cpSync(ROOT, source, {
    recursive: true,
    filter: (from) => !/^(node_modules|dist|\.git|\.tmp)$/.test(relative(ROOT, from)),
  });
  symlinkSync(join(ROOT, "node_modules"), join(source, "node_modules"));
  const info = JSON.parse(
    execFileSync("npm", ["pack", "--json", "--pack-destination", tmp], {
      cwd: source,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    }),
  ) as Array<{ filename: string; files: Array<{ path: string }> }>;
  packed = info[0].files.map((f) => f.path);
  const tarball = info[0].filename;
  const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
    version: string;
    dependencies: Record<string, string>;
  };

  app = join(tmp, "app");
  mkdirSync(join(app, "examples"), { recursive: true });
  copyFileSync(join(ROOT, EXAMPLE), join(app, EXAMPLE));
  const dependencies = { safecut: `file:../${tarball}` };
  writeFileSync(
    join(app, "package.json"),
    JSON.stringify({ name: "consumer", version: "1.0.0", private: true, type: "module", dependencies }, null, 2),
  );
  writeFileSync(
    join(app, "package-lock.json"),
    JSON.stringify(
      {
        name: "consumer",
        version: "1.0.0",
        lockfileVersion: 3,
        requires: true,
        packages: {
          "": { name: "consumer", version: "1.0.0", dependencies },
          "node_modules/safecut": {
            version: pkg.version,
            resolved: `file:../${tarball}`,
            dependencies: pkg.dependencies,
            bin: { safecut: "bin/safecut.js" },
          },
          ...dependencyLock(pkg.dependencies),
        },
      },
      null,
      2,
    ),
  );
  ok(run("npm", ["ci", "--offline", "--no-audit", "--no-fund"]));
}, 300_000);

afterAll(() => {
  if (tmp !== "") rmSync(tmp, { recursive: true, force: true });
});

describe("the packed tarball", { timeout: 180_000 }, () => {
  it("holds the build, the docs, the licence and everything needed to re-check the proofs", () => {
    for (const f of [
      "dist/index.js",
      "dist/index.d.ts",
      "dist/index.js.map",
      "dist/entries/kernel.js",
      "dist/entries/kernel.d.ts",
      "dist/toolchain/cli.js",
      "bin/safecut.js",
      "README.md",
      "LICENSE",
      "docs/kernel.md",
      "package.json",
      "src/kernel/cutpoint.ts",
      "dafny/cutpoint.dfy",
      "proofs/PROPERTIES.md",
      "proofs/dafny/cutpoint.dfy",
      "scripts/check.sh",
      "scripts/z3-wrapper.sh",
    ])
      expect(packed, f).toContain(f);
    expect(packed.filter((f) => /^(test|bench|src\/reference|dist\/reference)\//.test(f))).toEqual([]);
    // bin/safecut.js looks for it to tell a checkout (stale-build warning) from an installed package
    expect(packed).not.toContain("tsconfig.build.json");
  });
});

describe("a plain node consumer", { timeout: 180_000 }, () => {
  it("imports safecut and safecut/kernel and compacts the example session", () => {
    writeFileSync(
      join(app, "use.mjs"),
      `
import { readFileSync } from "node:fs";
import { compact, readConversationFile } from "safecut";
import { findCutPoint, selectStretch } from "safecut/kernel";
const file = readConversationFile(readFileSync("${EXAMPLE}", "utf8"));
const { messages, report } = await compact(file.messages, { token_threshold: 8000, target_percent: 90 });
const cut = findCutPoint(["user", "assistant", "tool", "user", "assistant"], [5, 5, 50, 5, 5], [-1, -1, 1, -1, -1], [-1, 2, -1, -1, -1], 0, 5, 10);
const stretch = selectStretch(["user", "assistant", "tool", "user", "assistant"], [-1, -1, 1, -1, -1], [-1, 2, -1, -1, -1], [false, false, false, false, false], 1);
console.log(JSON.stringify({ before: file.messages.length, after: messages.length, cleared: report.clearing?.results ?? 0, tokensBefore: report.tokensBefore, tokensAfter: report.tokensAfter, outcome: report.outcome, laws: report.laws.every((l) => l.ok), cut, stretch }));
`,
    );
    const out = JSON.parse(ok(run("node", ["use.mjs"]))) as {
      before: number;
      after: number;
      cleared: number;
      tokensBefore: number;
      tokensAfter: number;
      outcome: string;
      laws: boolean;
      cut: unknown;
      stretch: unknown;
    };
    // the default clear-then-summarize: clearing old tool results alone brings the example to its
    // target, 90% of 8000 tokens (every message kept, fewer tokens), no summarizer call
    expect(out.outcome).toBe("compacted");
    expect(out.cleared).toBeGreaterThan(0);
    expect(out.after).toBe(out.before);
    expect(out.tokensAfter).toBeLessThan(8000);
    expect(out.tokensAfter).toBeLessThan(out.tokensBefore);
    expect(out.laws).toBe(true);
    expect(out.cut).toEqual({ found: true, firstKept: 3, turnStart: -1, isSplitTurn: false });
    expect(out.stretch).toEqual({ found: true, start: 1, end: 3 });
  });

  it("can require() every entry where Node loads ES modules with require (20.19+, 22.12+)", () => {
    writeFileSync(
      join(app, "use.cjs"),
      `
const safecut = require("safecut");
const kernel = require("safecut/kernel");
const adapters = require("safecut/adapters");
const providers = require("safecut/providers");
console.log(JSON.stringify([typeof safecut.compact, typeof kernel.findCutPoint, typeof adapters.readConversationFile, typeof providers.offlineSummarizer]));
`,
    );
    const r = run("node", ["use.cjs"]);
    const [major, minor] = process.versions.node.split(".").map(Number);
    if (major > 22 || (major === 22 && minor >= 12) || (major === 20 && minor >= 19)) {
      expect(JSON.parse(ok(r))).toEqual(["function", "function", "function", "function"]);
    } else {
      // older Node refuses with its own error, as the README says (use import() there)
      expect(r.stderr).toContain("ERR_REQUIRE_ESM");
    }
  });
});

describe("a TypeScript consumer", { timeout: 180_000 }, () => {
  const tsc = join(ROOT, "node_modules", "typescript", "bin", "tsc");
  const consumer = `
import { compact, type CompactResult, type Message } from "safecut";
import { findCutPoint, selectStretch, pairingOk, type CutPoint, type Role, type Stretch } from "safecut/kernel";
import { readConversationFile } from "safecut/adapters";
import { offlineSummarizer, charCounter, type Summarizer } from "safecut/providers";

const roles: Role[] = ["user", "assistant", "tool", "user"];
const cut: CutPoint = findCutPoint(roles, [1, 2, 3, 4], [-1, -1, 1, -1], [-1, 2, -1, -1], 0, 4, 3);
const s: Stretch = selectStretch(roles, [-1, -1, 1, -1], [-1, 2, -1, -1], [false, false, false, false], 1);
const fine: boolean = pairingOk(roles, [-1, -1, 1, -1], [-1, 2, -1, -1], [false, false, false, false]);
const summarizer: Summarizer = offlineSummarizer(charCounter());
const messages: readonly Message[] = readConversationFile("[]").messages;
const result: Promise<CompactResult> = compact(messages, { token_threshold: 100 }, { summarizer });
// @ts-expect-error roles are a union of names, not any string
findCutPoint(["robot"], [1], [-1], [-1], 0, 1, 1);
// @ts-expect-error settings are typed too
void compact(messages, { token_threshold: "many" });
// @ts-expect-error the kernel entry holds only the verified kernel, not the engine
import { compactStore } from "safecut/kernel";
export { cut, s, fine, result, compactStore };
`;
  for (const [name, options] of [
    ["node16", { module: "node16", moduleResolution: "node16" }],
    ["bundler", { module: "esnext", moduleResolution: "bundler" }],
  ] as const) {
    it(`type-checks with tsc --noEmit under moduleResolution ${name}`, () => {
      writeFileSync(join(app, "consumer.ts"), consumer);
      writeFileSync(join(app, "readme.ts"), readmeSnippet(LIBRARY));
      writeFileSync(join(app, "readme-kernel.ts"), readmeSnippet(KERNEL));
      writeFileSync(
        join(app, `tsconfig.${name}.json`),
        JSON.stringify({
          compilerOptions: {
            ...options,
            target: "es2022",
            strict: true,
            noEmit: true,
            // the dependencies' own declarations would triple the time; the expect-errors above fail if ours degrade to any
            skipLibCheck: true,
            types: ["node"],
            typeRoots: [join(ROOT, "node_modules", "@types")],
          },
          files: ["consumer.ts", "readme.ts", "readme-kernel.ts"],
        }),
      );
      ok(run("node", [tsc, "-p", `tsconfig.${name}.json`]));
    });
  }
});

describe("a TypeScript consumer without the optional peers", { timeout: 180_000 }, () => {
  const tsc = join(ROOT, "node_modules", "typescript", "bin", "tsc");

  it("type-checks every entry but the frameworks' own with skipLibCheck off, ai, openai and @anthropic-ai/sdk absent", () => {
    // the README says the core needs none of them: their types live behind safecut/ai-sdk and safecut/responses only
    for (const peer of ["ai", "openai", "@anthropic-ai/sdk"])
      expect(existsSync(join(app, "node_modules", peer))).toBe(false);
    writeFileSync(
      join(app, "core.ts"),
      `
import * as main from "safecut";
import * as kernel from "safecut/kernel";
import * as adapters from "safecut/adapters";
import * as providers from "safecut/providers";
const loaded: string[] = [typeof main.compact, typeof main.openSession, typeof kernel.findCutPoint, typeof adapters.readConversationFile, typeof providers.offlineSummarizer];
export { loaded };
`,
    );
    writeFileSync(
      join(app, "tsconfig.core.json"),
      JSON.stringify({
        compilerOptions: {
          module: "node16",
          moduleResolution: "node16",
          target: "es2022",
          strict: true,
          noEmit: true,
          skipLibCheck: false,
          types: ["node"],
          typeRoots: [join(ROOT, "node_modules", "@types")],
        },
        files: ["core.ts"],
      }),
    );
    ok(run("node", [tsc, "-p", "tsconfig.core.json"]));
  });
});

const LIBRARY = ["README.md", "### Library"] as const;
const KERNEL = ["docs/proofs.md", "## The kernel entry (`safecut/kernel`)"] as const;

/** The first TypeScript block of a section of a page (README.md or one under docs/), as written. */
function readmeSnippet([page, heading]: readonly [string, string]): string {
  const text = readFileSync(join(ROOT, page), "utf8");
  const at = text.indexOf(`\n${heading}\n`);
  if (at < 0) throw new Error(`${page}: no section '${heading}'`);
  const m = /```ts\n([\s\S]*?)```/.exec(text.slice(at));
  if (m === null) throw new Error(`${page}: no \`\`\`ts block in '${heading}'`);
  return m[1];
}

describe("the README", { timeout: 180_000 }, () => {
  it("library snippet runs unchanged in the consumer project", () => {
    // the snippet is TypeScript without type annotations, so node runs it as an ES module
    writeFileSync(join(app, "readme.mjs"), readmeSnippet(LIBRARY));
    const out = ok(run("node", ["readme.mjs"]));
    expect(out).toMatch(/^(compacted|nothing-to-do|degraded|dry-run) /m);
    expect(out).not.toContain("FAILED");
  });

  it("kernel snippet, compiled as TypeScript, prints what its comments say", () => {
    const snippet = readmeSnippet(KERNEL);
    const js = ts.transpileModule(snippet, {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
    }).outputText;
    writeFileSync(join(app, "readme-kernel.mjs"), js);
    const expected = [...snippet.matchAll(/\/\/ => (.*)$/gm)].map((x) => x[1]);
    expect(expected.length).toBeGreaterThan(0);
    expect(
      ok(run("node", ["readme-kernel.mjs"]))
        .trim()
        .split("\n"),
    ).toEqual(expected);
  });
});

describe("the installed bin", { timeout: 180_000 }, () => {
  const bin = () => join(app, "node_modules", ".bin", "safecut");

  it("prints its help and compacts a file", () => {
    const help = run(bin(), ["--help"]);
    expect(ok(help)).toContain("Usage: safecut");
    expect(help.stderr).toBe("");
    const out = ok(run(bin(), ["compact", "--quiet", "--token-threshold", "8000", "--target-percent", "90", EXAMPLE]));
    const written = JSON.parse(out) as { messages: Array<{ role: string; content: unknown }> };
    const before = JSON.parse(readFileSync(join(app, EXAMPLE), "utf8")) as { messages: unknown[] };
    // the default clear-then-summarize, clearing alone reaching the target (90%): old tool results
    // cleared in place, every message kept
    expect(written.messages.length).toBe(before.messages.length);
    const cleared = written.messages.filter(
      (m) =>
        m.role === "tool" && typeof m.content === "string" && /^\[tool result cleared: [\d,]+ chars\]$/.test(m.content),
    );
    expect(cleared.length).toBeGreaterThan(0);
  });

  it("prints --help without loading the tokenizer, the config schema or the model catalogue (start-up)", () => {
    const log = join(tmp, "loaded.txt");
    writeFileSync(
      join(app, "hooks.mjs"),
      `
import { appendFileSync } from "node:fs";
export async function resolve(specifier, context, next) {
  const r = await next(specifier, context);
  appendFileSync(process.env.LOADED_LOG, r.url + "\\n");
  return r;
}
`,
    );
    writeFileSync(
      join(app, "record-loads.mjs"),
      `import { register } from "node:module";\nregister("./hooks.mjs", import.meta.url);\n`,
    );
    ok(run("node", ["--import", "./record-loads.mjs", bin(), "--help"], app, { LOADED_LOG: log }));
    const loaded = readFileSync(log, "utf8")
      .split("\n")
      .filter((u) => u.length > 0);
    expect(loaded.some((u) => u.includes("/safecut/dist/cli/"))).toBe(true);
    expect(loaded.filter((u) => /gpt-tokenizer|\/zod\/|model-catalogue/.test(u))).toEqual([]);
  });
});

describe("a checkout's bin", { timeout: 180_000 }, () => {
  it("says so when the sources changed after the last build", () => {
    const source = join(tmp, "source");
    const bin = join(source, "bin", "safecut.js");
    expect(run("node", [bin, "--help"], source).stderr).toBe("");
    const later = new Date(Date.now() + 60_000);
    utimesSync(join(source, "src", "index.ts"), later, later);
    const r = run("node", [bin, "--help"], source);
    expect(ok(r)).toContain("Usage: safecut");
    expect(r.stderr).toContain("src/ changed after the last build");
  });
});

describe("the shipped proof artifacts", { timeout: 180_000 }, () => {
  const pkgDir = () => join(app, "node_modules", "safecut");
  const dafny = process.env.SAFECUT_DAFNY ?? "dafny";
  const hasDafny = !spawnSync(dafny, ["--version"], { encoding: "utf8" }).error;

  beforeAll(() => {
    // the translator needs TypeScript (an optional peer dependency); link ours in
    ok(run("ln", ["-s", join(ROOT, "node_modules", "typescript"), join(app, "node_modules", "typescript")]));
  });

  it("are what the shipped translator makes of the shipped kernel sources", () => {
    const before = readFileSync(join(pkgDir(), "dafny", "cutpoint.dfy"), "utf8");
    const out = ok(run("node", [join(pkgDir(), "dist", "toolchain", "cli.js"), "gen", "--root", pkgDir()]));
    expect(out.trim()).toBe("dafny/ is up to date");
    expect(readFileSync(join(pkgDir(), "dafny", "cutpoint.dfy"), "utf8")).toBe(before);
  });

  it.skipIf(!hasDafny)("are re-checked by the installed scripts/check.sh, without tsx", () => {
    expect(existsSync(join(app, "node_modules", "tsx"))).toBe(false);
    const out = ok(run("bash", [join(pkgDir(), "scripts", "check.sh"), "dafny", "--only", "retention"]));
    expect(out).toContain("retention.dfy: 1 of 1 items verified");
    expect(out).toMatch(/every item proven/);
    expect(out).not.toContain("stale");
  });
});
