// Mapping of messages to the kernel's views: arrays of roles and tool-pairing indices, built
// from messages (kernelViews) or kept by the store through appends and splices (LiveViews; after a
// bulk load, built when first read: DeferredViews).
// This is bookkeeping, not decision: which stretch to cut is the kernel's call.
import type { Role } from "../../kernel/roles.ts";
import { kernelRole, type Message } from "../../model/message.ts";
import { ToolPairing } from "../../model/tool-pairing.ts";
import { arrayView, NumberGapArray } from "./gap-array.ts";

/** The index arrays the kernel's stretch and cut-point functions read. */
export interface KernelViews {
  readonly roles: readonly Role[];
  /** tool result j -> index of the assistant message holding its call; -1 for other messages */
  readonly callOf: readonly number[];
  /** assistant with calls -> index of its last answer; -1 otherwise (or none answered yet) */
  readonly lastAnswer: readonly number[];
  /** assistant with at least one call still waiting for its result */
  readonly ongoing: readonly boolean[];
  /** number of user messages (user turns, for the turn threshold) */
  readonly userTurns: number;
}

/** Builds the kernel views of a well-formed conversation (see assertWellFormed). */
export function kernelViews(messages: readonly Message[]): KernelViews {
  const n = messages.length;
  const roles: Role[] = messages.map(kernelRole);
  const callOf = new Array<number>(n).fill(-1);
  const lastAnswer = new Array<number>(n).fill(-1);
  const ongoing = new Array<boolean>(n).fill(false);
  // which call a result answers: the model's pairing index (its one owner outside the kernel)
  const pairing = new ToolPairing();
  const pending = new Array<number>(n).fill(0);
  let userTurns = 0;
  messages.forEach((m, i) => {
    if (m.role === "user") userTurns++;
    if (m.role === "assistant") pending[i] = m.toolCalls.length;
    const a = pairing.add(m, i);
    if (m.role === "tool" && a !== undefined) {
      callOf[i] = a;
      lastAnswer[a] = i;
      pending[a]--;
    }
  });
  for (let i = 0; i < n; i++) ongoing[i] = pending[i] > 0;
  return { roles, callOf, lastAnswer, ongoing, userTurns };
}

/**
 * Kernel views kept up to date by the store as messages are appended and stretches spliced,
 * so planning a step does not rebuild them from every Message (which made each step O(n)).
 *
 * Layout: each message has an ordinal, increasing along the conversation (appends take the next
 * one; a summary takes the ordinal of the first message it replaces), and the pairing entries
 * hold the ordinal of the message they point at. A splice then changes no entry outside the
 * stretch: a position is found from its ordinal by a binary search when the kernel reads it.
 * Every per-message sequence is a NumberGapArray (gap-array.ts), so a splice costs the stretch plus the distance from
 * the previous one, not the length of the conversation. The KernelViews fields are read-only
 * array views (gap-array.ts arrayView) showing exactly the positions kernelViews would build.
 */
export interface LiveViews extends KernelViews {
  userTurns: number;
  /**
   * the store vouches that these views have Pairing (it checked them in full once, and every
   * change since through the gate): the gate then does not check it in full at every call
   */
  paired: boolean;
  /** per position: the message's ordinal (strictly increasing) */
  readonly ordAt: NumberGapArray;
  /** per position: the role's code (roleCode) */
  readonly rolesAt: NumberGapArray;
  /** per position: ordinal of the assistant message holding the call it answers, or -1 */
  readonly callOrd: NumberGapArray;
  /** per position: ordinal of its calls' last answer, or -1 */
  readonly lastOrd: NumberGapArray;
  /** per position: 1 for an assistant message with a call still waiting for its result, else 0 */
  readonly ongoingAt: NumberGapArray;
  /** per assistant message, how many of its calls still wait for a result */
  readonly pendingAt: NumberGapArray;
  /** the ordinal the next appended message takes */
  nextOrd: number;
  /** the tool-pairing index of the messages: every call id, and the ordinal of each call's message while it waits */
  readonly pairing: ToolPairing;
}

