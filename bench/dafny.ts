// Wall and CPU time of `bash scripts/check.sh dafny --only <module>` per kernel module. Only the
// relative figures matter (which modules dominate a proof re-check); they are medians of a few
// runs, after one untimed run that warms the file cache and the Mono runtime.
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { median } from "./measure.ts";
import { fmt, fmtRatio, table } from "./table.ts";

/** Timing of one module's proof check. */
export interface ModuleTiming {
  readonly module: string;
  readonly wallMs: number;
  /** CPU of the checker and its children (Mono, z3): stable under load from other processes */
  readonly cpuMs: number;
  readonly verified: number;
  readonly errors: number;
  readonly exitCode: number;
}

const root = join(import.meta.dirname, "..");

/** The kernel modules that have a generated Dafny file. */
export function dafnyModules(): string[] {
  return readdirSync(join(root, "dafny"))
    .filter((f) => f.endsWith(".dfy"))
    .map((f) => f.slice(0, -4))
    .sort();
}

// CPU time of waited-for children (fields 16 and 17 of /proc/self/stat, in clock ticks).
function childrenCpuMs(): number {
  const stat = readFileSync("/proc/self/stat", "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // fields[0] is field 3 (state); cutime is field 16, cstime field 17
  const ticks = Number(fields[13]) + Number(fields[14]);
  return ticks * 10; // USER_HZ is 100 on Linux
}

function runOnce(module: string): { wallMs: number; cpuMs: number; out: string; code: number } {
  const c0 = childrenCpuMs();
  const t0 = performance.now();
  const r = spawnSync("bash", ["scripts/check.sh", "dafny", "--only", module, "--prover", "dafny23"], {
    cwd: root,
    encoding: "utf8",
  });
  const wallMs = performance.now() - t0;
  return { wallMs, cpuMs: childrenCpuMs() - c0, out: `${r.stdout}${r.stderr}`, code: r.status ?? -1 };
}

/** Times each module's check `reps` times (after one warm-up run) and returns medians. */
export function timeDafny(
  modules: readonly string[],
  reps: number,
  log: (line: string) => void = () => {},
): ModuleTiming[] {
  if (modules.length > 0) runOnce(modules[0]);
  return modules.map((module) => {
    const runs = Array.from({ length: reps }, () => runOnce(module));
    const last = runs[runs.length - 1];
    const m = /total \(Dafny [^)]*\): \d+ files?, (\d+) items verified, (\d+) problems?/.exec(last.out);
    const t: ModuleTiming = {
      module,
      wallMs: median(runs.map((x) => x.wallMs)),
      cpuMs: median(runs.map((x) => x.cpuMs)),
      verified: m ? Number(m[1]) : -1,
      errors: m ? Number(m[2]) : -1,
      exitCode: last.code,
    };
    log(
      `dafny ${module}: ${(t.wallMs / 1000).toFixed(2)} s wall, ${(t.cpuMs / 1000).toFixed(2)} s CPU, ${t.verified} verified, exit ${t.exitCode}`,
    );
    return t;
  });
}

function dafnyTable(d: readonly ModuleTiming[]): string {
  const totalCpu = d.reduce((s, x) => s + x.cpuMs, 0);
  const fastest = Math.min(...d.map((x) => x.wallMs));
  return table(
    ["module", "wall (s)", "wall vs fastest", "CPU (s)", "share of total CPU", "verified", "errors", "exit"],
    d.map((x) => [
      x.module,
      fmt(x.wallMs / 1000, 2),
      fmtRatio(x.wallMs / fastest),
      fmt(x.cpuMs / 1000, 2),
      `${fmt((100 * x.cpuMs) / totalCpu, 0)}%`,
      String(x.verified),
      String(x.errors),
      String(x.exitCode),
    ]),
  );
}

/** The section of `npm run bench`'s results about proof checks (heading, method, table). */
export function dafnySection(d: readonly ModuleTiming[], reps: number): string[] {
  return [
    "## Proof check per kernel module",
    "",
    `\`bash scripts/check.sh dafny --only <module>\`, median of ${reps} runs (regeneration, staleness check and Dafny 2.3 + z3).`,
    "CPU includes Mono and z3 (children of the check).",
    "",
    dafnyTable(d),
    "",
  ];
}
