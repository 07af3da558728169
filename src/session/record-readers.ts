// The records a session writes, read back from their JSON objects (a log line's fields, a
// database row's record), each field checked and every error naming where it was read: the one
// reader both backends use. Input: a parsed object and a place to name; output: the record, or an
// InputError. It does not read lines or rows itself (log-lines.ts, pg-session.ts do).

import { CANDIDATE_TAGS, type MemoryCandidate } from "../engine/memory/candidates.ts";
import { CALL_FAILURE_KINDS, type CallFailure, type CallFailureKind } from "../model/call-failure.ts";
import { InputError } from "../model/errors.ts";
import type { Json, JsonObject } from "../model/json.ts";
import { isJsonObject } from "../model/json.ts";
import type {
  CallRef,
  ClearedEntry,
  ClearedInputs,
  ClearingRecord,
  ClearRecord,
  CompactionRecord,
  PopRecord,
  RecordedCall,
  RestoreRecord,
  UnshrinkableRecord,
} from "./record.ts";

export function nat(o: JsonObject, key: string, at: string): number {
  const x = o[key];
  if (typeof x !== "number" || !Number.isSafeInteger(x) || x < 0)
    throw new InputError(at, `field "${key}": expected an integer >= 0, got ${JSON.stringify(x)}`);
  return x;
}

export function str(o: JsonObject, key: string, at: string): string {
  const x = o[key];
  if (typeof x !== "string") throw new InputError(at, `field "${key}": expected a string`);
  return x;
}

export function optStr(o: JsonObject, key: string): string | undefined {
  const x = o[key];
  return typeof x === "string" ? x : undefined;
}

/** The triggers a committed step can record (a plan's, less "none"; "to target": below the trigger, in a run that was due). */
const RECORD_TRIGGERS: readonly CompactionRecord["trigger"][] = [
  "tokens",
  "messages",
  "turns",
  "reported usage",
  "context window",
  "to target",
];

/** Names records of older versions gave a trigger, and the name it has now. */
const OLD_TRIGGER_NAMES: Readonly<Record<string, CompactionRecord["trigger"]>> = { "low-water": "to target" };

/** A record's trigger as read: one of RECORD_TRIGGERS, an older name mapped to its current one, or undefined. */
function recordTriggerOf(x: unknown): CompactionRecord["trigger"] | undefined {
  if (typeof x !== "string") return undefined;
  return RECORD_TRIGGERS.find((t) => t === x) ?? OLD_TRIGGER_NAMES[x];
}

/** A compaction record read from its JSON object (a log line's fields, a database row's record); `at` names where. */
export function recordOf(o: JsonObject, at: string): CompactionRecord {
  const decision = decisionOf(o, at);
  const start = nat(o, "start", at);
  const end = nat(o, "end", at);
  if (end <= start) throw new InputError(at, `the stretch ${start}..${end} is empty`);
  const trigger = recordTriggerOf(o.trigger);
  if (trigger === undefined)
    throw new InputError(
      at,
      `field "trigger": expected one of ${RECORD_TRIGGERS.map((t) => JSON.stringify(t)).join(", ")}`,
    );
  const committedVersion = nat(o, "committedVersion", at);
  return {
    items: nat(o, "items", at),
    start,
    end,
    summary: str(o, "summary", at),
    trigger,
    tokensBefore: nat(o, "tokensBefore", at),
    tokensAfter: nat(o, "tokensAfter", at),
    summarizer: str(o, "summarizer", at),
    ...(optStr(o, "model") === undefined ? {} : { model: optStr(o, "model") }),
    ...callsOf(o, committedVersion, at),
    ...(o.memoryCandidates === undefined
      ? {}
      : { memoryCandidates: listOf(o.memoryCandidates, "memoryCandidates", at).map((c) => candidateOf(c, at)) }),
    plannedVersion: nat(o, "plannedVersion", at),
    committedVersion,
    decision,
    watermark: nat(o, "watermark", at),
    time: str(o, "time", at),
  };
}

