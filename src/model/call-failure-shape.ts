// The shape of one failed summarizer call (CallFailure) and the list of its kinds, apart so that
// the errors that carry one (errors.ts) and the code that builds one (call-failure.ts) both read
// it without importing each other. It holds declarations only, no behaviour: what a failure says
// and how it is built live in call-failure.ts.

/** How a call failed: an HTTP error answer, no answer in time, no connection, an answer over its size, an answer of the wrong shape, an abort, or a custom summarizer's own error. */
export const CALL_FAILURE_KINDS = [
  "http",
  "timeout",
  "network",
  "oversized-answer",
  "bad-answer",
  "aborted",
  "thrown",
] as const;

/** One of CALL_FAILURE_KINDS. */
export type CallFailureKind = (typeof CALL_FAILURE_KINDS)[number];

/** One failed summarizer call. */
export interface CallFailure {
  readonly kind: CallFailureKind;
  /** the summarizer's name: "openai", "anthropic", or a custom summarizer's */
  readonly provider: string;
  /** host[:port] the request went to, without credentials; absent for a custom summarizer */
  readonly host?: string;
  readonly model: string;
  /** the HTTP status of an error answer */
  readonly status?: number;
  /** the provider's error code (OpenAI `code`, else its `type`, e.g. invalid_api_key, authentication_error) */
  readonly code?: string;
  /** the provider's error message (or what failed), secrets masked, at most MESSAGE_CHARS characters */
  readonly message: string;
}
