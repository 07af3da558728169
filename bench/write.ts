// Writing a compacted conversation back in the input's own layout, one-line JSON beside JSONL:
// the same generated OpenAI-chat conversation is read, compacted (clearing then summarizing, the
// offline summarizer, the chars counter) and written back as `safecut compact` does, once from a
// one-line JSON array and once from JSONL, in the same process. CPU medians of the whole
// read-compact-write and of the write alone; the ratio one-line JSON / JSONL is what issue 34 bounds
// (≤ 1.5x at 50k messages). `tsx bench/write.ts [sizes...]` prints the table.
import { fileURLToPath } from "node:url";
import { type ContainerName, readConversationFile, writeConversationFile } from "../src/adapters/conversation-file.ts";
import { parseConfig } from "../src/engine/boundary/config-rules.ts";
import { compactParsed } from "../src/library/compact-messages.ts";
import { charCounter } from "../src/model/tokens.ts";
import { offlineSummarizer } from "../src/providers/offline-summarizer.ts";
import { conversationText } from "./conversation-text.ts";
import { collect, cpuMs, median } from "./measure.ts";

/** The sizes of the table (the issue's). */
export const WRITE_SIZES: readonly number[] = [12_500, 25_000, 50_000];

/** One layout's figures at one size. */
export interface WriteTiming {
  readonly wholeMs: number;
  readonly writeMs: number;
}

/** Reads, compacts and writes `text` as the CLI does; CPU ms of the whole and of the write. */
export async function timeOne(text: string): Promise<WriteTiming & { out: string }> {
  const counter = charCounter();
  const config = parseConfig({ token_threshold: 50_000, tokenizer: "chars" });
  const t0 = cpuMs();
  const conv = readConversationFile(text, { summaryTag: config.summary_tag });
  const r = await compactParsed(conv.messages, config, { summarizer: offlineSummarizer(counter), counter });
  const t1 = cpuMs();
  const out = writeConversationFile(r.messages, {
    format: conv.format,
    container: conv.container as ContainerName,
    envelope: conv.envelope,
    key: conv.key,
    layout: conv.layout,
    summaryTag: r.config.summary_tag,
  });
  const t2 = cpuMs();
  return { wholeMs: t2 - t0, writeMs: t2 - t1, out };
}

/** Medians over `reps` runs (after one warm-up) of both layouts at each size, interleaved. */
export async function writeBySize(
  sizes: readonly number[],
  reps: number,
  log: (line: string) => void = () => {},
): Promise<{ n: number; json: WriteTiming; jsonl: WriteTiming }[]> {
  const rows = [];
  for (const n of sizes) {
    log(`write: ${n} messages ...`);
    const texts = { json: conversationText(n, "json-array"), jsonl: conversationText(n, "jsonl") };
    const s = { json: [] as WriteTiming[], jsonl: [] as WriteTiming[] };
    for (let i = 0; i <= reps; i++) {
      for (const k of ["json", "jsonl"] as const) {
        collect();
        const t = await timeOne(texts[k]);
        if (i > 0) s[k].push(t);
      }
    }
    const med = (xs: WriteTiming[]): WriteTiming => ({
      wholeMs: median(xs.map((x) => x.wholeMs)),
      writeMs: median(xs.map((x) => x.writeMs)),
    });
    rows.push({ n, json: med(s.json), jsonl: med(s.jsonl) });
  }
  return rows;
}

/** The markdown table of writeBySize's rows. */
export function writeTable(rows: Awaited<ReturnType<typeof writeBySize>>): string {
  const line = (cells: readonly string[]) => `| ${cells.join(" | ")} |`;
  const head = [
    "messages",
    "one-line JSON: whole (ms)",
    "JSONL: whole (ms)",
    "whole: JSON / JSONL",
    "one-line JSON: write (ms)",
    "JSONL: write (ms)",
  ];
  return [
    line(head),
    line(head.map(() => "---")),
    ...rows.map((r) =>
      line([
        String(r.n),
        r.json.wholeMs.toFixed(0),
        r.jsonl.wholeMs.toFixed(0),
        `${(r.json.wholeMs / r.jsonl.wholeMs).toFixed(2)}x`,
        r.json.writeMs.toFixed(0),
        r.jsonl.writeMs.toFixed(0),
      ]),
    ),
  ].join("\n");
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const sizes = process.argv
    .slice(2)
    .filter((a) => /^\d+$/.test(a))
    .map(Number);
  const rows = await writeBySize(sizes.length > 0 ? sizes : WRITE_SIZES, 3, (l) => process.stderr.write(`${l}\n`));
  process.stdout.write(`${writeTable(rows)}\n`);
}
