// The retention measure of the agent-loop replay: at every model call, the share of what the agent
// has seen so far that the context it sends still holds. Five facets, each found by a rule written
// here (independent of what any compactor keeps): (a) file paths (a word with a slash and an
// extension, anywhere), (b) commands (each tool call: its `command` argument, else its name and its
// argument values), (c) open errors (error lines of a tool result, open until a later result of the
// same command has none), (d) user constraints (sentences of user messages saying "never",
// "always", "do not", or "use X not / instead of Y"), and (e) the identifiers (paths, symbols) the
// agent's next tool calls use that appeared earlier in the history. Each message's facets are
// read once and kept by object, so a replay of thousands of calls costs a pass per new message.
import type { Message } from "../../src/model/message.ts";

/** A path: segments joined by slashes, the last with an extension. */
const PATH = /(?:[\w.-]+\/)+[\w-]+\.\w+/g;
/** A symbol: an identifier of at least 4 characters with an inner capital, an underscore or a digit. */
const SYMBOL = /\b[A-Za-z_$][\w$]{3,}\b/g;
const isSymbol = (w: string) => /[a-z][A-Z]|_|\d/.test(w);
/** An error line: what test runners, compilers and shells print on failure. */
const ERROR_LINE = /\b(FAIL|ERROR|\w*Error|error|ERR!|Traceback|\w*Exception|exit code [1-9]\d*)\b/;
/** A user constraint's sentence. */
const CONSTRAINT = /\b(never|always|do not|don't|must not)\b|\buse \S+ (not|instead of) \S+/i;

/** The canonical text of a tool call: its `command` argument, or its name followed by its argument values. */
export function commandText(name: string, args: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(args);
  } catch {
    return `${name} ${args}`.trim();
  }
  if (typeof parsed !== "object" || parsed === null) return `${name} ${String(parsed)}`;
  const record = parsed as Record<string, unknown>;
  if (typeof record.command === "string") return record.command;
  if (typeof record.cmd === "string") return record.cmd;
  return [name, ...Object.values(record).map((v) => (typeof v === "string" ? v : JSON.stringify(v)))].join(" ");
}

/** The error lines of a text, trimmed. */
export function errorLines(text: string): string[] {
  return text
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "" && ERROR_LINE.test(l));
}

/** The constraint sentences of a user message. */
export function constraints(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+|\n/)
    .map((s) => s.trim())
    .filter((s) => s !== "" && CONSTRAINT.test(s));
}

/** What one message holds, read once. */
interface Facets {
  readonly paths: ReadonlySet<string>;
  readonly symbols: ReadonlySet<string>;
  readonly commands: ReadonlySet<string>;
  readonly errors: ReadonlySet<string>;
  /** the message's text beside its tool results' lines: where a summary or a ledger says things */
  readonly text: string;
}

const cache = new WeakMap<Message, Facets>();

/** A message's text and its tool calls' text. */
function fullText(m: Message): string {
  if (m.role !== "assistant") return m.content;
  return [m.content, ...m.toolCalls.map((c) => `${c.name} ${c.arguments}`)].join("\n");
}

function facets(m: Message): Facets {
  const got = cache.get(m);
  if (got !== undefined) return got;
  const text = fullText(m);
  const f: Facets = {
    paths: new Set(text.match(PATH) ?? []),
    symbols: new Set((text.match(SYMBOL) ?? []).filter(isSymbol)),
    commands: new Set(m.role === "assistant" ? m.toolCalls.map((c) => commandText(c.name, c.arguments)) : []),
    errors: new Set(m.role === "tool" ? errorLines(m.content) : []),
    text,
  };
  cache.set(m, f);
  return f;
}

/** Shares summed over model calls (each facet over the calls where something of it had been seen). */
export interface Retention {
  calls: number;
  /** the largest evidence ledger message any context held, in characters (0: none) */
  largestLedger: number;
  readonly paths: Share;
  readonly commands: Share;
  readonly errors: Share;
  readonly constraints: Share;
  /** identifiers of the next tool calls seen earlier: the share held by the context sent */
  readonly next: Share;
}

/** A running share: the sum of per-call shares, the calls counted, and the least share of one call. */
export interface Share {
  sum: number;
  calls: number;
  least: number;
}

