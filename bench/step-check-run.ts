// `npm run bench:step`: the per-step check of an agent at 1k and 10k messages (step-check.ts);
// writes its section into bench/RESULTS.md (`--print` only prints).
import { join } from "node:path";
import { STEP_CHECK_HEADING, writeSection } from "./section-file.ts";
import { type StepRow, stepCheckBySize, stepSection } from "./step-check.ts";
import { fmtN } from "./table.ts";

const SIZES = [1_000, 10_000];

async function main(): Promise<void> {
  const rows: StepRow[] = [];
  for (const n of SIZES) {
    process.stderr.write(`${fmtN(n)} messages...\n`);
    rows.push(await stepCheckBySize(n));
  }
  const lines = stepSection(rows);
  process.stdout.write(`${lines.join("\n")}\n`);
  if (!process.argv.includes("--print"))
    writeSection(join(import.meta.dirname, "RESULTS.md"), STEP_CHECK_HEADING, lines);
}

await main();