/** A memory flush candidate a compaction record holds, checked field by field (docs/memory-candidates.md). */
function candidateOf(o: JsonObject, at: string): MemoryCandidate {
  const bad = (what: string) => new InputError(at, `field "memoryCandidates": ${what}`);
  const { sourceSession, sourceMessages, tag, confidence } = o;
  if (sourceSession !== undefined && typeof sourceSession !== "string") throw bad("sourceSession is not a string");
  if (
    !Array.isArray(sourceMessages) ||
    !sourceMessages.every((i) => typeof i === "number" && Number.isSafeInteger(i) && i >= 0)
  )
    throw bad("sourceMessages is not a list of message positions");
  const known = CANDIDATE_TAGS.find((t) => t === tag);
  if (known === undefined) throw bad(`tag ${JSON.stringify(tag)} is not one of ${CANDIDATE_TAGS.join(", ")}`);
  if (typeof confidence !== "number" || !(confidence >= 0 && confidence <= 1))
    throw bad(`confidence ${JSON.stringify(confidence)} is not in [0, 1]`);
  return {
    id: str(o, "id", at),
    sourceSession,
    sourceMessages: sourceMessages as number[],
    text: str(o, "text", at),
    tag: known,
    confidence,
    time: str(o, "time", at),
  };
}

export function listOf(x: Json, key: string, at: string): JsonObject[] {
  if (!Array.isArray(x) || !x.every(isJsonObject))
    throw new InputError(at, `field "${key}": expected an array of objects`);
  return x as JsonObject[];
}

/** The usage counts a provider may report, each a natural number when present. */
const USAGE_KEYS = [
  "inputTokens",
  "outputTokens",
  "cacheReadTokens",
  "cacheWriteTokens",
  "compactionSteps",
  "compactionInputTokens",
  "compactionOutputTokens",
] as const;

function callOf(o: JsonObject, at: string): RecordedCall {
  const d = o.durationMs;
  if (typeof d !== "number" || !Number.isFinite(d) || d < 0)
    throw new InputError(at, `field "calls": durationMs ${JSON.stringify(d)} is not a duration`);
  if (typeof o.answered !== "boolean") throw new InputError(at, `field "calls": answered is not a boolean`);
  const u = o.usage;
  if (u !== undefined && !isJsonObject(u)) throw new InputError(at, `field "calls": usage is not an object`);
  const usage: Record<string, number> = {};
  if (u !== undefined) for (const k of USAGE_KEYS) if (u[k] !== undefined) usage[k] = nat(u, k, at);
  const stretches = nat(o, "stretches", at);
  if (stretches < 1) throw new InputError(at, `field "calls": a call asks for at least one stretch`);
  const f = o.failure;
  if (f !== undefined && !isJsonObject(f)) throw new InputError(at, `field "calls": failure is not an object`);
  return {
    durationMs: d,
    answered: o.answered,
    ...(u === undefined ? {} : { usage }),
    stretches,
    ...(f === undefined ? {} : { failure: failureOf(f, at) }),
  };
}

/** A failed call's failure as written (call-failure.ts CallFailure): its kind one of the known ones, each field of its type. */
function failureOf(f: JsonObject, at: string): CallFailure {
  const kind = str(f, "kind", at);
  if (!CALL_FAILURE_KINDS.includes(kind as CallFailureKind))
    throw new InputError(
      at,
      `field "calls": failure kind ${JSON.stringify(kind)} is not one of ${CALL_FAILURE_KINDS.join(", ")}`,
    );
  const host = optStr(f, "host");
  const code = optStr(f, "code");
  return {
    kind: kind as CallFailureKind,
    provider: str(f, "provider", at),
    ...(host === undefined ? {} : { host }),
    model: str(f, "model", at),
    ...(f.status === undefined ? {} : { status: nat(f, "status", at) }),
    ...(code === undefined ? {} : { code }),
    message: str(f, "message", at),
  };
}

/** A record's calls and sharedCalls, when present. */
function callsOf(o: JsonObject, committedVersion: number, at: string): Pick<CompactionRecord, "calls" | "sharedCalls"> {
  const calls = o.calls;
  const shared = o.sharedCalls;
  return {
    ...(calls === undefined ? {} : { calls: listOf(calls, "calls", at).map((c) => callOf(c, at)) }),
    ...(shared === undefined
      ? {}
      : { sharedCalls: listOf(shared, "sharedCalls", at).map((r) => callRefOf(r, committedVersion, at)) }),
  };
}

function callRefOf(o: JsonObject, committedVersion: number, at: string): CallRef {
  const record = nat(o, "record", at);
  if (record >= committedVersion)
    throw new InputError(at, `field "sharedCalls": record ${record} is not an earlier record`);
  return { record, call: nat(o, "call", at) };
}

