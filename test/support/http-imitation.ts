// A real node:http server on 127.0.0.1 (port 0) imitating the OpenAI chat completions and
// Anthropic messages APIs, scripted per request, for testing the HTTP summarizers without
// stubbing fetch.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** One recorded request. */
export interface RecordedRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingMessage["headers"];
  readonly body: Record<string, unknown>;
}

/** What the imitation answers to the n-th request (0-based). */
export type Behavior =
  | { kind: "summary"; text: string; delayMs?: number; usage?: Record<string, unknown>; cut?: boolean }
  | { kind: "raw"; status: number; body: string; headers?: Record<string, string>; delayMs?: number }
  | { kind: "hang" }
  | { kind: "destroy" };

/** A running imitation server. */
export interface Imitation {
  readonly url: string;
  readonly requests: RecordedRequest[];
  close(): Promise<void>;
}

/** An answer's body; `cut`: the model stopped at its token limit (finish_reason "length", stop_reason "max_tokens"). */
function answer(api: "openai" | "anthropic", text: string, usage?: Record<string, unknown>, cut = false): string {
  if (api === "openai") {
    return JSON.stringify({
      id: "chatcmpl-1",
      object: "chat.completion",
      choices: [{ index: 0, message: { role: "assistant", content: text }, finish_reason: cut ? "length" : "stop" }],
      ...(usage === undefined ? {} : { usage }),
    });
  }
  return JSON.stringify({
    id: "msg_1",
    type: "message",
    role: "assistant",
    content: [{ type: "text", text }],
    stop_reason: cut ? "max_tokens" : "end_turn",
    ...(usage === undefined ? {} : { usage }),
  });
}

/** The summary text the imitation derives from a prompt by default: an extractive answer inside the tag. */
export type Script = (n: number, req: RecordedRequest) => Behavior;

/** Starts an imitation of `api`; `script` decides each answer. */
export async function startImitation(api: "openai" | "anthropic", script: Script): Promise<Imitation> {
  const requests: RecordedRequest[] = [];
  const sockets = new Set<import("node:net").Socket>();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as Record<string, unknown>;
      } catch {
        body = {};
      }
      const rec: RecordedRequest = { method: req.method ?? "", url: req.url ?? "", headers: req.headers, body };
      requests.push(rec);
      const expected = api === "openai" ? "/chat/completions" : "/v1/messages";
      if (!rec.url.endsWith(expected)) {
        res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ error: "not found" }));
        return;
      }
      const b = script(requests.length - 1, rec);
      const send = () => {
        if (b.kind === "hang") return;
        if (b.kind === "destroy") {
          req.socket.destroy();
          return;
        }
        if (b.kind === "summary")
          res.writeHead(200, { "content-type": "application/json" }).end(answer(api, b.text, b.usage, b.cut));
        else res.writeHead(b.status, { "content-type": "application/json", ...(b.headers ?? {}) }).end(b.body);
      };
      const delay = b.kind === "summary" || b.kind === "raw" ? (b.delayMs ?? 0) : 0;
      if (delay > 0) setTimeout(send, delay);
      else send();
    });
  });
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as AddressInfo).port;
  const base = api === "openai" ? `http://127.0.0.1:${port}/v1` : `http://127.0.0.1:${port}`;
  return {
    url: base,
    requests,
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}

/** The prompt text of a recorded request (both APIs put it in messages[0].content). */
export function promptOf(req: RecordedRequest): string {
  const msgs = req.body.messages as { content: string }[] | undefined;
  return msgs?.[0]?.content ?? "";
}

/** A well-behaved answer: the required facts listed in the prompt, inside the tag. */
export function factfulAnswer(req: RecordedRequest, tag = "summary"): string {
  const prompt = promptOf(req);
  const start = prompt.indexOf("These facts must appear verbatim in the summary:\n");
  const end = prompt.indexOf("\n\nConversation excerpt:");
  const facts =
    start >= 0 && end > start
      ? prompt
          .slice(start, end)
          .split("\n")
          .slice(1)
          .filter((l) => l.startsWith("- "))
          .map((l) => l.slice(2))
      : [];
  return `Sure, here it is.\n<${tag}>The agent worked on: ${facts.join("; ")}.</${tag}>\nAnything else?`;
}