/** The roles by code (roleCode below), as the views keep them: a number per message, in a typed array. */
const ROLES: readonly Role[] = ["system", "user", "assistant", "tool", "summary", "compaction"];

/** The position of the message with ordinal o, or -1 if no message has it (O(log n)). */
export function positionOf(v: LiveViews, o: number): number {
  const ord = v.ordAt;
  // ordinals only grow relative to positions (splices remove, appends add at the end), so
  // position <= ordinal; before any splice they are equal
  let hi = Math.min(o, ord.length - 1);
  if (hi >= 0 && ord.at(hi) === o) return hi;
  // a message after every splice so far sits as far back as the splices removed messages in all
  const after = o - (v.nextOrd - ord.length);
  if (after >= 0 && after < hi && ord.at(after) === o) return after;
  let lo = 0;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const x = ord.at(mid);
    if (x === o) return mid;
    if (x < o) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

// the position an ordinal entry stands for: -1 stays -1 (no message)
function pointed(v: LiveViews, o: number): number {
  return o < 0 ? -1 : positionOf(v, o);
}

/**
 * The per-message buffers of n entries that a bulk load fills in index order (loadEntry), before
 * they become live views (liveFrom): plain typed arrays, written without the gap buffers'
 * index arithmetic. Entry i's ordinal is i.
 */
export interface ViewBuffers {
  readonly n: number;
  readonly roles: Float64Array;
  readonly callOrd: Float64Array;
  readonly lastOrd: Float64Array;
  readonly ongoing: Float64Array;
  readonly pending: Float64Array;
  userTurns: number;
}

/** Empty buffers for n entries (no message answers another until loadEntry says so). */
export function viewBuffers(n: number): ViewBuffers {
  return {
    n,
    roles: new Float64Array(n),
    callOrd: new Float64Array(n).fill(-1),
    lastOrd: new Float64Array(n).fill(-1),
    ongoing: new Float64Array(n),
    pending: new Float64Array(n),
    userTurns: 0,
  };
}

// the index of r in ROLES, by a switch rather than a search or a keyed lookup (once per message)
function roleCode(r: Role): number {
  switch (r) {
    case "system":
      return 0;
    case "user":
      return 1;
    case "assistant":
      return 2;
    case "tool":
      return 3;
    case "summary":
      return 4;
    default:
      return 5;
  }
}
const SUMMARY_CODE = roleCode("summary");
const USER_CODE = roleCode("user");

/** Sets entry i (every earlier one set) to message m, answering a call of message `a` (-1: none; a < i). */
export function loadEntry(b: ViewBuffers, i: number, m: Message, a: number): void {
  const calls = m.role === "assistant" ? m.toolCalls.length : 0;
  b.roles[i] = roleCode(kernelRole(m));
  b.ongoing[i] = calls > 0 ? 1 : 0;
  b.pending[i] = calls;
  if (m.role === "user") b.userTurns++;
  if (a >= 0) {
    b.callOrd[i] = a;
    b.lastOrd[a] = i;
    const left = b.pending[a] - 1;
    b.pending[a] = left;
    b.ongoing[a] = left > 0 ? 1 : 0;
  }
}

/**
 * A store's live views, whose building a bulk load defers until something reads them (a caller
 * asking only "is it due" reads none): the load hands over its list (the store's own buffer,
 * unchanged until the views are built) and, per message, 1 + the index of the call's message it
 * answers (0: none), with the messages' pairing index and user turns; `now` builds them once.
 */
export class DeferredViews {
  private live: LiveViews = emptyLiveViews();
  private loaded:
    | { readonly list: readonly Message[]; readonly answers: Int32Array; readonly pairing: ToolPairing }
    | undefined;
  private loadedTurns = 0;

  /** Defers the views of `list` (loaded, well-paired) until first read. */
  load(list: readonly Message[], answers: Int32Array, pairing: ToolPairing, userTurns: number): void {
    this.loaded = { list, answers, pairing };
    this.loadedTurns = userTurns;
  }

  /** Replaces the views by `v` (built elsewhere). */
  set(v: LiveViews): void {
    this.live = v;
    this.loaded = undefined;
  }

  /** The live views, built first if a load deferred them (once, O(n)). */
  now(): LiveViews {
    const loaded = this.loaded;
    if (loaded === undefined) return this.live;
    const n = loaded.list.length;
    const b = viewBuffers(n);
    for (let i = 0; i < n; i++) loadEntry(b, i, loaded.list[i], loaded.answers[i] - 1);
    this.set(liveFrom(b, loaded.pairing));
    return this.live;
  }

  /** Number of user messages, without building deferred views. */
  get userTurns(): number {
    return this.loaded === undefined ? this.live.userTurns : this.loadedTurns;
  }
}

/** The live views of filled buffers (taken, not copied), with the pairing index of the same messages (ordinals = positions). */
export function liveFrom(b: ViewBuffers, pairing = new ToolPairing()): LiveViews {
  const ord = new Float64Array(b.n);
  for (let i = 0; i < b.n; i++) ord[i] = i;
  const v = liveOf(
    NumberGapArray.adopt(ord),
    NumberGapArray.adopt(b.roles),
    NumberGapArray.adopt(b.callOrd),
    NumberGapArray.adopt(b.lastOrd),
    NumberGapArray.adopt(b.ongoing),
    NumberGapArray.adopt(b.pending),
    pairing,
  );
  v.userTurns = b.userTurns;
  return v;
}

/** Live views over the given per-position sequences, whose ordinals are 0..length-1. */
function liveOf(
  ordAt: NumberGapArray,
  rolesAt: NumberGapArray,
  callOrd: NumberGapArray,
  lastOrd: NumberGapArray,
  ongoingAt: NumberGapArray,
  pendingAt: NumberGapArray,
  pairing: ToolPairing,
): LiveViews {
  const v: LiveViews = {
    ordAt,
    rolesAt,
    callOrd,
    lastOrd,
    ongoingAt,
    pendingAt,
    nextOrd: ordAt.length,
    userTurns: 0,
    paired: false,
    pairing,
    roles: arrayView({
      get length() {
        return rolesAt.length;
      },
      at: (i: number) => ROLES[rolesAt.at(i)],
    }),
    callOf: arrayView({
      get length() {
        return callOrd.length;
      },
      at: (i: number) => pointed(v, callOrd.at(i)),
    }),
    lastAnswer: arrayView({
      get length() {
        return lastOrd.length;
      },
      at: (i: number) => pointed(v, lastOrd.at(i)),
    }),
    ongoing: arrayView({
      get length() {
        return ongoingAt.length;
      },
      at: (i: number) => ongoingAt.at(i) === 1,
    }),
  };
  return v;
}

/** Empty live views, to be filled by appendToViews. */
export function emptyLiveViews(): LiveViews {
  return liveFrom(viewBuffers(0));
}

/** Live views of a conversation, built message by message (same arrays as kernelViews on a well-formed one). */
export function liveViews(messages: readonly Message[]): LiveViews {
  const v = emptyLiveViews();
  for (const m of messages) appendToViews(v, m);
  return v;
}

/** Adds message m at the end of the views in O(its tool calls + log n); returns the index of the call it answers, or -1. */
export function appendToViews(v: LiveViews, m: Message): number {
  const o = v.nextOrd;
  const at = v.pairing.add(m, o);
  const a = at === undefined || at < 0 ? -1 : positionOf(v, at);
  appendAnswering(v, m, a);
  return a;
}

/**
 * Adds message m at the end of the views as the answer to a call of message `a` (-1: it answers
 * none), in O(log n). The pairing index is the caller's to keep (appendToViews keeps it).
 */
export function appendAnswering(v: LiveViews, m: Message, a: number): void {
  v.ordAt.push(v.nextOrd++);
  v.rolesAt.push(roleCode(kernelRole(m)));
  v.callOrd.push(-1);
  v.lastOrd.push(-1);
  v.ongoingAt.push(0);
  v.pendingAt.push(0);
  setAnswering(v, v.rolesAt.length - 1, m, a);
}

/** Sets entry i (the last one set so far, all earlier ones set) to message m, answering a call of message `a` (-1: none). */
function setAnswering(v: LiveViews, i: number, m: Message, a: number): void {
  const calls = m.role === "assistant" ? m.toolCalls.length : 0;
  v.rolesAt.set(i, roleCode(kernelRole(m)));
  v.lastOrd.set(i, -1);
  v.ongoingAt.set(i, calls > 0 ? 1 : 0);
  v.pendingAt.set(i, calls);
  if (m.role === "user") v.userTurns++;
  if (a >= 0) {
    v.callOrd.set(i, v.ordAt.at(a));
    v.lastOrd.set(a, v.ordAt.at(i));
    const left = v.pendingAt.at(a) - 1;
    v.pendingAt.set(a, left);
    v.ongoingAt.set(a, left > 0 ? 1 : 0);
  } else v.callOrd.set(i, -1);
}

/** Plain copies of the views (kernelViews' arrays), in O(n): for a check that reads every entry. */
export function plainViews(v: LiveViews): KernelViews {
  const n = v.rolesAt.length;
  const ords = v.ordAt;
  // Ordinals strictly increase from >= 0, so when the last one is n - 1 every ordinal is its own
  // position (no splice yet: every fresh load): no search. Otherwise a binary search per entry
  // over the ordinals (a Map of a million ordinals cost more than the rest of the check).
  const identity = n === 0 || ords.at(n - 1) === n - 1;
  const pos = (o: number): number => {
    if (o < 0) return -1;
    if (identity) return o < n ? o : -1;
    let lo = 0;
    let hi = n - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const x = ords.at(mid);
      if (x < o) lo = mid + 1;
      else if (x > o) hi = mid - 1;
      else return mid;
    }
    return -1;
  };
  const roles = new Array<Role>(n);
  const callOf = new Array<number>(n);
  const lastAnswer = new Array<number>(n);
  const ongoing = new Array<boolean>(n);
  for (let i = 0; i < n; i++) {
    roles[i] = ROLES[v.rolesAt.at(i)];
    callOf[i] = pos(v.callOrd.at(i));
    lastAnswer[i] = pos(v.lastOrd.at(i));
    ongoing[i] = v.ongoingAt.at(i) === 1;
  }
  return { roles, callOf, lastAnswer, ongoing, userTurns: v.userTurns };
}

/**
 * Replaces entries [start, end) by one summary entry. Correct when no entry outside [start, end)
 * points into it and no call in it waits for a result (a coherent stretch: kernel-gate's
 * gateStretchCoherent checks that first): then no entry outside the stretch changes, since entries
 * hold ordinals and later positions follow from the shorter ordinal sequence. The summary keeps
 * the first replaced message's ordinal, so ordinals stay increasing. Costs O(end - start) plus the
 * gap's move from the previous splice (gap-array.ts): no pass over the whole conversation.
 */
export function spliceViews(v: LiveViews, start: number, end: number): void {
  for (let j = start; j < end; j++) if (v.rolesAt.at(j) === USER_CODE) v.userTurns--;
  // the pairing index needs no update: a coherent stretch holds no call still waiting (every
  // message in it is movable, so not ongoing), and entries elsewhere keep their ordinals
  const o = v.ordAt.at(start);
  v.ordAt.replace(start, end, o);
  v.rolesAt.replace(start, end, SUMMARY_CODE);
  v.callOrd.replace(start, end, -1);
  v.lastOrd.replace(start, end, -1);
  v.ongoingAt.replace(start, end, 0);
  v.pendingAt.replace(start, end, 0);
}