function decisionOf(o: JsonObject, at: string): CompactionRecord["decision"] {
  const decision = o.decision;
  if (decision !== "commit" && decision !== "rebase")
    throw new InputError(at, `field "decision": expected "commit" or "rebase"`);
  return decision;
}

function clearedOf(x: Json, at: string): ClearedEntry {
  if (!isJsonObject(x)) throw new InputError(at, `field "results": expected objects`);
  return {
    index: nat(x, "index", at),
    toolCallId: str(x, "toolCallId", at),
    placeholder: str(x, "placeholder", at),
    tokensBefore: nat(x, "tokensBefore", at),
    tokensAfter: nat(x, "tokensAfter", at),
  };
}

function clearedInputsOf(x: Json, at: string): ClearedInputs {
  if (!isJsonObject(x)) throw new InputError(at, `field "inputs": expected objects`);
  const ids = x.toolCallIds;
  if (!Array.isArray(ids) || ids.length === 0 || !ids.every((id) => typeof id === "string"))
    throw new InputError(at, `field "inputs": expected a non-empty array of call ids in "toolCallIds"`);
  return {
    index: nat(x, "index", at),
    toolCallIds: ids as string[],
    tokensBefore: nat(x, "tokensBefore", at),
    tokensAfter: nat(x, "tokensAfter", at),
  };
}

/** A clearing record read from its JSON object (`inputs` optional: absent in records without cleared arguments); `at` names where. */
export function clearingOf(o: JsonObject, at: string): ClearingRecord {
  const results = o.results;
  if (!Array.isArray(results) || results.length === 0)
    throw new InputError(at, `field "results": expected a non-empty array`);
  const inputs = o.inputs;
  if (inputs !== undefined && !Array.isArray(inputs)) throw new InputError(at, `field "inputs": expected an array`);
  return {
    items: nat(o, "items", at),
    results: results.map((r) => clearedOf(r, at)),
    ...(inputs === undefined ? {} : { inputs: inputs.map((x) => clearedInputsOf(x, at)) }),
    tokensBefore: nat(o, "tokensBefore", at),
    tokensAfter: nat(o, "tokensAfter", at),
    plannedVersion: nat(o, "plannedVersion", at),
    committedVersion: nat(o, "committedVersion", at),
    decision: decisionOf(o, at),
    time: str(o, "time", at),
  };
}

/** A restore record read from its JSON object; `at` names where. */
export function restoreOf(o: JsonObject, at: string): RestoreRecord {
  return {
    items: nat(o, "items", at),
    toolCallId: str(o, "toolCallId", at),
    index: nat(o, "index", at),
    ...(o.call === undefined ? {} : { call: nat(o, "call", at) }),
    committedVersion: nat(o, "committedVersion", at),
    time: str(o, "time", at),
  };
}

/** An unshrinkable record read from its JSON object; `at` names where. */
export function unshrinkableOf(o: JsonObject, at: string): UnshrinkableRecord {
  const stretches = listOf(o.stretches ?? null, "stretches", at).map((x) => {
    const start = nat(x, "start", at);
    const end = nat(x, "end", at);
    if (end <= start) throw new InputError(at, `the stretch ${start}..${end} is empty`);
    return { start, end };
  });
  if (stretches.length === 0) throw new InputError(at, `field "stretches": expected a non-empty array`);
  const committedVersion = nat(o, "committedVersion", at);
  return {
    items: nat(o, "items", at),
    stretches,
    ...callsOf(o, committedVersion, at),
    committedVersion,
    time: str(o, "time", at),
  };
}

/** A pop record read from its JSON object; `at` names where. */
export function popOf(o: JsonObject, at: string): PopRecord {
  const first = nat(o, "first", at);
  const last = nat(o, "last", at);
  const items = nat(o, "items", at);
  if (last < first || last >= items)
    throw new InputError(at, `the items ${first}..${last} popped are not among the ${items} items before it`);
  return {
    items,
    index: nat(o, "index", at),
    first,
    last,
    committedVersion: nat(o, "committedVersion", at),
    time: str(o, "time", at),
  };
}

/** A clear record read from its JSON object; `at` names where. */
export function clearOf(o: JsonObject, at: string): ClearRecord {
  return { items: nat(o, "items", at), committedVersion: nat(o, "committedVersion", at), time: str(o, "time", at) };
}
