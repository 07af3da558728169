// Planning on adversarial histories: planStep per message on the shapes that are worst for the
// stretch search (conversation files are user input), at two sizes; linear planning stays flat.
import { parseConfig } from "../src/engine/boundary/config-rules.ts";
import { planStep } from "../src/engine/run/plan.ts";
import { ConversationStore } from "../src/engine/store/store.ts";
import type { Message } from "../src/model/message.ts";
import { charCounter } from "../src/model/tokens.ts";
import { consume, cpuMs, measure } from "./measure.ts";
import { fmt, fmtN, fmtRatio, table } from "./table.ts";

/** Per-message planStep time on adversarial shapes (user input can take any shape). */
export interface AdversarialTiming {
  readonly shape: string;
  readonly n: number;
  readonly perMessageNs: number;
}

/**
 * planStep on each adversarial shape at each size, per message: each sample plans
 * ceil(max(sizes) / n) distinct copies (the same memory at every size), median of `reps` samples
 * after one warm-up. Linear planning gives flat per-message figures.
 */
export function adversarialBySize(
  shapes: ReadonlyArray<readonly [string, (n: number) => Message[]]>,
  sizes: readonly number[],
  reps: number,
): AdversarialTiming[] {
  const c = parseConfig({ token_threshold: 1 });
  const top = Math.max(...sizes);
  const out: AdversarialTiming[] = [];
  for (const [shape, build] of shapes) {
    for (const n of sizes) {
      const copies = Math.max(1, Math.ceil(top / n));
      const snaps = Array.from({ length: copies }, () => new ConversationStore(charCounter(), build(n)).snapshot());
      const est = measure(
        () => {
          const t0 = cpuMs();
          for (const snap of snaps) consume(planStep(snap, c).stretch?.end ?? -1);
          return cpuMs() - t0;
        },
        { warmup: 1, reps },
      );
      out.push({ shape, n, perMessageNs: (est.medianMs * 1e6) / (copies * n) });
    }
  }
  return out;
}

function adversarialTable(a: readonly AdversarialTiming[]): string {
  const shapes = Array.from(new Set(a.map((x) => x.shape)));
  const sizes = Array.from(new Set(a.map((x) => x.n)));
  return table(
    ["shape", ...sizes.map((n) => `${fmtN(n)} messages (ns/msg)`), "per-message ratio, largest vs smallest"],
    shapes.map((shape) => {
      const xs = a.filter((x) => x.shape === shape);
      return [
        shape,
        ...xs.map((x) => fmt(x.perMessageNs, 0)),
        fmtRatio(xs[xs.length - 1].perMessageNs / xs[0].perMessageNs),
      ];
    }),
  );
}

/** The section of `npm run bench`'s results about adversarial shapes (heading, method, table). */
export function adversarialSection(a: readonly AdversarialTiming[]): string[] {
  return [
    "## Planning on adversarial histories",
    "",
    "Conversation files are user input; these shapes are the worst found for the stretch search (planStep, median CPU time",
    "of 5 samples, each planning the same number of messages). Linear planning gives a ratio near 1; about 10 (for 10x the",
    "messages) means quadratic.",
    "",
    adversarialTable(a),
    "",
  ];
}