const emptyShare = (): Share => ({ sum: 0, calls: 0, least: 1 });

/** The mean share over the calls counted (1 when none was: nothing to lose). */
export function mean(s: Share): number {
  return s.calls === 0 ? 1 : s.sum / s.calls;
}

function add(s: Share, held: number, of: number): void {
  if (of === 0) return;
  s.sum += held / of;
  s.calls++;
  s.least = Math.min(s.least, held / of);
}

/** What the history has shown so far, kept up to date message by message. */
export class RetentionMeter {
  private readonly paths = new Set<string>();
  private readonly symbols = new Set<string>();
  private readonly commands = new Set<string>();
  /** open error lines by the command whose result printed them */
  private readonly open = new Map<string, string[]>();
  private readonly userConstraints = new Set<string>();
  /** the command of each tool call id, for its result */
  private readonly callCommand = new Map<string, string>();
  readonly result: Retention = {
    calls: 0,
    largestLedger: 0,
    paths: emptyShare(),
    commands: emptyShare(),
    errors: emptyShare(),
    constraints: emptyShare(),
    next: emptyShare(),
  };

  /** A message joins the history. */
  see(m: Message): void {
    const f = facets(m);
    for (const p of f.paths) this.paths.add(p);
    for (const s of f.symbols) this.symbols.add(s);
    for (const c of f.commands) this.commands.add(c);
    if (m.role === "assistant")
      for (const c of m.toolCalls) this.callCommand.set(c.id, commandText(c.name, c.arguments));
    if (m.role === "tool") {
      const command = this.callCommand.get(m.toolCallId) ?? m.toolCallId;
      if (f.errors.size > 0) this.open.set(command, [...f.errors]);
      else this.open.delete(command);
    }
    if (m.role === "user") for (const c of constraints(m.content)) this.userConstraints.add(c);
  }

  /** The agent sends `context` and answers with `reply`: counts what the context holds of the history so far. */
  measure(context: readonly Message[], reply: Message): void {
    this.result.calls++;
    const paths = new Set<string>();
    const symbols = new Set<string>();
    const commands = new Set<string>();
    const errors = new Set<string>();
    const texts: string[] = [];
    for (const m of context) {
      const f = facets(m);
      for (const p of f.paths) paths.add(p);
      for (const s of f.symbols) symbols.add(s);
      for (const c of f.commands) commands.add(c);
      for (const e of f.errors) errors.add(e);
      if (m.role !== "tool") texts.push(f.text);
      if (m.role === "summary" && m.content.startsWith("<evidence_ledger>"))
        this.result.largestLedger = Math.max(this.result.largestLedger, m.content.length);
    }
    // a summary or a ledger says commands and errors in prose: looked up in the text beside the tool results
    const prose = texts.join("\n");
    const held = (set: ReadonlySet<string>, x: string) => set.has(x) || prose.includes(x);
    add(
      this.result.paths,
      count(this.paths, (p) => paths.has(p)),
      this.paths.size,
    );
    add(
      this.result.commands,
      count(this.commands, (c) => held(commands, c)),
      this.commands.size,
    );
    const open = [...this.open.values()].flat();
    add(this.result.errors, open.filter((e) => held(errors, e)).length, open.length);
    add(
      this.result.constraints,
      count(this.userConstraints, (c) => prose.includes(c)),
      this.userConstraints.size,
    );
    if (reply.role === "assistant" && reply.toolCalls.length > 0) {
      // the identifiers the calls themselves use: their arguments, not the reply's prose
      const args = reply.toolCalls.map((c) => c.arguments).join("\n");
      const used = [...new Set(args.match(PATH) ?? [])].filter((p) => this.paths.has(p)).map((p) => paths.has(p));
      const named = [...new Set((args.match(SYMBOL) ?? []).filter(isSymbol))].filter((s) => this.symbols.has(s));
      const earlier = [...used, ...named.map((s) => symbols.has(s))];
      add(this.result.next, earlier.filter(Boolean).length, earlier.length);
    }
  }
}

function count<T>(set: ReadonlySet<T>, keep: (x: T) => boolean): number {
  let n = 0;
  for (const x of set) if (keep(x)) n++;
  return n;
}
