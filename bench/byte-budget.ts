// Does the agent's request fit the provider's size once the byte budget (max_request_bytes) joins
// the triggers? Each scenario is an agent loop of three steps against the loopback Anthropic
// server (test/support/agent-overflow-server.ts: it refuses a body over its byte limit with
// Anthropic's real 413 request_too_large): before each model call the history is compacted by
// compactAnthropicMessages under max_request_bytes, then sent; the agent's answer and a new user
// message are appended. Per scenario: agent requests sent, refused (413), the largest body, the
// summarizer calls paid, and the last run's outcome.
//   npx tsx bench/byte-budget.ts
import type Anthropic from "@anthropic-ai/sdk";
import AnthropicClient from "@anthropic-ai/sdk";
import { compactAnthropicMessages } from "../src/library/compact-wire.ts";
import { PROVIDER_REQUEST_BYTES } from "../src/model/context-overflow.ts";
import { charCounter } from "../src/model/tokens.ts";
import { offlineSummarizer } from "../src/providers/offline-summarizer.ts";
import { startAgentServer } from "../test/support/agent-overflow-server.ts";
import { imageData, imageHistory } from "../test/support/image-history.ts";

const SERVER_BYTES = 1_000_000;
const BUDGET = 900_000;

/** One scenario: its history, and (for the provider default) the server's size and the budget when not the ones above. */
const scenarios: {
  name: string;
  history: () => Anthropic.MessageParam[];
  serverBytes?: number;
  budget?: number | null;
}[] = [
  {
    name: "tool results holding images (6 x 200 KB base64)",
    history: () => imageHistory(12, (i) => i >= 1 && i <= 6, 150_000),
  },
  {
    name: "user-message images over the budget (2 x 600 KB base64)",
    history: () => {
      const ms = imageHistory(12, () => false, 0);
      ms.splice(1, 0, { role: "assistant", content: "Send me the screenshots." });
      ms.splice(2, 0, {
        role: "user",
        content: [
          { type: "text", text: "Here they are." },
          { type: "image", source: { type: "base64", media_type: "image/png", data: imageData(450_000, 1) } },
          { type: "image", source: { type: "base64", media_type: "image/png", data: imageData(450_000, 2) } },
        ],
      });
      return ms;
    },
  },
  {
    // no max_request_bytes: compactAnthropicMessages takes Anthropic's documented 32 MB
    name: "no setting, a server at Anthropic's 32 MB (9 x 4 MB base64)",
    history: () => imageHistory(12, (i) => i >= 1 && i <= 9, 3_000_000),
    serverBytes: PROVIDER_REQUEST_BYTES.anthropic,
    budget: null,
  },
];

const rows: string[] = [];
for (const s of scenarios) {
  const server = await startAgentServer("anthropic", {
    windowTokens: 100_000,
    maxBytes: s.serverBytes ?? SERVER_BYTES,
  });
  const budget = s.budget === undefined ? { max_request_bytes: BUDGET } : {};
  const client = new AnthropicClient({ baseURL: server.url, apiKey: "sk-ant-bench", maxRetries: 0 });
  const inner = offlineSummarizer(charCounter());
  let calls = 0;
  const summarizer = {
    name: inner.name,
    summarize: (r: Parameters<typeof inner.summarize>[0]) => {
      calls++;
      return inner.summarize(r);
    },
  };
  let messages = s.history();
  let outcome = "";
  for (let step = 0; step < 3; step++) {
    const r = await compactAnthropicMessages(
      { messages },
      { provider: "offline", token_threshold: 100_000, ...budget },
      { summarizer },
    );
    outcome = `${r.report.outcome}: ${r.report.reason.slice(0, 90)}`;
    messages = r.messages as Anthropic.MessageParam[];
    await client.messages.create({ model: "claude-haiku-4-5", max_tokens: 256, messages }).catch(() => undefined);
    messages = [
      ...messages,
      { role: "assistant", content: "Page 3 looks broken." },
      { role: "user", content: `And now (${step})?` },
    ];
  }
  await server.close();
  const sent = server.requests.length;
  const refused = server.requests.filter((q) => q.status === 413).length;
  const largest = Math.max(...server.requests.map((q) => q.bytes));
  rows.push(`| ${s.name} | ${sent} | ${refused} | ${largest} | ${calls} | ${outcome} |`);
}
console.log(
  `agent requests against a ${SERVER_BYTES}-byte server, max_request_bytes ${BUDGET} (unless the scenario says otherwise), 3 steps each`,
);
console.log("| scenario | requests sent | refused 413 | largest body (bytes) | summarizer calls | last run |");
console.log("|---|---|---|---|---|---|");
for (const r of rows) console.log(r);
