// The agent helper-session.test.ts kills: `LOCATION KIND` runs runHelperAgent on the session at
// LOCATION through KIND's helper until it is killed, saying `step N` after each step.
import { writeSync } from "node:fs";
import { openSession } from "../../src/session/open.ts";
import { SMALL_CONFIG } from "./conversation.ts";
import { type HelperKind, runHelperAgent } from "./helper-turns.ts";

const [location, kind] = process.argv.slice(2) as [string, HelperKind];
const session = await openSession(location, { format: kind });
await runHelperAgent(kind, session, Number.MAX_SAFE_INTEGER, SMALL_CONFIG, (line) => writeSync(1, `${line}\n`));
