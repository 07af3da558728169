// The wire helpers on a session, for the tests (helper-session.test.ts) and the agent they kill
// (helper-agent.ts): per helper kind, one turn's items in its format (a question naming a unique
// id, a tool call, its result, an answer) and one agent step through the helper with a session,
// the agent holding its array as the helper returned it plus what happened since.
import type { ResponseInputItem } from "openai/resources/responses/responses";
import { compactAnthropicMessages, compactOpenAIMessages } from "../../src/library/compact-wire.ts";
import { compactResponsesItems } from "../../src/library/responses.ts";
import type { ConfigInput } from "../../src/model/config.ts";
import type { Json, JsonObject } from "../../src/model/json.ts";
import type { Session } from "../../src/session/session.ts";

/** The helper kinds, by the session format each keeps. */
export const HELPER_KINDS = ["openai", "anthropic", "responses"] as const;
export type HelperKind = (typeof HELPER_KINDS)[number];

/** One turn's four items in `kind`'s format; every text carries `id`; `args`: the call's arguments (JSON text). */
export function helperTurn(kind: HelperKind, id: string, size = 12, args = "{}"): JsonObject[] {
  const question = { role: "user", content: `question ${id} ${"q ".repeat(size)}` };
  const result = `result ${id} ${"r ".repeat(size * 3)}`;
  const answer = { role: "assistant", content: `answer ${id} ${"a ".repeat(size * 2)}` };
  if (kind === "openai")
    return [
      question,
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: `call-${id}`, type: "function", function: { name: "look", arguments: args } }],
      },
      { role: "tool", tool_call_id: `call-${id}`, content: result },
      answer,
    ];
  if (kind === "anthropic")
    return [
      question,
      {
        role: "assistant",
        content: [{ type: "tool_use", id: `call-${id}`, name: "look", input: JSON.parse(args) as Json }],
      },
      { role: "user", content: [{ type: "tool_result", tool_use_id: `call-${id}`, content: result }] },
      answer,
    ];
  return [
    question,
    { type: "function_call", call_id: `call-${id}`, name: "look", arguments: args },
    { type: "function_call_output", call_id: `call-${id}`, output: result },
    answer,
  ];
}

/** An agent's array as it holds it: Anthropic's top-level system apart from its messages. */
export interface Held {
  readonly system?: Json;
  readonly items: Json[];
}

/** One call of `kind`'s helper with the session: the array the agent holds in, the context to send out. */
export async function helperStep(kind: HelperKind, session: Session, held: Held, config: ConfigInput): Promise<Held> {
  if (kind === "openai") {
    const r = await compactOpenAIMessages(held.items, config, { session });
    return { items: r.messages };
  }
  if (kind === "anthropic") {
    const r = await compactAnthropicMessages(
      { ...(held.system === undefined ? {} : { system: held.system }), messages: held.items },
      config,
      { session },
    );
    return { ...(r.system === undefined ? {} : { system: r.system }), items: r.messages };
  }
  const r = await compactResponsesItems(held.items as unknown as ResponseInputItem[], config, { session });
  return { items: r.input as unknown as Json[] };
}

/** The context split as the agent holds it (Anthropic's leading `{"system": ...}` item apart). */
export function heldOf(kind: HelperKind, context: readonly Json[]): Held {
  const [first, ...rest] = context;
  if (kind === "anthropic" && first !== null && typeof first === "object" && !Array.isArray(first) && "system" in first)
    return { system: first.system, items: rest };
  return { items: [...context] };
}

/**
 * An agent on `session` through `kind`'s helper, resumed from the session (the steps it asked
 * already are in its history): each step pushes the user's question, calls the helper, pushes
 * the reply (a tool call, its result, an answer) and says `step N`; after `steps` steps a last
 * call persists the last reply.
 */
export async function runHelperAgent(
  kind: HelperKind,
  session: Session,
  steps: number,
  config: ConfigInput,
  say: (line: string) => void = () => {},
): Promise<number> {
  const start = (await session.history({ full: true })).match(/"question /g)?.length ?? 0;
  let held = heldOf(kind, await session.context());
  for (let i = start; i < steps; i++) {
    const [question, ...reply] = helperTurn(kind, `s${i}`);
    held = await helperStep(kind, session, { ...held, items: [...held.items, question] }, config);
    held = { ...held, items: [...held.items, ...reply] };
    say(`step ${i}`);
  }
  await helperStep(kind, session, held, config);
  return start;
}
