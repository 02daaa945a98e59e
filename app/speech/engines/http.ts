import { SpeechEngineError, type SpeechEngineId } from "./types";

const retryableStatus = (status: number) => status === 408 || status === 425 || status === 429 || status >= 500;

/** A POST of JSON to a speech provider; the answer's body as bytes, or a SpeechEngineError without the address. */
export async function postForBytes(
  engine: SpeechEngineId,
  url: string,
  body: unknown,
  headers: Record<string, string>,
  signal: AbortSignal,
): Promise<{ bytes: Uint8Array; contentType: string }> {
  let response: Response;
  try {
    response = await fetch(url, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body), signal });
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    throw new SpeechEngineError(engine, `could not reach the server (${error instanceof Error ? error.message : "network error"})`, {
      retryable: true,
      cause: error,
    });
  }
  const bytes = new Uint8Array(await response.arrayBuffer());
  if (!response.ok) {
    const detail = new TextDecoder().decode(bytes.subarray(0, 400)).replace(/\s+/g, " ").trim().slice(0, 200);
    throw new SpeechEngineError(engine, `HTTP ${response.status}${detail ? `: ${detail}` : ""}`, {
      retryable: retryableStatus(response.status),
      status: response.status,
    });
  }
  return { bytes, contentType: response.headers.get("content-type") ?? "" };
}

/** Standard base64 (Google's `bytes` fields, Workers AI's `audio`) to bytes; throws on anything else. */
export function fromBase64(text: string): Uint8Array {
  const clean = text.replace(/\s+/g, "");
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(clean) || clean.length % 4 !== 0) throw new Error("not base64");
  const binary = atob(clean);
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

export const trimSlash = (url: string) => url.replace(/\/+$/, "");
