// Base URLs of the HTTP summarizers: which values are URLs at all (http:// or https://), and the
// one rule both providers follow to turn a base URL into the endpoint's URL, whether or not it
// names the API version (/v1) and even when it is already the endpoint's whole URL.

/** True when `value` is an absolute http:// or https:// URL. */
export function isHttpUrl(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const { protocol, hostname } = new URL(value);
  return (protocol === "http:" || protocol === "https:") && hostname !== "";
}

/** The API version segment a base URL may end with (/v1, /v2, ...). */
const VERSION = /\/v\d+$/;

/**
 * The URL to POST to for `endpoint` (e.g. "chat/completions", "messages"), given a base URL:
 * already ending with `/<endpoint>`, it is used as it is; ending with a version segment (`/v1`),
 * the endpoint is appended; otherwise `/v1/<endpoint>` is. A query string is kept.
 */
export function endpointUrl(base: string, endpoint: string): string {
  const u = new URL(base);
  const path = u.pathname.replace(/\/+$/, "");
  if (path.endsWith(`/${endpoint}`)) u.pathname = path;
  else if (VERSION.test(path)) u.pathname = `${path}/${endpoint}`;
  else u.pathname = `${path}/v1/${endpoint}`;
  return u.toString();
}
