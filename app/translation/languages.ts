/**
 * Catalogue of the languages Muselingo can show articles in and that museums
 * can write in. Plain data plus a few pure helpers, so it runs unchanged in the
 * Worker, in the browser bundle and in unit tests.
 */

import { M2M100_CODES, enginesServing, type EngineId } from "./engines/codes";

export type LanguageDirection = "ltr" | "rtl";

export type { EngineId } from "./engines/codes";

export interface Language {
  /** BCP 47 tag; the key used everywhere else (URLs, database, i18n). */
  code: string;
  /** Name in the language itself, shown in pickers so visitors recognise it. */
  endonym: string;
  fr: string;
  en: string;
  dir: LanguageDirection;
  /**
   * The engines that serve this language, in no particular order (the deployment's
   * TRANSLATION_ENGINES decides the order). LLM-backed engines serve every language.
   */
  engines: readonly EngineId[];
}

// Kept in code order by hand for readability; the exported list is re-sorted
// anyway so an insertion in the wrong place cannot break binary-ish lookups or UI.
const DATA: readonly Omit<Language, "engines">[] = [
  { code: "af", endonym: "Afrikaans", fr: "Afrikaans", en: "Afrikaans", dir: "ltr" },
  { code: "ak", endonym: "Akan", fr: "Akan", en: "Akan", dir: "ltr" },
  { code: "am", endonym: "አማርኛ", fr: "Amharique", en: "Amharic", dir: "ltr" },
  { code: "ar", endonym: "العربية", fr: "Arabe", en: "Arabic", dir: "rtl" },
  { code: "as", endonym: "অসমীয়া", fr: "Assamais", en: "Assamese", dir: "ltr" },
  { code: "ast", endonym: "Asturianu", fr: "Asturien", en: "Asturian", dir: "ltr" },
  { code: "ay", endonym: "Aymar aru", fr: "Aymara", en: "Aymara", dir: "ltr" },
  { code: "az", endonym: "Azərbaycanca", fr: "Azerbaïdjanais", en: "Azerbaijani", dir: "ltr" },
  { code: "ba", endonym: "Башҡортса", fr: "Bachkir", en: "Bashkir", dir: "ltr" },
  { code: "be", endonym: "Беларуская", fr: "Biélorusse", en: "Belarusian", dir: "ltr" },
  { code: "bg", endonym: "Български", fr: "Bulgare", en: "Bulgarian", dir: "ltr" },
  { code: "bm", endonym: "Bamanankan", fr: "Bambara", en: "Bambara", dir: "ltr" },
  { code: "bn", endonym: "বাংলা", fr: "Bengali", en: "Bengali", dir: "ltr" },
  { code: "bo", endonym: "བོད་སྐད་", fr: "Tibétain", en: "Tibetan", dir: "ltr" },
  { code: "br", endonym: "Brezhoneg", fr: "Breton", en: "Breton", dir: "ltr" },
  { code: "bs", endonym: "Bosanski", fr: "Bosnien", en: "Bosnian", dir: "ltr" },
  { code: "ca", endonym: "Català", fr: "Catalan", en: "Catalan", dir: "ltr" },
  { code: "ceb", endonym: "Cebuano", fr: "Cebuano", en: "Cebuano", dir: "ltr" },
  { code: "ckb", endonym: "کوردی", fr: "Kurde (sorani)", en: "Central Kurdish (Sorani)", dir: "rtl" },
  { code: "co", endonym: "Corsu", fr: "Corse", en: "Corsican", dir: "ltr" },
  { code: "cs", endonym: "Čeština", fr: "Tchèque", en: "Czech", dir: "ltr" },
  { code: "cy", endonym: "Cymraeg", fr: "Gallois", en: "Welsh", dir: "ltr" },
  { code: "da", endonym: "Dansk", fr: "Danois", en: "Danish", dir: "ltr" },
  { code: "de", endonym: "Deutsch", fr: "Allemand", en: "German", dir: "ltr" },
  { code: "dv", endonym: "ދިވެހި", fr: "Maldivien", en: "Dhivehi", dir: "rtl" },
  { code: "ee", endonym: "Eʋegbe", fr: "Éwé", en: "Ewe", dir: "ltr" },
  { code: "el", endonym: "Ελληνικά", fr: "Grec", en: "Greek", dir: "ltr" },
  { code: "en", endonym: "English", fr: "Anglais", en: "English", dir: "ltr" },
  { code: "eo", endonym: "Esperanto", fr: "Espéranto", en: "Esperanto", dir: "ltr" },
  { code: "es", endonym: "Español", fr: "Espagnol", en: "Spanish", dir: "ltr" },
  { code: "et", endonym: "Eesti", fr: "Estonien", en: "Estonian", dir: "ltr" },
  { code: "eu", endonym: "Euskara", fr: "Basque", en: "Basque", dir: "ltr" },
  { code: "fa", endonym: "فارسی", fr: "Persan", en: "Persian", dir: "rtl" },
  { code: "ff", endonym: "Fulfulde", fr: "Peul", en: "Fula", dir: "ltr" },
  { code: "fi", endonym: "Suomi", fr: "Finnois", en: "Finnish", dir: "ltr" },
  // Filipino is the standardised form of Tagalog; m2m100 calls it "tl".
  { code: "fil", endonym: "Filipino", fr: "Filipino", en: "Filipino", dir: "ltr" },
  { code: "fj", endonym: "Vosa Vakaviti", fr: "Fidjien", en: "Fijian", dir: "ltr" },
  { code: "fo", endonym: "Føroyskt", fr: "Féroïen", en: "Faroese", dir: "ltr" },
  { code: "fr", endonym: "Français", fr: "Français", en: "French", dir: "ltr" },
  { code: "frp", endonym: "Arpetan", fr: "Francoprovençal", en: "Franco-Provençal", dir: "ltr" },
  { code: "fy", endonym: "Frysk", fr: "Frison occidental", en: "Western Frisian", dir: "ltr" },
  { code: "ga", endonym: "Gaeilge", fr: "Irlandais", en: "Irish", dir: "ltr" },
  { code: "gd", endonym: "Gàidhlig", fr: "Gaélique écossais", en: "Scottish Gaelic", dir: "ltr" },
  { code: "gl", endonym: "Galego", fr: "Galicien", en: "Galician", dir: "ltr" },
  { code: "gn", endonym: "Avañe'ẽ", fr: "Guarani", en: "Guarani", dir: "ltr" },
  // ISO 639 has no code of its own for Alsatian; "gsw" (Alemannic) is the one
  // CLDR and the Alsatian Wikipedia use.
  { code: "gsw", endonym: "Elsässisch", fr: "Alsacien", en: "Alsatian", dir: "ltr" },
  { code: "gu", endonym: "ગુજરાતી", fr: "Gujarati", en: "Gujarati", dir: "ltr" },
  { code: "ha", endonym: "Hausa", fr: "Haoussa", en: "Hausa", dir: "ltr" },
  { code: "haw", endonym: "ʻŌlelo Hawaiʻi", fr: "Hawaïen", en: "Hawaiian", dir: "ltr" },
  { code: "he", endonym: "עברית", fr: "Hébreu", en: "Hebrew", dir: "rtl" },
  { code: "hi", endonym: "हिन्दी", fr: "Hindi", en: "Hindi", dir: "ltr" },
  { code: "hmn", endonym: "Hmoob", fr: "Hmong", en: "Hmong", dir: "ltr" },
  { code: "hr", endonym: "Hrvatski", fr: "Croate", en: "Croatian", dir: "ltr" },
  { code: "ht", endonym: "Kreyòl ayisyen", fr: "Créole haïtien", en: "Haitian Creole", dir: "ltr" },
  { code: "hu", endonym: "Magyar", fr: "Hongrois", en: "Hungarian", dir: "ltr" },
  { code: "hy", endonym: "Հայերեն", fr: "Arménien", en: "Armenian", dir: "ltr" },
  { code: "id", endonym: "Bahasa Indonesia", fr: "Indonésien", en: "Indonesian", dir: "ltr" },
  { code: "ig", endonym: "Igbo", fr: "Igbo", en: "Igbo", dir: "ltr" },
  { code: "ilo", endonym: "Ilokano", fr: "Ilocano", en: "Ilocano", dir: "ltr" },
  { code: "is", endonym: "Íslenska", fr: "Islandais", en: "Icelandic", dir: "ltr" },
  { code: "it", endonym: "Italiano", fr: "Italien", en: "Italian", dir: "ltr" },
  { code: "ja", endonym: "日本語", fr: "Japonais", en: "Japanese", dir: "ltr" },
  { code: "jv", endonym: "Basa Jawa", fr: "Javanais", en: "Javanese", dir: "ltr" },
  { code: "ka", endonym: "ქართული", fr: "Géorgien", en: "Georgian", dir: "ltr" },
  { code: "kab", endonym: "Taqbaylit", fr: "Kabyle", en: "Kabyle", dir: "ltr" },
  { code: "kk", endonym: "Қазақша", fr: "Kazakh", en: "Kazakh", dir: "ltr" },
  { code: "kl", endonym: "Kalaallisut", fr: "Groenlandais", en: "Greenlandic", dir: "ltr" },
  { code: "km", endonym: "ខ្មែរ", fr: "Khmer", en: "Khmer", dir: "ltr" },
  { code: "kn", endonym: "ಕನ್ನಡ", fr: "Kannada", en: "Kannada", dir: "ltr" },
  { code: "ko", endonym: "한국어", fr: "Coréen", en: "Korean", dir: "ltr" },
  // "ku" here means Kurmanji (Latin script); Sorani has its own tag, "ckb".
  { code: "ku", endonym: "Kurdî", fr: "Kurde (kurmandji)", en: "Kurdish (Kurmanji)", dir: "ltr" },
  { code: "kw", endonym: "Kernewek", fr: "Cornique", en: "Cornish", dir: "ltr" },
  { code: "ky", endonym: "Кыргызча", fr: "Kirghize", en: "Kyrgyz", dir: "ltr" },
  { code: "la", endonym: "Latina", fr: "Latin", en: "Latin", dir: "ltr" },
  { code: "lb", endonym: "Lëtzebuergesch", fr: "Luxembourgeois", en: "Luxembourgish", dir: "ltr" },
  { code: "lg", endonym: "Luganda", fr: "Ganda", en: "Ganda", dir: "ltr" },
  { code: "ln", endonym: "Lingála", fr: "Lingala", en: "Lingala", dir: "ltr" },
  { code: "lo", endonym: "ລາວ", fr: "Lao", en: "Lao", dir: "ltr" },
  { code: "lt", endonym: "Lietuvių", fr: "Lituanien", en: "Lithuanian", dir: "ltr" },
  { code: "lv", endonym: "Latviešu", fr: "Letton", en: "Latvian", dir: "ltr" },
  { code: "mg", endonym: "Malagasy", fr: "Malgache", en: "Malagasy", dir: "ltr" },
  { code: "mi", endonym: "Te reo Māori", fr: "Maori", en: "Māori", dir: "ltr" },
  { code: "mk", endonym: "Македонски", fr: "Macédonien", en: "Macedonian", dir: "ltr" },
  { code: "ml", endonym: "മലയാളം", fr: "Malayalam", en: "Malayalam", dir: "ltr" },
  { code: "mn", endonym: "Монгол", fr: "Mongol", en: "Mongolian", dir: "ltr" },
  { code: "mr", endonym: "मराठी", fr: "Marathi", en: "Marathi", dir: "ltr" },
  { code: "ms", endonym: "Bahasa Melayu", fr: "Malais", en: "Malay", dir: "ltr" },
  { code: "mt", endonym: "Malti", fr: "Maltais", en: "Maltese", dir: "ltr" },
  { code: "my", endonym: "မြန်မာ", fr: "Birman", en: "Burmese", dir: "ltr" },
  // m2m100 calls Norwegian "no"; its training data is overwhelmingly Bokmål.
  { code: "nb", endonym: "Norsk bokmål", fr: "Norvégien (bokmål)", en: "Norwegian Bokmål", dir: "ltr" },
  { code: "ne", endonym: "नेपाली", fr: "Népalais", en: "Nepali", dir: "ltr" },
  { code: "nl", endonym: "Nederlands", fr: "Néerlandais", en: "Dutch", dir: "ltr" },
  // Not routed to m2m100 "no": its output would be Bokmål, not Nynorsk.
  { code: "nn", endonym: "Norsk nynorsk", fr: "Norvégien (nynorsk)", en: "Norwegian Nynorsk", dir: "ltr" },
  // m2m100 calls Northern Sotho "ns", which is not a valid ISO 639 code.
  { code: "nso", endonym: "Sesotho sa Leboa", fr: "Sotho du Nord", en: "Northern Sotho", dir: "ltr" },
  { code: "ny", endonym: "Chichewa", fr: "Chichewa", en: "Chichewa", dir: "ltr" },
  { code: "oc", endonym: "Occitan", fr: "Occitan", en: "Occitan", dir: "ltr" },
  { code: "om", endonym: "Afaan Oromoo", fr: "Oromo", en: "Oromo", dir: "ltr" },
  { code: "or", endonym: "ଓଡ଼ିଆ", fr: "Odia", en: "Odia", dir: "ltr" },
  { code: "pa", endonym: "ਪੰਜਾਬੀ", fr: "Pendjabi", en: "Punjabi", dir: "ltr" },
  { code: "pap", endonym: "Papiamentu", fr: "Papiamento", en: "Papiamento", dir: "ltr" },
  { code: "pl", endonym: "Polski", fr: "Polonais", en: "Polish", dir: "ltr" },
  { code: "ps", endonym: "پښتو", fr: "Pachto", en: "Pashto", dir: "rtl" },
  { code: "pt", endonym: "Português", fr: "Portugais", en: "Portuguese", dir: "ltr" },
  { code: "qu", endonym: "Runa Simi", fr: "Quechua", en: "Quechua", dir: "ltr" },
  { code: "rm", endonym: "Rumantsch", fr: "Romanche", en: "Romansh", dir: "ltr" },
  { code: "rn", endonym: "Ikirundi", fr: "Kirundi", en: "Kirundi", dir: "ltr" },
  { code: "ro", endonym: "Română", fr: "Roumain", en: "Romanian", dir: "ltr" },
  { code: "ru", endonym: "Русский", fr: "Russe", en: "Russian", dir: "ltr" },
  { code: "rw", endonym: "Ikinyarwanda", fr: "Kinyarwanda", en: "Kinyarwanda", dir: "ltr" },
  { code: "sa", endonym: "संस्कृतम्", fr: "Sanskrit", en: "Sanskrit", dir: "ltr" },
  { code: "sc", endonym: "Sardu", fr: "Sarde", en: "Sardinian", dir: "ltr" },
  { code: "sd", endonym: "سنڌي", fr: "Sindhi", en: "Sindhi", dir: "rtl" },
  { code: "se", endonym: "Davvisámegiella", fr: "Same du Nord", en: "Northern Sami", dir: "ltr" },
  { code: "si", endonym: "සිංහල", fr: "Cingalais", en: "Sinhala", dir: "ltr" },
  { code: "sk", endonym: "Slovenčina", fr: "Slovaque", en: "Slovak", dir: "ltr" },
  { code: "sl", endonym: "Slovenščina", fr: "Slovène", en: "Slovenian", dir: "ltr" },
  { code: "sm", endonym: "Gagana Sāmoa", fr: "Samoan", en: "Samoan", dir: "ltr" },
  { code: "sn", endonym: "ChiShona", fr: "Shona", en: "Shona", dir: "ltr" },
  { code: "so", endonym: "Soomaali", fr: "Somali", en: "Somali", dir: "ltr" },
  { code: "sq", endonym: "Shqip", fr: "Albanais", en: "Albanian", dir: "ltr" },
  { code: "sr", endonym: "Српски", fr: "Serbe", en: "Serbian", dir: "ltr" },
  { code: "ss", endonym: "SiSwati", fr: "Swati", en: "Swati", dir: "ltr" },
  { code: "st", endonym: "Sesotho", fr: "Sotho du Sud", en: "Southern Sotho", dir: "ltr" },
  { code: "su", endonym: "Basa Sunda", fr: "Soundanais", en: "Sundanese", dir: "ltr" },
  { code: "sv", endonym: "Svenska", fr: "Suédois", en: "Swedish", dir: "ltr" },
  { code: "sw", endonym: "Kiswahili", fr: "Swahili", en: "Swahili", dir: "ltr" },
  { code: "ta", endonym: "தமிழ்", fr: "Tamoul", en: "Tamil", dir: "ltr" },
  // Telugu is absent from m2m100 despite its size.
  { code: "te", endonym: "తెలుగు", fr: "Télougou", en: "Telugu", dir: "ltr" },
  { code: "tg", endonym: "Тоҷикӣ", fr: "Tadjik", en: "Tajik", dir: "ltr" },
  { code: "th", endonym: "ไทย", fr: "Thaï", en: "Thai", dir: "ltr" },
  { code: "ti", endonym: "ትግርኛ", fr: "Tigrigna", en: "Tigrinya", dir: "ltr" },
  { code: "tk", endonym: "Türkmençe", fr: "Turkmène", en: "Turkmen", dir: "ltr" },
  { code: "tn", endonym: "Setswana", fr: "Tswana", en: "Tswana", dir: "ltr" },
  { code: "to", endonym: "Lea faka-Tonga", fr: "Tongien", en: "Tongan", dir: "ltr" },
  { code: "tr", endonym: "Türkçe", fr: "Turc", en: "Turkish", dir: "ltr" },
  { code: "ts", endonym: "Xitsonga", fr: "Tsonga", en: "Tsonga", dir: "ltr" },
  { code: "tt", endonym: "Татарча", fr: "Tatar", en: "Tatar", dir: "ltr" },
  { code: "ty", endonym: "Reo Tahiti", fr: "Tahitien", en: "Tahitian", dir: "ltr" },
  { code: "ug", endonym: "ئۇيغۇرچە", fr: "Ouïghour", en: "Uyghur", dir: "rtl" },
  { code: "uk", endonym: "Українська", fr: "Ukrainien", en: "Ukrainian", dir: "ltr" },
  { code: "ur", endonym: "اردو", fr: "Ourdou", en: "Urdu", dir: "rtl" },
  { code: "uz", endonym: "Oʻzbekcha", fr: "Ouzbek", en: "Uzbek", dir: "ltr" },
  { code: "vi", endonym: "Tiếng Việt", fr: "Vietnamien", en: "Vietnamese", dir: "ltr" },
  { code: "wo", endonym: "Wolof", fr: "Wolof", en: "Wolof", dir: "ltr" },
  { code: "xh", endonym: "isiXhosa", fr: "Xhosa", en: "Xhosa", dir: "ltr" },
  { code: "yi", endonym: "ייִדיש", fr: "Yiddish", en: "Yiddish", dir: "rtl" },
  { code: "yo", endonym: "Yorùbá", fr: "Yoruba", en: "Yoruba", dir: "ltr" },
  { code: "yue", endonym: "粵語", fr: "Cantonais", en: "Cantonese", dir: "ltr" },
  { code: "zgh", endonym: "ⵜⴰⵎⴰⵣⵉⵖⵜ", fr: "Amazighe standard marocain", en: "Standard Moroccan Tamazight", dir: "ltr" },
  // m2m100 "zh" produces Simplified characters, so Traditional needs its own
  // entry (Taiwan, Hong Kong and Macau visitors) and the LLM.
  { code: "zh", endonym: "中文（简体）", fr: "Chinois (simplifié)", en: "Chinese (Simplified)", dir: "ltr" },
  { code: "zh-Hant", endonym: "中文（繁體）", fr: "Chinois (traditionnel)", en: "Chinese (Traditional)", dir: "ltr" },
  { code: "zu", endonym: "isiZulu", fr: "Zoulou", en: "Zulu", dir: "ltr" },
];

