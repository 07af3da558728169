// What a content part that is not text costs in tokens: an estimate per kind, as providers bill
// them, so that images, audio and files (screenshots, PDFs) never count as 0. Text parts are
// counted by the tokenizer elsewhere; this is for every other part of every format (OpenAI chat,
// Anthropic, AI SDK, Responses). The figures are in docs/settings.md, "Token counting".

/** An image of unknown size at full detail: Anthropic bills width*height/750 up to about 1,600 tokens (1.15 megapixels); OpenAI a 1024x1024 high-detail image 765. */
export const IMAGE_TOKENS = 1600;
/** An image sent with `detail: "low"` (OpenAI bills it a flat 85). */
export const IMAGE_LOW_DETAIL_TOKENS = 85;
/** One PDF page: Anthropic bills 1,500 to 3,000 tokens a page (its text plus an image of it). */
export const PDF_PAGE_TOKENS = 2000;
/** A file given by reference (file_id, URL) whose content is not in the conversation: one page. */
export const FILE_REFERENCE_TOKENS = PDF_PAGE_TOKENS;
/** Audio: about 10 tokens a second (OpenAI), a second being about 16,000 bytes of compressed audio. */
export const AUDIO_BYTES_PER_TOKEN = 1600;
/** Audio given by reference (no data in the conversation): a minute of it. */
export const AUDIO_REFERENCE_TOKENS = 600;
/** Other data and unknown parts: a token per 4 bytes or characters, as the character heuristic counts text. */
export const BYTES_PER_TOKEN = 4;

type Obj = { readonly [k: string]: unknown };

const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const strAt = (o: unknown, key: string): string | undefined => {
  const v = isObj(o) ? o[key] : undefined;
  return typeof v === "string" ? v : undefined;
};

/** Parts that carry no billed content of their own: earlier turns' reasoning, which the APIs drop from the prompt. */
const UNBILLED = new Set(["thinking", "redacted_thinking", "reasoning"]);

/** The inline data of a part (base64 or a data: URL), with its media type when it says one. */
function inlineData(part: Obj): { data: string; mediaType?: string } | undefined {
  const candidates = [
    strAt(part.image_url, "url") ?? strAt(part, "image_url"), // OpenAI chat image_url, Responses input_image
    strAt(part.input_audio, "data"), // OpenAI chat input_audio
    strAt(part.file, "file_data"), // OpenAI chat file
    strAt(part, "file_data"), // Responses input_file
    strAt(part.source, "data"), // Anthropic image/document
    strAt(part, "data"), // AI SDK file
    strAt(part, "image"), // AI SDK image
  ];
  const raw = candidates.find((c) => c !== undefined);
  if (raw === undefined) return undefined;
  const m = /^data:([^;,]*)[^,]*,/.exec(raw);
  if (m !== null) return { data: raw.slice(m[0].length), mediaType: m[1] };
  // a plain URL is a reference, not data
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(raw)) return undefined;
  const mediaType = strAt(part, "mediaType") ?? strAt(part.source, "media_type") ?? strAt(part, "mimeType");
  return mediaType === undefined ? { data: raw } : { data: raw, mediaType };
}

/** Bytes that base64 text of this length decodes to. */
const base64Bytes = (b64: string) => Math.floor((b64.length * 3) / 4);

/** Pages of a PDF given as base64 (its `/Type /Page` objects), 0 if none are found. */
function pdfPages(b64: string): number {
  const text = Buffer.from(b64, "base64").toString("latin1");
  return (text.match(/\/Type\s*\/Page(?![a-zA-Z])/g) ?? []).length;
}

/** What kind of media a part is, if any. */
function mediaKind(part: Obj): "image" | "audio" | "file" | undefined {
  const type = strAt(part, "type");
  const mediaType = strAt(part, "mediaType") ?? strAt(part.source, "media_type") ?? strAt(part, "mimeType") ?? "";
  if (type === "image_url" || type === "image" || type === "input_image") return "image";
  if (type === "input_audio") return "audio";
  if (type === "file" || type === "document" || type === "input_file") {
    if (mediaType.startsWith("image/")) return "image";
    if (mediaType.startsWith("audio/")) return "audio";
    return "file";
  }
  return undefined;
}

/**
 * Tokens of one content part that is not text: images IMAGE_TOKENS (IMAGE_LOW_DETAIL_TOKENS with
 * `detail: "low"`), audio a token per AUDIO_BYTES_PER_TOKEN bytes, a PDF PDF_PAGE_TOKENS a page,
 * a text document its characters / 4, other file data a token per BYTES_PER_TOKEN bytes, a file by
 * reference FILE_REFERENCE_TOKENS (audio AUDIO_REFERENCE_TOKENS), reasoning 0, and any other part its JSON text / 4. At least 1
 * for every part that is billed.
 */
export function partTokens(part: unknown): number {
  if (!isObj(part)) return Math.max(1, Math.ceil(JSON.stringify(part ?? null).length / BYTES_PER_TOKEN));
  const type = strAt(part, "type") ?? "";
  if (UNBILLED.has(type)) return 0;
  const kind = mediaKind(part);
  if (kind === undefined) return Math.max(1, Math.ceil(JSON.stringify(part).length / BYTES_PER_TOKEN));
  if (kind === "image") {
    const detail = strAt(part, "detail") ?? strAt(part.image_url, "detail");
    return detail === "low" ? IMAGE_LOW_DETAIL_TOKENS : IMAGE_TOKENS;
  }
  // an Anthropic text document holds its text itself
  if (strAt(part.source, "type") === "text") {
    return Math.max(1, Math.ceil((strAt(part.source, "data") ?? "").length / BYTES_PER_TOKEN));
  }
  const inline = inlineData(part);
  if (inline === undefined) return kind === "audio" ? AUDIO_REFERENCE_TOKENS : FILE_REFERENCE_TOKENS;
  const bytes = base64Bytes(inline.data);
  if (kind === "audio") return Math.max(1, Math.ceil(bytes / AUDIO_BYTES_PER_TOKEN));
  // base64 of "%PDF" (a data URL's media type may be missing or generic)
  const pages = inline.data.startsWith("JVBER") ? pdfPages(inline.data) : 0;
  if (pages > 0) return pages * PDF_PAGE_TOKENS;
  return Math.max(1, Math.ceil(bytes / BYTES_PER_TOKEN));
}

/** The sum of partTokens over parts (0 for none). */
export function partsTokens(parts: readonly unknown[]): number {
  let n = 0;
  for (const p of parts) n += partTokens(p);
  return n;
}

/** `{ mediaTokens: n }` for a message, or nothing when n is 0 (messages without media stay as they were). */
export function mediaField(n: number): { mediaTokens?: number } {
  return n > 0 ? { mediaTokens: n } : {};
}
