// `npm run bench:step`: the per-step check of an agent at 1k and 10k messages, for the AI SDK hook
// and the store (step-check.ts) and for sessions on both backends (step-session.ts); writes its
// section into bench/RESULTS.md (`--print` only prints). `--sessions` runs the sessions' rows only
// and only prints; `--record-before` also writes the sessions' figures
// to step-session-before.json, the "main" column of later runs (run it on the code measured as before).
import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startPgServer } from "../scripts/pg-server.ts";
import { STEP_CHECK_HEADING, writeSection } from "./section-file.ts";
import { type StepRow, stepCheckBySize, stepSection } from "./step-check.ts";
import { type SessionStepRow, sessionStepLines, sessionStepRow } from "./step-session.ts";
import { fmtN } from "./table.ts";

const SIZES = [1_000, 10_000];

/** The sessions' rows: the JSONL log in a temporary directory, PostgreSQL on loopback. */
async function sessionRows(): Promise<SessionStepRow[]> {
  const rows: SessionStepRow[] = [];
  const dir = mkdtempSync(join(tmpdir(), "safecut-step-bench-"));
  const pg = await startPgServer({ fsync: true });
  try {
    for (const n of SIZES) {
      process.stderr.write(`sessions, ${fmtN(n)} items...\n`);
      rows.push(await sessionStepRow("jsonl log", (tag) => join(dir, `${tag}.jsonl`), n));
      rows.push(await sessionStepRow("postgresql", (tag) => `${pg.url}?session=${tag}-${randomUUID()}`, n));
    }
  } finally {
    pg.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  return rows.sort((a, b) => a.backend.localeCompare(b.backend) || a.n - b.n);
}

async function main(): Promise<void> {
  const rows: StepRow[] = [];
  if (!process.argv.includes("--sessions"))
    for (const n of SIZES) {
      process.stderr.write(`${fmtN(n)} messages...\n`);
      rows.push(await stepCheckBySize(n));
    }
  const sessions = await sessionRows();
  if (process.argv.includes("--record-before")) {
    const commit = execFileSync("git", ["rev-parse", "HEAD"], { encoding: "utf8" }).trim();
    const record = { commit, run: new Date().toISOString(), rows: sessions };
    writeFileSync(join(import.meta.dirname, "step-session-before.json"), `${JSON.stringify(record, null, 2)}\n`);
  }
  const lines = [...stepSection(rows), ...sessionStepLines(sessions)];
  process.stdout.write(`${lines.join("\n")}\n`);
  if (!process.argv.includes("--print") && !process.argv.includes("--sessions"))
    writeSection(join(import.meta.dirname, "RESULTS.md"), STEP_CHECK_HEADING, lines);
}

await main();
