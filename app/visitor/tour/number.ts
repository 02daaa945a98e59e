/**
 * The zero of each run of ten decimal digits a phone's numeric keyboard may type (Unicode `Nd`): ASCII,
 * Arabic-Indic, Extended Arabic-Indic (Persian, Urdu), Devanagari, Bengali, Gurmukhi, Gujarati, Oriya,
 * Tamil, Telugu, Kannada, Malayalam, Thai, Lao, Tibetan, Myanmar, Khmer, Mongolian, full-width.
 */
const ZEROS = [0x30, 0x660, 0x6f0, 0x966, 0x9e6, 0xa66, 0xae6, 0xb66, 0xbe6, 0xc66, 0xce6, 0xd66, 0xe50, 0xed0, 0xf20, 0x1040, 0x17e0, 0x1810, 0xff10];

function digitValue(char: string): number | null {
  const code = char.codePointAt(0)!;
  for (const zero of ZEROS) if (code >= zero && code <= zero + 9) return code - zero;
  return null;
}

/** Typed text longer than this is not a stop number (stop numbers are 1–9999; leading zeros and spaces allowed). */
const MAX_CHARS = 12;

/**
 * A stop number as typed on the keypad (decision 085): digits of any of the scripts above, spaces around
 * and inside ("12 3" is 123: a visitor copying "1 234"), leading zeros ignored. "invalid" for anything
 * else (letters, signs, an empty field); null for digits that cannot be a stop number (0, over 9999).
 */
export function parseStopNumber(raw: string): number | "invalid" | null {
  const text = raw.normalize("NFC").replace(/[\s\u00a0\u202f]+/gu, "");
  if (text === "" || [...raw].length > MAX_CHARS) return "invalid";
  let value = 0;
  for (const char of text) {
    const digit = digitValue(char);
    if (digit === null) return "invalid";
    value = value * 10 + digit;
  }
  return value >= 1 && value <= 9_999 ? value : null;
}
