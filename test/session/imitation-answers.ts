// The HTTP imitation (test/support/http-imitation.ts) for the session tests, one per test, and
// the answers it gives to their prompts: one summary per excerpt of a prompt (a batch prompt holds several), each in its tag,
// made of the facts the excerpt's prompt asks to keep, or what the test says for that excerpt.

import { afterEach } from "vitest";
import { type Imitation, type Script, startImitation } from "../support/http-imitation.ts";

/** The OpenAI imitation a test starts with `start`, closed after each test. */
export interface ImitationSlot {
  server: Imitation | undefined;
  start(script: Script): Promise<Imitation>;
}

/** A slot for each test's imitation, closed after each test of the file that calls it. */
export function imitationPerTest(): ImitationSlot {
  const slot: ImitationSlot = {
    server: undefined,
    async start(script) {
      slot.server = await startImitation("openai", script);
      return slot.server;
    },
  };
  afterEach(async () => {
    await slot.server?.close();
    slot.server = undefined;
  });
  return slot;
}

// the answers live in test/support/summary-answers.ts, shared with the model-limit servers
export { answer, factsSummary, partsOf } from "../support/summary-answers.ts";
