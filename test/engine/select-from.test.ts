import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  gateRetentionCutoff,
  gateSelectKeepRecent,
  gateSelectStretchFrom,
} from "../../src/engine/boundary/kernel-gate.ts";
import { type KernelViews, kernelViews } from "../../src/engine/store/views.ts";
import { buildLateAnswers, step } from "../support/late-answers.ts";

// Continuing past a stretch that was left unchanged: the engine asks the kernel's
// selectStretchFrom (proven) through the gate. This checks it on views built from real
// messages against a brute force over the plain words of L2-L5.
function eligible(v: KernelViews, cutoff: number, s: number, e: number): boolean {
  const inside = (i: number): boolean => i >= s && i < e;
  for (let k = s; k < e; k++) {
    const r = v.roles[k];
    if (r === "user" || r === "system" || v.ongoing[k]) return false;
    if (r === "tool" && !inside(v.callOf[k])) return false;
  }
  for (let j = 0; j < v.roles.length; j++) if (v.roles[j] === "tool" && inside(v.callOf[j]) && !inside(j)) return false;
  return e <= cutoff && v.roles.slice(s, e).some((r) => r !== "summary");
}

describe("selection from a position, through the gate", () => {
  it("picks the earliest eligible stretch starting at or after `from`, longest at its start", () => {
    fc.assert(
      fc.property(
        fc.array(step, { maxLength: 25 }),
        fc.nat(30),
        fc.integer({ min: 1, max: 4 }),
        (steps, fromRaw, window) => {
          const msgs = buildLateAnswers(steps);
          const v = kernelViews(msgs);
          const from = Math.min(fromRaw, msgs.length);
          const got = gateSelectStretchFrom(v, window, from);
          // brute force on the real views: earliest start >= from, then the longest eligible end
          const cutoff = gateRetentionCutoff(msgs.length, window);
          let want = { found: false, start: 0, end: 0 };
          for (let s = from; s < cutoff && !want.found; s++) {
            for (let e = cutoff; e > s; e--) {
              if (eligible(v, cutoff, s, e)) {
                want = { found: true, start: s, end: e };
                break;
              }
            }
          }
          expect(got).toEqual(want);
        },
      ),
      { numRuns: 500 },
    );
  });

  it("in the keep-recent form, picks the earliest eligible stretch at or after `from` that leaves keep_recent_tokens after it", () => {
    fc.assert(
      fc.property(
        fc.array(step, { maxLength: 25 }),
        fc.nat(30),
        fc.integer({ min: 1, max: 4 }),
        fc.array(fc.nat(40), { minLength: 80, maxLength: 80 }),
        fc.nat(400),
        (steps, fromRaw, window, pool, keep) => {
          const msgs = buildLateAnswers(steps);
          const v = kernelViews(msgs);
          const tokens = pool.slice(0, msgs.length);
          const from = Math.min(fromRaw, msgs.length);
          const got = gateSelectKeepRecent(v, tokens, window, from, keep);
          const after = (e: number): number => tokens.slice(e).reduce((a, b) => a + b, 0);
          const cutoff = gateRetentionCutoff(msgs.length, window);
          let want = { found: false, start: 0, end: 0 };
          for (let s = from; s < cutoff && !want.found; s++) {
            for (let e = cutoff; e > s; e--) {
              if (eligible(v, cutoff, s, e) && after(e) >= keep) {
                want = { found: true, start: s, end: e };
                break;
              }
            }
          }
          expect(got).toEqual(want);
        },
      ),
      { numRuns: 500 },
    );
  });
});
