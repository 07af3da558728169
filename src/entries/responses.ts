// The `safecut/responses` entry: Responses API input items read and written (the adapter) and
// compacted (the library's compactResponsesItems).

export { type ResponsesReading, readResponsesItems, writeResponsesItems } from "../adapters/responses.ts";
export { compactResponsesItems } from "../library/responses.ts";
