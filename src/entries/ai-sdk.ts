// The `safecut/ai-sdk` entry: the AI SDK's `ModelMessage[]` read and written (the adapter) and
// compacted (the library's compactModelMessages and the compactBeforeStep `prepareStep` hook).

export {
  type ModelMessageOrigin,
  type ModelMessagesReading,
  readModelMessages,
  writeModelMessages,
} from "../adapters/ai-sdk.ts";
export {
  type BeforeStepOptions,
  compactBeforeStep,
  compactModelMessages,
  type PrepareStepMessages,
} from "../library/ai-sdk.ts";
