// The tool pairing of everything a session holds, kept so that an append is checked against it:
// a tool result must answer an earlier call of the session that has no result yet, and a call id
// must be new. Without it, an orphan result appended by one process would make every later
// compaction of the session refuse its history. The checks are the engine store's own (its
// append): this keeps a ConversationStore of the full history, counted by characters.

import { ConversationStore } from "../engine/store/store.ts";
import { InputError } from "../model/errors.ts";
import type { Message } from "../model/message.ts";
import { charCounter } from "../model/tokens.ts";

/** The session's full history as a store, for its append checks. */
export class SessionPairing {
  private readonly store: ConversationStore;
  /** how many of the session's items the store holds */
  items: number;

  /** Reads the full history (`messages` of the first `items` items) once. */
  constructor(messages: readonly Message[], items: number) {
    this.store = new ConversationStore(charCounter(), messages);
    this.items = items;
  }

  /** Adds messages already in the session (appended by another writer). */
  follow(messages: readonly Message[], items: number): void {
    for (const m of messages) this.store.append(m);
    this.items += items;
  }

  /**
   * Checks and adds the messages of items about to be appended; `itemOf(j)` is message j's item
   * in the batch, named in the error. After an error the pairing is unusable (some of the batch
   * may be in it): the caller drops it and reads the history again next time.
   */
  extend(messages: readonly Message[], items: number, itemOf: (j: number) => number): void {
    messages.forEach((m, j) => {
      try {
        this.store.append(m);
      } catch (e) {
        if (e instanceof InputError)
          throw new InputError(`items[${itemOf(j)}]`, e.message.replace(/^messages\[\d+\]: /, ""));
        throw e;
      }
    });
    this.items += items;
  }
}
