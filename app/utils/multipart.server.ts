import { DomainError } from "~/errors";

// A streaming multipart/form-data reader (RFC 7578): parts come one after the other and a file part's
// bytes are handed over chunk by chunk, so a 95 MB video never sits in memory whole. `request.formData()`
// would buffer the entire body first.

const HEADER_BLOCK_MAX = 8 * 1024;
const encoder = new TextEncoder();

export interface PartHeaders {
  name: string;
  /** Present (possibly "") for a file part; null for a plain field. */
  filename: string | null;
  contentType: string | null;
}

export const malformed = (detail: string) => new DomainError("invalid_input", `The multipart body is malformed: ${detail}`, undefined, "invalid");

/** The boundary of a `multipart/form-data` Content-Type, or null. */
export function multipartBoundary(contentType: string | null): string | null {
  if (!contentType) return null;
  const [type, ...params] = contentType.split(";");
  if (type!.trim().toLowerCase() !== "multipart/form-data") return null;
  for (const param of params) {
    const eq = param.indexOf("=");
    if (eq < 0 || param.slice(0, eq).trim().toLowerCase() !== "boundary") continue;
    let value = param.slice(eq + 1).trim();
    if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) value = value.slice(1, -1);
    // RFC 2046: 1 to 70 characters, none of them outside printable ASCII.
    return /^[\x20-\x7e]{1,70}$/.test(value) && !value.endsWith(" ") ? value : null;
  }
  return null;
}

function indexOf(haystack: Uint8Array, needle: Uint8Array, from = 0): number {
  const first = needle[0];
  const last = haystack.length - needle.length;
  outer: for (let i = from; i <= last; i++) {
    if (haystack[i] !== first) continue;
    for (let j = 1; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  if (a.length === 0) return b;
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

function parseHeaders(block: string): PartHeaders {
  let disposition: string | null = null;
  let contentType: string | null = null;
  for (const line of block.split("\r\n")) {
    if (line === "") continue;
    const colon = line.indexOf(":");
    if (colon <= 0) throw malformed("a part header has no name");
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (name === "content-disposition") disposition = value;
    else if (name === "content-type") contentType = value.split(";")[0]!.trim().toLowerCase();
  }
  if (!disposition || !/^form-data\s*(;|$)/i.test(disposition)) throw malformed("a part is not form-data");
  const params = new Map<string, string>();
  for (const match of disposition.matchAll(/;\s*([^=;\s]+)\s*=\s*("(?:[^"\\]|\\.)*"|[^;]*)/g)) {
    const raw = match[2]!.trim();
    params.set(match[1]!.toLowerCase(), raw.startsWith('"') ? raw.slice(1, -1).replace(/\\(.)/g, "$1") : raw);
  }
  const name = params.get("name");
  if (name === undefined) throw malformed("a part has no name");
  return { name, filename: params.get("filename") ?? null, contentType };
}

type State = "body" | "afterDelimiter" | "headers" | "end";

/**
 * Reads parts in order. `nextPart()` skips what is left of the current part; `readChunk()` gives the
 * current part's bytes until null. Past `maxBytes` of body in all it throws `tooLarge()`.
 */
export class MultipartReader {
  private buffer: Uint8Array;
  private state: State = "body"; // the preamble is read as the body of a part nobody asked for
  private eof = false;
  private total = 0;
  private readonly delimiter: Uint8Array;

  constructor(
    private readonly source: ReadableStreamDefaultReader<Uint8Array>,
    boundary: string,
    private readonly maxBytes: number,
    private readonly tooLarge: () => Error,
  ) {
    this.delimiter = encoder.encode(`\r\n--${boundary}`);
    // A leading CRLF lets the first delimiter match like every later one.
    this.buffer = encoder.encode("\r\n");
  }

  private async pull(): Promise<boolean> {
    if (this.eof) return false;
    const { done, value } = await this.source.read();
    if (done) {
      this.eof = true;
      return false;
    }
    this.total += value.byteLength;
    if (this.total > this.maxBytes) {
      await this.cancel();
      throw this.tooLarge();
    }
    this.buffer = concat(this.buffer, value);
    return true;
  }

  /** Stops reading; the source is let go (a `drainingBody` reads the rest instead of cancelling the request). */
  async cancel() {
    this.eof = true;
    await this.source.cancel().catch(() => {});
  }

  /** The next bytes of the current part, or null at its end. */
  async readChunk(): Promise<Uint8Array | null> {
    for (;;) {
      if (this.state !== "body") return null;
      const at = indexOf(this.buffer, this.delimiter);
      if (at >= 0) {
        const chunk = this.buffer.subarray(0, at);
        this.buffer = this.buffer.slice(at + this.delimiter.length);
        this.state = "afterDelimiter";
        return chunk.length > 0 ? chunk : null;
      }
      // Everything but a possible start of the delimiter can go.
      const safe = this.buffer.length - (this.delimiter.length - 1);
      if (safe > 0) {
        const chunk = this.buffer.slice(0, safe);
        this.buffer = this.buffer.slice(safe);
        return chunk;
      }
      if (!(await this.pull())) throw malformed("the body ends inside a part");
    }
  }

  /** The current part as UTF-8 text, or null when it is longer than `limit` bytes. */
  async readText(limit: number): Promise<string | null> {
    let bytes: Uint8Array = new Uint8Array(0);
    for (let chunk = await this.readChunk(); chunk; chunk = await this.readChunk()) {
      if (bytes.length + chunk.length > limit) return null;
      bytes = concat(bytes, chunk);
    }
    try {
      return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    } catch {
      throw malformed("a field is not UTF-8");
    }
  }

  /** The headers of the next part, or null after the closing delimiter. */
  async nextPart(): Promise<PartHeaders | null> {
    while (this.state === "body") await this.readChunk();
    if (this.state === "afterDelimiter") {
      // "--" closes the body; otherwise optional whitespace, then CRLF before the part's headers.
      while (this.buffer.length < 2 && (await this.pull()));
      if (this.buffer[0] === 0x2d && this.buffer[1] === 0x2d) {
        this.state = "end";
        await this.cancel(); // the epilogue is ignored
        return null;
      }
      for (;;) {
        let i = 0;
        while (i < this.buffer.length && (this.buffer[i] === 0x20 || this.buffer[i] === 0x09)) i++;
        if (i + 2 <= this.buffer.length) {
          if (this.buffer[i] !== 0x0d || this.buffer[i + 1] !== 0x0a) throw malformed("a delimiter is not followed by CRLF");
          this.buffer = this.buffer.slice(i + 2);
          break;
        }
        if (i > 256 || !(await this.pull())) throw malformed("the body ends after a delimiter");
      }
      this.state = "headers";
    }
    if (this.state === "end") return null;
    const end = encoder.encode("\r\n\r\n");
    for (;;) {
      // No header at all: the blank line comes at once.
      if (this.buffer[0] === 0x0d && this.buffer[1] === 0x0a) {
        this.buffer = this.buffer.slice(2);
        return this.startBody("");
      }
      const at = indexOf(this.buffer, end);
      if (at >= 0) {
        const block = new TextDecoder().decode(this.buffer.subarray(0, at));
        this.buffer = this.buffer.slice(at + end.length);
        return this.startBody(block);
      }
      if (this.buffer.length > HEADER_BLOCK_MAX) throw malformed("part headers are too long");
      if (!(await this.pull())) throw malformed("the body ends inside part headers");
    }
  }

  private startBody(block: string): PartHeaders {
    const headers = parseHeaders(block);
    this.state = "body";
    return headers;
  }
}
