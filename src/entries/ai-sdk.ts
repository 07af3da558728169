// The `safecut/ai-sdk` entry: the AI SDK's `ModelMessage[]` read and written (the adapter) and
// compacted (the library's compactModelMessages and the compactBeforeStep `prepareStep` hook; on a
// session, sessionBeforeStep). Its declarations name the `ai` package's types: only a project
// that has `ai` imports it.

export {
  type ModelMessageOrigin,
  type ModelMessagesReading,
  readModelMessages,
  writeModelMessages,
} from "../adapters/ai-sdk.ts";
export {
  asPrompt,
  type BeforeStepOptions,
  type CallPrompt,
  compactBeforeStep,
  compactModelMessages,
  type OverflowRetryOptions,
  overflowRetry,
  type PrepareStepMessages,
} from "../library/ai-sdk.ts";
export { type SessionHook, sessionBeforeStep } from "../session/ai-sdk-session.ts";
