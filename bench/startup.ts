// Start-up cost: `safecut --help` through the compiled CLI, the same through the TypeScript
// sources with tsx (how the CLI started before the build), and importing each package entry,
// each as a ratio to `node -e 0` measured in the same rounds (the machine is shared, so only
// ratios within one run mean anything). `npx tsx bench/startup.ts` prints the table alone;
// bench/run.ts adds it to its report. Needs the build (npm run build).
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { median } from "./measure.ts";

const ROOT = join(import.meta.dirname, "..");
const ROUNDS = 7;

/** One measured command: what the table calls it, and its node arguments. */
interface Probe {
  label: string;
  args: readonly string[];
}

const importOf = (spec: string): readonly string[] => [
  "--input-type=module",
  "-e",
  `await import(${JSON.stringify(spec)});`,
];

const PROBES: readonly Probe[] = [
  { label: "`node -e 0` (baseline)", args: ["-e", "0"] },
  { label: "`safecut --help` (compiled, bin/safecut.js)", args: ["bin/safecut.js", "--help"] },
  {
    label: "`safecut --help` from the sources through tsx",
    args: [
      "--import",
      "tsx",
      "--input-type=module",
      "-e",
      "const m = await import('./src/cli/main.ts'); process.exitCode = await m.runCli(['--help'], m.processIO());",
    ],
  },
  { label: '`import "safecut/kernel"`', args: importOf("safecut/kernel") },
  { label: '`import "safecut/adapters"`', args: importOf("safecut/adapters") },
  { label: '`import "safecut"` (engine: tokenizer, config schema)', args: importOf("safecut") },
];

/** Wall time of one run in ms; throws when the command fails. */
function timeOnce(p: Probe): number {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, p.args, { cwd: ROOT, encoding: "utf8" });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`${p.label} failed (exit ${r.status}): ${r.stderr}`);
  return ms;
}

/** The start-up section of the benchmark report, as markdown lines. */
export function startupSection(): string[] {
  if (!existsSync(join(ROOT, "dist", "cli", "main.js")))
    throw new Error("bench/startup.ts: dist/ is missing; run: npm run build");
  const samples = PROBES.map(() => [] as number[]);
  // rounds interleave the probes, so a burst of load from other processes hits all of them
  for (let round = 0; round < ROUNDS + 1; round++) {
    PROBES.forEach((p, i) => {
      const ms = timeOnce(p);
      if (round > 0) samples[i].push(ms);
    });
  }
  const base = median(samples[0]);
  const rows = PROBES.map((p, i) => {
    const m = median(samples[i]);
    return `| ${p.label} | ${m.toFixed(0)} | ${(m / base).toFixed(2)}x |`;
  });
  return [
    "## Start-up",
    "",
    `Wall time of a fresh \`node\` process, median of ${ROUNDS} interleaved rounds after one warm-up round, and its ratio to`,
    "`node -e 0` in the same run (on a loaded machine node's own start-up dominates the absolute figures).",
    "",
    "| command | median (ms) | ratio to `node -e 0` |",
    "| --- | --- | --- |",
    ...rows,
    "",
  ];
}

if (process.argv[1] !== undefined && import.meta.filename === process.argv[1]) {
  process.stdout.write(`${startupSection().join("\n")}\n`);
}
