// A child process running the example agent on a safecut session (a JSONL log): runs `from` to
// `to - 1`, printing `done R` after each. The test SIGKILLs it mid-run and resumes the session.
import { run } from "@openai/agents";
import { SafecutAgentsSession } from "../../../src/entries/openai-agents.ts";
import { openSession } from "../../../src/session/open.ts";
import { AGENTS_ENV, agentsConfig, exampleAgent, question } from "./agent.ts";

const [at, modelUrl, summarizerUrl, from, to] = process.argv.slice(2);
const session = await openSession(at, { format: "responses" });
const memory = new SafecutAgentsSession(session, agentsConfig(summarizerUrl), { env: AGENTS_ENV });
const agent = exampleAgent(modelUrl);
for (let r = Number(from); r < Number(to); r++) {
  await run(agent, question(r), { session: memory, maxTurns: 10 });
  process.stdout.write(`done ${r}\n`);
}
await memory.settle();
await session.close();
