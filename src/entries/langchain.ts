// The `safecut/langchain` entry: the LangChain.js v1 agent middleware (compaction before each model
// call of a `createAgent` agent). Its declarations name `langchain` and `@langchain/core` types:
// only a project that has them imports it.

export { type LangChainMiddlewareOptions, safecutMiddleware } from "../library/langchain.ts";
