// Every snippet of README.md, then the shell snippets of docs/cli.md and docs/sessions.md and every
// snippet of docs/integrations.md (PAGES), runs as written, in order, in a fresh project made by
// `npm init -y` into which the packed package is installed (the other docs pages' TypeScript blocks
// are type-checked by readme-snippets.test.ts and run by their own tests): the shell blocks (```sh) with bash, the TypeScript
// blocks (```ts) compiled to JavaScript and run with node, as a user following the page would.
// Two rewrites only, both of `npm install` lines: `safecut` is this checkout's tarball (npm pack),
// and the frameworks are pinned to the versions of our package-lock.json (the ones the other tests
// run; they come from npm's cache when it has them, else from the registry). A block that cannot
// run here is listed in SKIPPED with the reason; every other block must run, and a fence of any
// other language fails the test, so a new snippet is run or explicitly skipped.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statfsSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "../..");
/**
 * The pages whose blocks run, in this order, and the languages run of each: the docs pages' shell
 * blocks use the package and the conversation file the README's quick start leaves.
 */
const PAGES: ReadonlyArray<{ page: string; langs: readonly string[] }> = [
  { page: "README.md", langs: ["sh", "ts"] },
  { page: "docs/cli.md", langs: ["sh"] },
  { page: "docs/sessions.md", langs: ["sh"] },
  { page: "docs/integrations.md", langs: ["sh", "ts"] },
];

/** A fenced block of a page: the page, its language, its text, and the heading it is under. */
interface Block {
  page: string;
  lang: string;
  code: string;
  heading: string;
}

/** Blocks that are not run, each found by a line it holds, with the reason. */
const SKIPPED: ReadonlyArray<{ holds: string; why: string }> = [
  {
    holds: "OPENAI_API_KEY=sk-... npx safecut compact",
    why: "needs a provider's key and network (or a local model server); the same flags run against loopback servers enforcing those models' limits in test/providers/model-limits.test.ts and catalogue-examples.test.ts",
  },
  {
    holds: "OPENAI_API_KEY=sk-... npx safecut compact session.json",
    why: "docs/cli.md's provider examples: a key and network, and the user's own session file; the same flags run on the repository's sample sessions against loopback servers enforcing those models' limits in test/providers/model-limits.test.ts",
  },
  {
    holds: "npm install && npm run check",
    why: "sets up a checkout of this repository (apt-get, provers), not a user's project; .ci/run runs `npm install` and `npm test`",
  },
];

/** A page's fenced blocks, in order. */
function blocks(page: string): Block[] {
  const text = readFileSync(join(ROOT, page), "utf8");
  const out: Block[] = [];
  let heading = "";
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? "";
    if (/^#{1,6} /.test(line)) heading = line;
    const open = /^```(.*)$/.exec(line);
    if (open === null) continue;
    const body: string[] = [];
    for (i++; i < lines.length && lines[i] !== "```"; i++) body.push(lines[i] ?? "");
    out.push({ page, lang: (open[1] ?? "").trim(), code: `${body.join("\n")}\n`, heading });
  }
  return out;
}

/** The versions our lockfile installs, for the packages a README block installs beside safecut. */
function lockedVersion(name: string): string {
  const lock = JSON.parse(readFileSync(join(ROOT, "package-lock.json"), "utf8")) as {
    packages: Record<string, { version?: string }>;
  };
  const v = lock.packages[`node_modules/${name}`]?.version;
  if (v === undefined) throw new Error(`README installs ${name}, which package-lock.json does not hold`);
  return v;
}

/**
 * Where the project is made: in memory (/dev/shm) when it has room, since the frameworks' install
 * (about 200 MB) and its removal took about 50 s each on a busy disk; else the temporary folder.
 */
function scratchRoot(): string {
  try {
    const fs = statfsSync("/dev/shm");
    if (fs.bavail * fs.bsize > 2 ** 30) return "/dev/shm";
  } catch {
    // no /dev/shm here
  }
  return tmpdir();
}

let tmp = "";
let app = "";
let tarball = "";

/**
 * A shell block as it runs here: its `npm install` lines pointed at the tarball and the locked
 * versions, and made one install (where the block has several) so that npm builds the tree once.
 */
