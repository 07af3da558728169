// The Responses API's compaction entry (`safecut/responses`): compact a `ResponseInputItem[]`.
// The format itself (reading and writing the items) is the adapter's, src/adapters/responses.ts.
import type { ResponseInputItem } from "openai/resources/responses/responses";
import { readResponsesItems, writeResponsesItems } from "../adapters/responses.ts";
import { parseConfig } from "../engine/boundary/config-rules.ts";
import type { CompactionReport } from "../engine/run/report.ts";
import type { Config, ConfigInput } from "../model/config.ts";
import type { Json } from "../model/json.ts";
import { assertMessageList } from "./compact-messages.ts";
import { compactReading } from "./compact-reading.ts";
import { withProviderBytes } from "./overflow-retry.ts";
import { compactOnSession, type WireOptions } from "./session-option.ts";

/**
 * Compacts Responses input items; `retention_window` and the report's positions count these items.
 * With the `session` option, as compactOpenAIMessages: `input` is the agent's whole history as it
 * holds it, the new items are appended to the session, and the input returned is its context.
 * With max_request_bytes unset, OpenAI's documented request size is the byte budget.
 */
export async function compactResponsesItems(
  input: readonly ResponseInputItem[],
  config: ConfigInput | Config = {},
  options: WireOptions = {},
): Promise<{ input: ResponseInputItem[]; report: CompactionReport }> {
  // the Responses API is OpenAI's: its documented request size is the byte budget when unset
  const c = withProviderBytes(parseConfig(config), "openai");
  if (options.session !== undefined) {
    assertMessageList(input, "input");
    const items = input as unknown as readonly Json[];
    const r = await compactOnSession(
      "compactResponsesItems",
      "responses",
      { items, pathOf: (i) => `input[${i}]` },
      c,
      options,
    );
    return { input: r.context as unknown as ResponseInputItem[], report: r.report };
  }
  const tag = c.summary_tag;
  const reading = readResponsesItems(input, "input", { summaryTag: tag });
  const r = await compactReading(
    { ...reading, write: (ms) => writeResponsesItems(ms, reading, { summaryTag: tag }) },
    c,
    options,
  );
  return { input: r.written, report: r.report };
}
