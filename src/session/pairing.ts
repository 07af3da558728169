// The tool pairing of everything a session holds, kept so that an append is checked against it:
// a tool result must answer an earlier call of the session that has no result yet, and a call id
// must be new. Without it, an orphan result appended by one process would make every later
// compaction of the session refuse its history. The rule and its wording are the model's one
// incremental index (ToolPairing), the one the engine store's appends use: no token is counted
// and no kernel view is built for it.

import type { Message } from "../model/message.ts";
import { pairingError, ToolPairing } from "../model/tool-pairing.ts";

/** The session's full history as a pairing index, for its append checks. */
export class SessionPairing {
  private readonly index = new ToolPairing();
  /** how many messages the index holds (the position of the next one) */
  private messages = 0;
  /** how many of the session's items the index holds */
  items: number;

  /** Reads the full history (`messages` of the first `items` items) once. */
  constructor(messages: readonly Message[], items: number) {
    for (const m of messages) this.add(m, `messages[${this.messages}]`);
    this.items = items;
  }

  /** Adds messages already in the session (appended by another writer). */
  follow(messages: readonly Message[], items: number): void {
    for (const m of messages) this.add(m, `messages[${this.messages}]`);
    this.items += items;
  }

  /**
   * Checks and adds the messages of items about to be appended; `itemOf(j)` is message j's item
   * in the batch, named in the error. After an error the pairing is unusable (some of the batch
   * may be in it): the caller drops it and reads the history again next time.
   */
  extend(messages: readonly Message[], items: number, itemOf: (j: number) => number): void {
    messages.forEach((m, j) => this.add(m, `items[${itemOf(j)}]`));
    this.items += items;
  }

  // checked before it is added, as the store's append checks it; `at` names it in the error
  private add(m: Message, at: string): void {
    const problem = this.index.problem(m);
    if (problem !== null) throw pairingError(at, problem);
    this.index.add(m, this.messages);
    this.messages++;
  }
}