function shellAsRun(code: string): string {
  const names: string[] = [];
  const rest = code.replace(/^npm install ([^#\n]*)(#.*)?$/gm, (_, list: string) => {
    for (const n of list.trim().split(/\s+/)) {
      const pkg = n === "safecut" ? tarball : `${n}@${lockedVersion(n)}`;
      if (!names.includes(pkg)) names.push(pkg);
    }
    return "";
  });
  const install = names.length === 0 ? "" : `npm install --prefer-offline --no-audit --no-fund ${names.join(" ")}\n`;
  // the install goes where the block's first `npm install` was: after what comes before it (npm init -y)
  const at = code.search(/^npm install /m);
  return at < 0 ? code : `${rest.slice(0, at)}${install}${rest.slice(at)}`;
}

function run(cmd: string, args: readonly string[]) {
  return spawnSync(cmd, args, { cwd: app, encoding: "utf8", timeout: 150_000, env: { ...process.env, NO_COLOR: "1" } });
}

beforeAll(() => {
  expect(existsSync(join(ROOT, "dist/index.js")), "build first: npm run build").toBe(true);
  tmp = mkdtempSync(join(scratchRoot(), "safecut-readme-"));
  // the checkout as npm would publish it; the build is the one already in dist/ (no prepare run,
  // so this never rewrites dist/ while other tests use it)
  const info = JSON.parse(
    execFileSync("npm", ["pack", "--json", "--ignore-scripts", "--pack-destination", tmp], {
      cwd: ROOT,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    }),
  ) as Array<{ filename: string }>;
  tarball = join(tmp, info[0]?.filename ?? "");
  app = join(tmp, "my-agent");
  mkdirSync(app);
}, 120_000);

afterAll(() => {
  if (tmp !== "") rmSync(tmp, { recursive: true, force: true });
}, 120_000);

describe("README's and docs/cli.md's snippets, run in order in a fresh `npm init -y` project", {
  timeout: 300_000,
}, () => {
  const all = PAGES.flatMap(({ page, langs }) => blocks(page).filter((b) => langs.includes(b.lang) || b.lang === ""));
  const readme = all.filter((b) => b.page === "README.md");
  const skipped = (b: Block) => SKIPPED.find((s) => b.code.includes(s.holds));

  it("every block is a shell or TypeScript block, and every skip names a block that exists", () => {
    expect(
      all.filter((b) => b.lang !== "sh" && b.lang !== "ts").map((b) => `${b.page} ${b.heading}: ${b.lang}`),
    ).toEqual([]);
    for (const s of SKIPPED)
      expect(
        all.some((b) => b.code.includes(s.holds)),
        s.holds,
      ).toBe(true);
    expect(readme.filter((b) => skipped(b) === undefined).length).toBeGreaterThanOrEqual(4);
    for (const { page } of PAGES.slice(1))
      expect(all.filter((b) => b.page === page && skipped(b) === undefined).length, page).toBeGreaterThan(0);
    // one example per framework or SDK shape
    expect(all.filter((b) => b.page === "docs/integrations.md" && b.lang === "ts").length).toBe(6);
  });

  it("keeps the set-up and test commands of a checkout (the ones .ci/run runs)", () => {
    const ci = readFileSync(join(ROOT, ".ci/run"), "utf8");
    expect(ci).toMatch(/^npm install$/m);
    expect(ci).toMatch(/^npm test$/m);
    expect(readme.some((b) => b.lang === "sh" && /^npm install && npm test\b/m.test(b.code))).toBe(true);
  });

  it("runs every block that is not skipped, each as written", () => {
    let k = 0;
    for (const b of all) {
      k++;
      if (skipped(b) !== undefined) continue;
      const where = `block ${k} (${b.page}, ${b.lang}, under "${b.heading}")`;
      if (b.lang === "sh") {
        const r = run("bash", ["-euo", "pipefail", "-c", shellAsRun(b.code)]);
        expect(r.status, `${where}\n${r.stderr}\n${r.stdout.slice(0, 2000)}`).toBe(0);
        continue;
      }
      const js = ts.transpileModule(b.code, {
        compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
      }).outputText;
      const file = join(app, `readme-${k}.mjs`);
      writeFileSync(file, js);
      const r = run(process.execPath, [file]);
      expect(r.status, `${where}\n${r.stderr}\n${r.stdout.slice(0, 2000)}`).toBe(0);
      // each example compacts and prints its outcome first, then the counts before and after
      expect(r.stdout, where).toMatch(/^(compacted|compacted-still-due) \d+ -> \d+ /m);
      expect(r.stdout, where).not.toContain("FAILED");
    }
    // what the command-line quick start wrote: a smaller conversation, and one of at most 10 messages
    const before = readFileSync(join(app, "conversation.json"), "utf8");
    const after = readFileSync(join(app, "compacted.json"), "utf8");
    expect(after.length).toBeLessThan(before.length);
    const small = JSON.parse(readFileSync(join(app, "small.json"), "utf8")) as unknown[];
    expect(small.length).toBeLessThanOrEqual(10);
    expect(small.length).toBeLessThan((JSON.parse(before) as unknown[]).length);
    // and what docs/cli.md's wrote: a JSON report of a run under its config file, and the inspect page
    const report = JSON.parse(readFileSync(join(app, "report.json"), "utf8")) as { outcome: string };
    expect(report.outcome).toMatch(/^compacted/);
    expect(readFileSync(join(app, "out.json"), "utf8").length).toBeLessThan(before.length);
    expect(readFileSync(join(app, "context.html"), "utf8")).toMatch(/^<!doctype html>/i);
    // and docs/sessions.md's: the session's context exported after its clearing, restore and compaction
    const context = readFileSync(join(app, "now.jsonl"), "utf8").trim().split("\n");
    expect(context.length).toBeLessThan((JSON.parse(before) as unknown[]).length + 1);
    expect(context.some((l) => l.includes("<summary>"))).toBe(true);
  });
});
