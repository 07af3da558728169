// A run takes a caller's "is it due" (dueFor) only when dueVerdict made it for the run's very
// configuration and counts; a hand-made verdict, another configuration or other counts are decided
// again by the kernel's trigger (dueBy).
import { describe, expect, it } from "vitest";
import { parseConfig } from "../../src/engine/boundary/config-rules.ts";
import { type DueVerdict, dueFor, dueVerdict } from "../../src/engine/run/due-verdict.ts";
import { dueBy } from "../../src/engine/run/plan.ts";

const counts = { tokens: 500, items: 20, userTurns: 3, bytes: 5000 };

describe("dueFor", () => {
  it("takes dueVerdict's trigger for the same configuration and counts", () => {
    const c = parseConfig({ token_threshold: 501, max_request_bytes: 4999 });
    const v = dueVerdict(c, counts);
    expect(v.trigger).toBe("request bytes");
    expect(dueFor(v, c, { ...counts })).toBe("request bytes");
  });

  it("decides again for a hand-made verdict, another configuration or other counts", () => {
    const c = parseConfig({ token_threshold: 400 });
    const forged: DueVerdict = { trigger: "none", config: c, counts };
    expect(dueFor(forged, c, counts)).toBe("tokens");
    const v = dueVerdict(parseConfig({ token_threshold: 600 }), counts);
    expect(v.trigger).toBe("none");
    expect(dueFor(v, c, counts)).toBe("tokens");
    const mine = dueVerdict(c, { ...counts, tokens: 300 });
    expect(mine.trigger).toBe("none");
    expect(dueFor(mine, c, counts)).toBe(dueBy(c, 500, 20, 3, false, 5000));
    expect(dueFor(mine, c, counts)).toBe("tokens");
  });
});
