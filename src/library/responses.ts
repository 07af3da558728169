// The Responses API's compaction entry (`safecut/responses`): compact a `ResponseInputItem[]`.
// The format itself (reading and writing the items) is the adapter's, src/adapters/responses.ts.
import type { ResponseInputItem } from "openai/resources/responses/responses";
import { readResponsesItems, writeResponsesItems } from "../adapters/responses.ts";
import { parseConfig } from "../engine/boundary/config-rules.ts";
import type { CompactionReport } from "../engine/run/report.ts";
import type { Config, ConfigInput } from "../model/config.ts";
import { compactItems } from "./compact-items.ts";
import type { CompactMessagesOptions } from "./compact-messages.ts";

/** Compacts Responses input items; `retention_window` and the report's positions count these items. */
export async function compactResponsesItems(
  input: readonly ResponseInputItem[],
  config: ConfigInput | Config = {},
  options: CompactMessagesOptions = {},
): Promise<{ input: ResponseInputItem[]; report: CompactionReport }> {
  const r = await compactItems(
    parseConfig(config),
    options,
    (tag) => readResponsesItems(input, "input", { summaryTag: tag }),
    (ms, reading, tag) => writeResponsesItems(ms, reading, { summaryTag: tag }),
  );
  return { input: r.items, report: r.report };
}
