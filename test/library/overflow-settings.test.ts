// The settings an overflow implies (overflowSettings), on random settings and overflow answers:
// the kernel accepts them (L12), and the kernel's trigger finds the refused prompt due: with the
// provider's counts (its prompt tokens as the reported usage, or the counted tokens in a session),
// and without them (a 413: the refused size taken as the window).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { assertConfigValid, parseConfig } from "../../src/engine/boundary/config-rules.ts";
import { triggerKindOf } from "../../src/engine/run/plan.ts";
import { overflowSettings } from "../../src/library/overflow-retry.ts";
import type { ContextOverflow } from "../../src/model/context-overflow.ts";

const settings = fc.record({
  token_threshold: fc.oneof(fc.constant(null), fc.integer({ min: 1, max: 2_000_000 })),
  context_window: fc.oneof(fc.constant(null), fc.integer({ min: 2, max: 2_000_000 })),
  reserve_tokens: fc.integer({ min: 0, max: 40_000 }),
  keep_recent_tokens: fc.oneof(fc.constant(null), fc.integer({ min: 1, max: 50_000 })),
});

/** A valid configuration from random settings (those the kernel refuses are dropped). */
const config = settings
  .map((s) => {
    try {
      return parseConfig({ ...s, provider: "offline" });
    } catch {
      return undefined;
    }
  })
  .filter((c) => c !== undefined);

const counted: fc.Arbitrary<ContextOverflow> = fc
  .tuple(fc.integer({ min: 1, max: 2_000_000 }), fc.integer({ min: 1, max: 1_000_000 }))
  .map(([w, extra]) => ({
    provider: "openai",
    over: "tokens",
    status: 400,
    contextWindow: w,
    promptTokens: w + extra,
    message: "m",
  }));
const countless: fc.Arbitrary<ContextOverflow> = fc.constant({
  provider: "anthropic",
  over: "bytes",
  status: 413,
  message: "Request exceeds the maximum allowed number of bytes.",
});

describe("overflowSettings", () => {
  it("with the provider's counts and a usage report: valid, and due on the reported tokens", () => {
    fc.assert(
      fc.property(config, counted, fc.integer({ min: 2, max: 3_000_000 }), (c, o, n) => {
        const s = overflowSettings(c, o, n, true);
        assertConfigValid(s.config);
        expect(s.usage?.promptTokens).toBe(o.promptTokens);
        expect(triggerKindOf(s.config, o.promptTokens ?? 0, 0, 0)).not.toBe("notDue");
      }),
    );
  });

  it("with the counts, in a session's own units: valid, and due on the counted tokens", () => {
    fc.assert(
      fc.property(config, counted, fc.integer({ min: 2, max: 3_000_000 }), (c, o, n) => {
        const s = overflowSettings(c, o, n, false);
        assertConfigValid(s.config);
        expect(s.usage).toBeUndefined();
        expect(triggerKindOf(s.config, n, 0, 0)).not.toBe("notDue");
      }),
    );
  });

  it("without counts (a 413): valid, and the refused size itself is due", () => {
    fc.assert(
      fc.property(config, countless, fc.integer({ min: 2, max: 3_000_000 }), (c, o, n) => {
        const s = overflowSettings(c, o, n, true);
        assertConfigValid(s.config);
        expect(triggerKindOf(s.config, n, 0, 0)).not.toBe("notDue");
      }),
    );
  });
});
