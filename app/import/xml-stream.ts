// A small streaming XML reader for the parts of a workbook (XLSX's sheet, shared strings and styles, ODS's
// content.xml): text goes in as it is inflated and decoded, events come out; memory holds one unfinished tag or
// text run, not the document. Elements are named by their local name (`x:c` and `c` are the same cell: tools
// differ in prefixes). No DOCTYPE (no workbook has one; it is where entity bombs live), no custom entities.
import { DomainError } from "~/errors";

export interface XmlHandler {
  open(name: string, attrs: Record<string, string>, selfClosing: boolean): void;
  close(name: string): void;
  text(text: string): void;
}

const ENTITIES: Record<string, string> = { lt: "<", gt: ">", amp: "&", quot: '"', apos: "'" };

export function decodeEntities(text: string): string {
  if (!text.includes("&")) return text;
  return text.replace(/&(#x[0-9a-fA-F]{1,6}|#[0-9]{1,7}|lt|gt|amp|quot|apos);/g, (whole, name: string) => {
    if (name[0] !== "#") return ENTITIES[name]!;
    const code = name[1] === "x" ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
    return code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? String.fromCodePoint(code) : whole;
  });
}

const localName = (name: string) => name.slice(name.indexOf(":") + 1);
const ATTRIBUTE = /([^\s=/>]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;

export class XmlStream {
  private buffer = "";
  /** Where the search for the end of the construct at the buffer's start resumes (it was not there before). */
  private searchFrom = 0;
  /** The quote an unfinished tag's scan stopped inside. */
  private quote = "";

  constructor(
    private readonly handler: XmlHandler,
    private readonly field: string,
  ) {}

  private unreadable(): DomainError {
    return new DomainError("invalid_input", "The spreadsheet could not be read: one of its parts is not well-formed XML", this.field, "invalid");
  }

  push(text: string) {
    this.buffer = this.buffer.length ? this.buffer + text : text;
    this.drain();
  }

  end() {
    this.drain();
    if (this.buffer.trim() !== "") throw this.unreadable();
    this.buffer = "";
  }

  private drain() {
    let at = 0;
    const b = this.buffer;
    for (;;) {
      if (at >= b.length) break;
      if (b[at] !== "<") {
        const next = b.indexOf("<", Math.max(at, this.searchFrom));
        if (next < 0) {
          this.searchFrom = b.length;
          break;
        }
        this.handler.text(decodeEntities(b.slice(at, next)));
        at = next;
        this.searchFrom = at;
        continue;
      }
      const end = this.constructEnd(b, at);
      if (end < 0) break;
      this.construct(b.slice(at, end));
      at = end;
      this.searchFrom = at;
    }
    this.buffer = b.slice(at);
    this.searchFrom = Math.max(0, this.searchFrom - at);
  }

  /** The index just past the construct starting at `at` (a `<`), or -1 while it is unfinished. */
  private constructEnd(b: string, at: number): number {
    const from = Math.max(at + 1, this.searchFrom);
    const closing = (marker: string) => {
      const i = b.indexOf(marker, Math.max(at + 1, this.searchFrom - marker.length));
      if (i < 0) this.searchFrom = b.length;
      return i < 0 ? -1 : i + marker.length;
    };
    const head = b.slice(at, at + 9);
    if (head.length < 9 && head.length > 1 && ("<![CDATA[".startsWith(head) || "<!--".startsWith(head))) return -1;
    if (b.startsWith("<?", at)) return closing("?>");
    if (b.startsWith("<!--", at)) return closing("-->");
    if (b.startsWith("<![CDATA[", at)) return closing("]]>");
    if (b.startsWith("<!", at)) throw this.unreadable(); // DOCTYPE or worse
    // A tag ends at the first `>` outside quotes; an unfinished tag's scan resumes where it stopped.
    let quote = this.searchFrom > at ? this.quote : "";
    for (let i = from; i < b.length; i++) {
      const c = b[i]!;
      if (quote) {
        if (c === quote) quote = "";
      } else if (c === '"' || c === "'") quote = c;
      else if (c === ">") {
        this.quote = "";
        return i + 1;
      } else if (c === "<") throw this.unreadable();
    }
    this.quote = quote;
    this.searchFrom = b.length;
    return -1;
  }

  private construct(c: string) {
    if (c.startsWith("<?") || c.startsWith("<!--")) return;
    if (c.startsWith("<![CDATA[")) return this.handler.text(c.slice(9, -3));
    if (c.startsWith("</")) {
      const name = c.slice(2, -1).trim();
      if (!name) throw this.unreadable();
      return this.handler.close(localName(name));
    }
    const selfClosing = c.endsWith("/>");
    const inner = c.slice(1, selfClosing ? -2 : -1);
    const space = inner.search(/[\s/]/);
    const name = space < 0 ? inner : inner.slice(0, space);
    if (!name) throw this.unreadable();
    const attrs: Record<string, string> = {};
    if (space >= 0) {
      const rest = inner.slice(space);
      ATTRIBUTE.lastIndex = 0;
      for (let m = ATTRIBUTE.exec(rest); m; m = ATTRIBUTE.exec(rest)) {
        attrs[localName(m[1]!)] = decodeEntities(m[2] ?? m[3] ?? "");
      }
    }
    this.handler.open(localName(name), attrs, selfClosing);
    if (selfClosing) this.handler.close(localName(name));
  }
}