// Plain code-unit order, so the result does not depend on the runtime's ICU data.
function compareCodes(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export const LANGUAGES: readonly Language[] = Object.freeze(
  [...DATA].sort((a, b) => compareCodes(a.code, b.code)).map((l) => Object.freeze({ ...l, engines: Object.freeze(enginesServing(l.code)) })),
);

export const LANGUAGE_CODES: readonly string[] = Object.freeze(LANGUAGES.map((l) => l.code));

const BY_LOWER_CODE: ReadonlyMap<string, Language> = new Map(LANGUAGES.map((l) => [l.code.toLowerCase(), l] as const));

/**
 * Tags that browsers or older systems send but that are spelled differently in
 * the catalogue. Keys are lowercase; values are catalogue codes.
 */
const TAG_ALIASES: ReadonlyMap<string, string> = new Map([
  // Deprecated ISO 639 codes still emitted by old Java/Android stacks.
  ["iw", "he"],
  ["in", "id"],
  ["ji", "yi"],
  // Macrolanguage / m2m100 spellings of entries the catalogue names differently.
  ["no", "nb"],
  ["tl", "fil"],
  // Browsers usually express Traditional Chinese by region, not by script.
  ["zh-tw", "zh-Hant"],
  ["zh-hk", "zh-Hant"],
  ["zh-mo", "zh-Hant"],
  ["zh-hans", "zh"],
  ["ku-arab", "ckb"],
]);

// Syntactic check only (RFC 5646 is far richer); enough to reject junk headers
// without refusing real-world tags such as "zh-Hant-TW" or "es-419".
const TAG_PATTERN = /^[a-z]{2,8}(?:-[a-z0-9]{1,8})*$/i;

/**
 * Catalogue codes a tag may stand for, most specific first, following the
 * RFC 4647 "lookup" truncation (drop trailing subtags, never end on a singleton).
 */
function lookupChain(tag: string): string[] {
  const normalized = tag.trim().replace(/_/g, "-").toLowerCase();
  if (!TAG_PATTERN.test(normalized)) return [];
  const parts = normalized.split("-");
  const chain: string[] = [];
  for (let n = parts.length; n >= 1; n--) {
    if (n > 1 && parts[n - 1]!.length === 1) continue;
    const prefix = parts.slice(0, n).join("-");
    for (const key of [prefix, TAG_ALIASES.get(prefix)?.toLowerCase()]) {
      if (key === undefined) continue;
      const lang = BY_LOWER_CODE.get(key);
      if (lang && !chain.includes(lang.code)) chain.push(lang.code);
    }
  }
  return chain;
}

export function findLanguage(code: string): Language | undefined {
  const first = lookupChain(code)[0];
  return first === undefined ? undefined : BY_LOWER_CODE.get(first.toLowerCase());
}

/**
 * The code to pass to Workers AI's m2m100 model, or undefined when m2m100 lacks
 * the language and another engine must serve it.
 */
export function m2m100Code(code: string): string | undefined {
  const lang = findLanguage(code);
  return lang ? M2M100_CODES.get(lang.code) : undefined;
}

export function languageLabel(code: string, uiLocale: "fr" | "en"): string {
  return findLanguage(code)?.[uiLocale] ?? code;
}

/** A picker's wording: the name in the interface language, then the endonym when it differs ("Allemand — Deutsch"). */
export function languageOptionLabel(code: string, uiLocale: "fr" | "en"): string {
  const label = languageLabel(code, uiLocale);
  const endonym = findLanguage(code)?.endonym ?? code;
  return label.toLowerCase() === endonym.toLowerCase() ? label : `${label} — ${endonym}`;
}

/** A staff picker's list: the catalogue (less `except`) in the interface language's alphabetical order. */
export function languagesByLabel(uiLocale: "fr" | "en", except?: string): Language[] {
  return LANGUAGES.filter((lang) => lang.code !== except).sort((a, b) =>
    languageLabel(a.code, uiLocale).localeCompare(languageLabel(b.code, uiLocale), uiLocale),
  );
}

// RFC 9110 allows at most three decimals; longer ones are accepted because some
// clients send them, but anything outside [0, 1] or not plainly decimal is not.
const QVALUE_PATTERN = /^(?:0(?:\.\d*)?|1(?:\.0*)?)$/;

interface Preference {
  tag: string;
  q: number;
  index: number;
}

function parseAcceptLanguage(header: string): Preference[] {
  const prefs: Preference[] = [];
  const entries = header.split(",");
  for (let index = 0; index < entries.length; index++) {
    const [rawTag = "", ...params] = entries[index]!.split(";");
    const tag = rawTag.trim();
    // Wildcards say nothing about which catalogue language to pick.
    if (tag === "" || tag === "*" || !TAG_PATTERN.test(tag)) continue;
    let q = 1;
    let valid = true;
    for (const param of params) {
      const match = /^\s*q\s*=\s*(.*?)\s*$/i.exec(param);
      if (!match) continue;
      const value = match[1] ?? "";
      if (!QVALUE_PATTERN.test(value)) {
        // A bad weight would otherwise default to 1 and jump the queue.
        valid = false;
        break;
      }
      q = Number(value);
    }
    if (valid) prefs.push({ tag, q, index });
  }
  return prefs;
}

/**
 * Best catalogue code for an Accept-Language header, optionally restricted to
 * the codes a given article or museum actually has.
 */
export function negotiateLanguage(acceptLanguage: string | null | undefined, available?: readonly string[]): string | undefined {
  if (!acceptLanguage) return undefined;
  const prefs = parseAcceptLanguage(acceptLanguage);

  let allowed: Set<string> | undefined;
  if (available) {
    allowed = new Set();
    for (const code of available) {
      const lang = findLanguage(code);
      if (lang) allowed.add(lang.code);
    }
  }

  // q=0 means "not acceptable": such a language must not come back in through
  // a more specific or a fallback tag (e.g. "fr-CA, fr;q=0").
  const refused = new Set<string>();
  for (const p of prefs) {
    if (p.q === 0) {
      const exact = BY_LOWER_CODE.get(p.tag.toLowerCase().replace(/_/g, "-"));
      if (exact) refused.add(exact.code);
    }
  }

  const ordered = prefs.filter((p) => p.q > 0).sort((a, b) => b.q - a.q || a.index - b.index);

  for (const p of ordered) {
    for (const code of lookupChain(p.tag)) {
      if (refused.has(code)) continue;
      if (allowed && !allowed.has(code)) continue;
      return code;
    }
  }
  return undefined;
}
