// The WebVTT file parser of the W3C spec ("WebVTT parser algorithm", https://www.w3.org/TR/webvtt1/#file-parsing),
// as far as translating a subtitle file needs it: which lines are cue text, and of which cue. What a browser
// reads as a cue is what is translated, and nothing else: a timing line, an identifier, a line the parser
// drops ("foo-->" between two cues), a NOTE, STYLE or REGION block is never cue text. Cues need no blank line
// between them, lines may end in CR, LF or CRLF, and a NUL reads as U+FFFD (tests/fixtures/webvtt holds the
// W3C web-platform-tests files this is checked against). Cue settings and regions are not interpreted:
// they stay in the file as written.

/** One cue as the parser reads it, with where its lines sit in `WebVtt.lines`. */
export interface WebVttCue {
  /** The cue identifier (the lines before the timing line, joined by LF); "" when there is none. */
  id: string;
  /** Start and end as written in the file ("00:01.000"). */
  start: string;
  end: string;
  /** Start and end in seconds. */
  startTime: number;
  endTime: number;
  /** The cue text: its lines joined by LF. */
  text: string;
  /** Index of the timing line in `lines`. */
  timingLine: number;
  /** Indexes of the cue text's lines in `lines`, in order. */
  textLines: number[];
}

export interface WebVtt {
  /** The file's lines after the parser's preprocessing (NUL to U+FFFD, CR and CRLF to LF, no BOM). */
  lines: string[];
  cues: WebVttCue[];
}

/** The spec's first step: a NUL becomes U+FFFD, CRLF and CR become LF. A UTF-8 BOM is dropped too (the decoder's part). */
export function preprocessWebVtt(input: string): string {
  return input
    .replace(/^\uFEFF/, "")
    .replace(/\0/g, "\uFFFD")
    .replace(/\r\n?/g, "\n");
}

/** ASCII whitespace of the spec: TAB, LF, FF, CR, SPACE (not the vertical tab). */
const isWhitespace = (c: string | undefined) => c === " " || c === "\t" || c === "\n" || c === "\f" || c === "\r";
const isDigit = (c: string | undefined) => c !== undefined && c >= "0" && c <= "9";

/** A cursor over one line, for the timing line's steps. */
class Scanner {
  position = 0;
  constructor(readonly input: string) {}
  /** The character at the position (a method, not a getter: TypeScript would keep a narrowed value). */
  char(): string | undefined {
    return this.input[this.position];
  }
  collect(test: (c: string | undefined) => boolean): string {
    const from = this.position;
    while (this.position < this.input.length && test(this.input[this.position])) this.position++;
    return this.input.slice(from, this.position);
  }
  skipWhitespace() {
    this.collect(isWhitespace);
  }
}

/** "Collect a WebVTT timestamp": seconds, or null on failure. */
function collectTimestamp(s: Scanner): number | null {
  let hoursFirst = false;
  if (!isDigit(s.char())) return null;
  const first = s.collect(isDigit);
  let value1 = Number(first);
  if (first.length !== 2 || value1 > 59) hoursFirst = true;
  if (s.char() !== ":") return null;
  s.position++;
  const second = s.collect(isDigit);
  if (second.length !== 2) return null;
  let value2 = Number(second);
  let value3: number;
  if (hoursFirst || s.char() === ":") {
    if (s.char() !== ":") return null;
    s.position++;
    const third = s.collect(isDigit);
    if (third.length !== 2) return null;
    value3 = Number(third);
  } else {
    value3 = value2;
    value2 = value1;
    value1 = 0;
  }
  if (s.char() !== ".") return null;
  s.position++;
  const fourth = s.collect(isDigit);
  if (fourth.length !== 3) return null;
  if (value2 > 59 || value3 > 59) return null;
  return value1 * 3600 + value2 * 60 + value3 + Number(fourth) / 1000;
}

/** "Collect WebVTT cue timings and settings", without interpreting the settings. Null on failure. */
function collectTimings(line: string): Pick<WebVttCue, "start" | "end" | "startTime" | "endTime"> | null {
  const s = new Scanner(line);
  s.skipWhitespace();
  const startAt = s.position;
  const startTime = collectTimestamp(s);
  if (startTime === null) return null;
  const start = line.slice(startAt, s.position);
  s.skipWhitespace();
  if (line.slice(s.position, s.position + 3) !== "-->") return null;
  s.position += 3;
  s.skipWhitespace();
  const endAt = s.position;
  const endTime = collectTimestamp(s);
  if (endTime === null) return null;
  return { start, end: line.slice(endAt, s.position), startTime, endTime };
}

/**
 * Parses a WebVTT file by the spec's algorithm. Null when it is not a WebVTT file (no "WEBVTT" signature
 * followed by the end, a space, a tab or a line break): a browser shows no cue of such a file.
 */
export function parseWebVtt(input: string): WebVtt | null {
  const text = preprocessWebVtt(input);
  if (text.length < 6 || !text.startsWith("WEBVTT")) return null;
  if (text.length > 6 && text[6] !== " " && text[6] !== "\t" && text[6] !== "\n") return null;
  const lines = text.split("\n");
  const cues: WebVttCue[] = [];
  // A position in the spec's terms is a line index here: line i is followed by a LF unless it is the last,
  // and the input is exhausted at the last line when that line is empty (the file ended with a LF).
  const pastEnd = (i: number) => i >= lines.length || (i === lines.length - 1 && lines[i] === "");

  /** "Collect a WebVTT block" from line `from`: the cue it is, if any, and the line after it. */
  const collectBlock = (from: number, inHeader: boolean): { cue: WebVttCue | null; next: number } => {
    let i = from;
    let lineCount = 0;
    let previous = i;
    let buffer = "";
    let bufferLines: number[] = [];
    let seenArrow = false;
    let cue: Omit<WebVttCue, "text" | "textLines"> | null = null;
    for (;;) {
      const at = i;
      const line = lines[i] ?? "";
      lineCount++;
      const seenEof = i >= lines.length - 1;
      i = seenEof ? lines.length : i + 1;
      if (line.includes("-->")) {
        if (!inHeader && (lineCount === 1 || (lineCount === 2 && !seenArrow))) {
          seenArrow = true;
          previous = i;
          const timings = collectTimings(line);
          cue = timings ? { id: buffer, ...timings, timingLine: at } : null;
          if (cue) {
            buffer = "";
            bufferLines = [];
          }
        } else {
          i = previous;
          break;
        }
      } else if (line === "") {
        break;
      } else {
        // (A STYLE or REGION block is recognised here in the spec; it never holds a cue, so it needs no state.)
        if (buffer !== "") buffer += "\n";
        buffer += line;
        bufferLines.push(at);
        previous = i;
      }
      if (seenEof) break;
    }
    return {
      cue: cue ? { ...cue, text: buffer, textLines: bufferLines } : null,
      next: i,
    };
  };

  const skipLineFeeds = (i: number) => {
    while (i < lines.length - 1 && lines[i] === "") i++;
    return i;
  };

  // The header: the signature line, then (unless a blank line follows) a block read in header mode.
  if (lines.length === 1) return { lines, cues };
  let i = 1;
  if (pastEnd(i)) return { lines, cues };
  if (lines[i] !== "") i = collectBlock(i, true).next;
  else i++;
  i = skipLineFeeds(i);
  while (!pastEnd(i)) {
    const block = collectBlock(i, false);
    if (block.cue) cues.push(block.cue);
    i = skipLineFeeds(block.next);
  }
  return { lines, cues };
}
