/**
 * Catalogue of the languages Muselingo can show articles in and that museums
 * can write in. Plain data plus a few pure helpers, so it runs unchanged in the
 * Worker, in the browser bundle and in unit tests.
 */

export type LanguageDirection = "ltr" | "rtl";

/**
 * "workers-ai" languages go through Cloudflare's Meta M2M100 model, which is
 * cheap and fast; everything else needs a general-purpose LLM.
 */
export type TranslationEngineId = "workers-ai" | "llm";

export interface Language {
  /** BCP 47 tag; the key used everywhere else (URLs, database, i18n). */
  code: string;
  /** Name in the language itself, shown in pickers so visitors recognise it. */
  endonym: string;
  fr: string;
  en: string;
  dir: LanguageDirection;
  engine: TranslationEngineId;
}

// Kept in code order by hand for readability; the exported list is re-sorted
// anyway so an insertion in the wrong place cannot break binary-ish lookups or UI.
const DATA: readonly Language[] = [
  { code: "af", endonym: "Afrikaans", fr: "Afrikaans", en: "Afrikaans", dir: "ltr", engine: "workers-ai" },
  { code: "ak", endonym: "Akan", fr: "Akan", en: "Akan", dir: "ltr", engine: "llm" },
  { code: "am", endonym: "አማርኛ", fr: "Amharique", en: "Amharic", dir: "ltr", engine: "workers-ai" },
  { code: "ar", endonym: "العربية", fr: "Arabe", en: "Arabic", dir: "rtl", engine: "workers-ai" },
  { code: "as", endonym: "অসমীয়া", fr: "Assamais", en: "Assamese", dir: "ltr", engine: "llm" },
  { code: "ast", endonym: "Asturianu", fr: "Asturien", en: "Asturian", dir: "ltr", engine: "workers-ai" },
  { code: "ay", endonym: "Aymar aru", fr: "Aymara", en: "Aymara", dir: "ltr", engine: "llm" },
  { code: "az", endonym: "Azərbaycanca", fr: "Azerbaïdjanais", en: "Azerbaijani", dir: "ltr", engine: "workers-ai" },
  { code: "ba", endonym: "Башҡортса", fr: "Bachkir", en: "Bashkir", dir: "ltr", engine: "workers-ai" },
  { code: "be", endonym: "Беларуская", fr: "Biélorusse", en: "Belarusian", dir: "ltr", engine: "workers-ai" },
  { code: "bg", endonym: "Български", fr: "Bulgare", en: "Bulgarian", dir: "ltr", engine: "workers-ai" },
  { code: "bm", endonym: "Bamanankan", fr: "Bambara", en: "Bambara", dir: "ltr", engine: "llm" },
  { code: "bn", endonym: "বাংলা", fr: "Bengali", en: "Bengali", dir: "ltr", engine: "workers-ai" },
  { code: "bo", endonym: "བོད་སྐད་", fr: "Tibétain", en: "Tibetan", dir: "ltr", engine: "llm" },
  { code: "br", endonym: "Brezhoneg", fr: "Breton", en: "Breton", dir: "ltr", engine: "workers-ai" },
  { code: "bs", endonym: "Bosanski", fr: "Bosnien", en: "Bosnian", dir: "ltr", engine: "workers-ai" },
  { code: "ca", endonym: "Català", fr: "Catalan", en: "Catalan", dir: "ltr", engine: "workers-ai" },
  { code: "ceb", endonym: "Cebuano", fr: "Cebuano", en: "Cebuano", dir: "ltr", engine: "workers-ai" },
  { code: "ckb", endonym: "کوردی", fr: "Kurde (sorani)", en: "Central Kurdish (Sorani)", dir: "rtl", engine: "llm" },
  { code: "co", endonym: "Corsu", fr: "Corse", en: "Corsican", dir: "ltr", engine: "llm" },
  { code: "cs", endonym: "Čeština", fr: "Tchèque", en: "Czech", dir: "ltr", engine: "workers-ai" },
  { code: "cy", endonym: "Cymraeg", fr: "Gallois", en: "Welsh", dir: "ltr", engine: "workers-ai" },
  { code: "da", endonym: "Dansk", fr: "Danois", en: "Danish", dir: "ltr", engine: "workers-ai" },
  { code: "de", endonym: "Deutsch", fr: "Allemand", en: "German", dir: "ltr", engine: "workers-ai" },
  { code: "dv", endonym: "ދިވެހި", fr: "Maldivien", en: "Dhivehi", dir: "rtl", engine: "llm" },
  { code: "ee", endonym: "Eʋegbe", fr: "Éwé", en: "Ewe", dir: "ltr", engine: "llm" },
  { code: "el", endonym: "Ελληνικά", fr: "Grec", en: "Greek", dir: "ltr", engine: "workers-ai" },
  { code: "en", endonym: "English", fr: "Anglais", en: "English", dir: "ltr", engine: "workers-ai" },
  { code: "eo", endonym: "Esperanto", fr: "Espéranto", en: "Esperanto", dir: "ltr", engine: "llm" },
  { code: "es", endonym: "Español", fr: "Espagnol", en: "Spanish", dir: "ltr", engine: "workers-ai" },
  { code: "et", endonym: "Eesti", fr: "Estonien", en: "Estonian", dir: "ltr", engine: "workers-ai" },
  { code: "eu", endonym: "Euskara", fr: "Basque", en: "Basque", dir: "ltr", engine: "llm" },
  { code: "fa", endonym: "فارسی", fr: "Persan", en: "Persian", dir: "rtl", engine: "workers-ai" },
  { code: "ff", endonym: "Fulfulde", fr: "Peul", en: "Fula", dir: "ltr", engine: "workers-ai" },
  { code: "fi", endonym: "Suomi", fr: "Finnois", en: "Finnish", dir: "ltr", engine: "workers-ai" },
  // Filipino is the standardised form of Tagalog; m2m100 calls it "tl".
  { code: "fil", endonym: "Filipino", fr: "Filipino", en: "Filipino", dir: "ltr", engine: "workers-ai" },
  { code: "fj", endonym: "Vosa Vakaviti", fr: "Fidjien", en: "Fijian", dir: "ltr", engine: "llm" },
  { code: "fo", endonym: "Føroyskt", fr: "Féroïen", en: "Faroese", dir: "ltr", engine: "llm" },
  { code: "fr", endonym: "Français", fr: "Français", en: "French", dir: "ltr", engine: "workers-ai" },
  { code: "frp", endonym: "Arpetan", fr: "Francoprovençal", en: "Franco-Provençal", dir: "ltr", engine: "llm" },
  { code: "fy", endonym: "Frysk", fr: "Frison occidental", en: "Western Frisian", dir: "ltr", engine: "workers-ai" },
  { code: "ga", endonym: "Gaeilge", fr: "Irlandais", en: "Irish", dir: "ltr", engine: "workers-ai" },
  { code: "gd", endonym: "Gàidhlig", fr: "Gaélique écossais", en: "Scottish Gaelic", dir: "ltr", engine: "workers-ai" },
  { code: "gl", endonym: "Galego", fr: "Galicien", en: "Galician", dir: "ltr", engine: "workers-ai" },
  { code: "gn", endonym: "Avañe'ẽ", fr: "Guarani", en: "Guarani", dir: "ltr", engine: "llm" },
  // ISO 639 has no code of its own for Alsatian; "gsw" (Alemannic) is the one
  // CLDR and the Alsatian Wikipedia use.
  { code: "gsw", endonym: "Elsässisch", fr: "Alsacien", en: "Alsatian", dir: "ltr", engine: "llm" },
  { code: "gu", endonym: "ગુજરાતી", fr: "Gujarati", en: "Gujarati", dir: "ltr", engine: "workers-ai" },
  { code: "ha", endonym: "Hausa", fr: "Haoussa", en: "Hausa", dir: "ltr", engine: "workers-ai" },
  { code: "haw", endonym: "ʻŌlelo Hawaiʻi", fr: "Hawaïen", en: "Hawaiian", dir: "ltr", engine: "llm" },
  { code: "he", endonym: "עברית", fr: "Hébreu", en: "Hebrew", dir: "rtl", engine: "workers-ai" },
  { code: "hi", endonym: "हिन्दी", fr: "Hindi", en: "Hindi", dir: "ltr", engine: "workers-ai" },
  { code: "hmn", endonym: "Hmoob", fr: "Hmong", en: "Hmong", dir: "ltr", engine: "llm" },
  { code: "hr", endonym: "Hrvatski", fr: "Croate", en: "Croatian", dir: "ltr", engine: "workers-ai" },
  { code: "ht", endonym: "Kreyòl ayisyen", fr: "Créole haïtien", en: "Haitian Creole", dir: "ltr", engine: "workers-ai" },
  { code: "hu", endonym: "Magyar", fr: "Hongrois", en: "Hungarian", dir: "ltr", engine: "workers-ai" },
  { code: "hy", endonym: "Հայերեն", fr: "Arménien", en: "Armenian", dir: "ltr", engine: "workers-ai" },
  { code: "id", endonym: "Bahasa Indonesia", fr: "Indonésien", en: "Indonesian", dir: "ltr", engine: "workers-ai" },
  { code: "ig", endonym: "Igbo", fr: "Igbo", en: "Igbo", dir: "ltr", engine: "workers-ai" },
  { code: "ilo", endonym: "Ilokano", fr: "Ilocano", en: "Ilocano", dir: "ltr", engine: "workers-ai" },
  { code: "is", endonym: "Íslenska", fr: "Islandais", en: "Icelandic", dir: "ltr", engine: "workers-ai" },
  { code: "it", endonym: "Italiano", fr: "Italien", en: "Italian", dir: "ltr", engine: "workers-ai" },
  { code: "ja", endonym: "日本語", fr: "Japonais", en: "Japanese", dir: "ltr", engine: "workers-ai" },
  { code: "jv", endonym: "Basa Jawa", fr: "Javanais", en: "Javanese", dir: "ltr", engine: "workers-ai" },
  { code: "ka", endonym: "ქართული", fr: "Géorgien", en: "Georgian", dir: "ltr", engine: "workers-ai" },
  { code: "kab", endonym: "Taqbaylit", fr: "Kabyle", en: "Kabyle", dir: "ltr", engine: "llm" },
  { code: "kk", endonym: "Қазақша", fr: "Kazakh", en: "Kazakh", dir: "ltr", engine: "workers-ai" },
  { code: "kl", endonym: "Kalaallisut", fr: "Groenlandais", en: "Greenlandic", dir: "ltr", engine: "llm" },
  { code: "km", endonym: "ខ្មែរ", fr: "Khmer", en: "Khmer", dir: "ltr", engine: "workers-ai" },
  { code: "kn", endonym: "ಕನ್ನಡ", fr: "Kannada", en: "Kannada", dir: "ltr", engine: "workers-ai" },
  { code: "ko", endonym: "한국어", fr: "Coréen", en: "Korean", dir: "ltr", engine: "workers-ai" },
  // "ku" here means Kurmanji (Latin script); Sorani has its own tag, "ckb".
  { code: "ku", endonym: "Kurdî", fr: "Kurde (kurmandji)", en: "Kurdish (Kurmanji)", dir: "ltr", engine: "llm" },
  { code: "kw", endonym: "Kernewek", fr: "Cornique", en: "Cornish", dir: "ltr", engine: "llm" },
  { code: "ky", endonym: "Кыргызча", fr: "Kirghize", en: "Kyrgyz", dir: "ltr", engine: "llm" },
  { code: "la", endonym: "Latina", fr: "Latin", en: "Latin", dir: "ltr", engine: "llm" },
  { code: "lb", endonym: "Lëtzebuergesch", fr: "Luxembourgeois", en: "Luxembourgish", dir: "ltr", engine: "workers-ai" },
  { code: "lg", endonym: "Luganda", fr: "Ganda", en: "Ganda", dir: "ltr", engine: "workers-ai" },
  { code: "ln", endonym: "Lingála", fr: "Lingala", en: "Lingala", dir: "ltr", engine: "workers-ai" },
  { code: "lo", endonym: "ລາວ", fr: "Lao", en: "Lao", dir: "ltr", engine: "workers-ai" },
  { code: "lt", endonym: "Lietuvių", fr: "Lituanien", en: "Lithuanian", dir: "ltr", engine: "workers-ai" },
  { code: "lv", endonym: "Latviešu", fr: "Letton", en: "Latvian", dir: "ltr", engine: "workers-ai" },
  { code: "mg", endonym: "Malagasy", fr: "Malgache", en: "Malagasy", dir: "ltr", engine: "workers-ai" },
  { code: "mi", endonym: "Te reo Māori", fr: "Maori", en: "Māori", dir: "ltr", engine: "llm" },
  { code: "mk", endonym: "Македонски", fr: "Macédonien", en: "Macedonian", dir: "ltr", engine: "workers-ai" },
  { code: "ml", endonym: "മലയാളം", fr: "Malayalam", en: "Malayalam", dir: "ltr", engine: "workers-ai" },
  { code: "mn", endonym: "Монгол", fr: "Mongol", en: "Mongolian", dir: "ltr", engine: "workers-ai" },
  { code: "mr", endonym: "मराठी", fr: "Marathi", en: "Marathi", dir: "ltr", engine: "workers-ai" },
  { code: "ms", endonym: "Bahasa Melayu", fr: "Malais", en: "Malay", dir: "ltr", engine: "workers-ai" },
  { code: "mt", endonym: "Malti", fr: "Maltais", en: "Maltese", dir: "ltr", engine: "llm" },
  { code: "my", endonym: "မြန်မာ", fr: "Birman", en: "Burmese", dir: "ltr", engine: "workers-ai" },
  // m2m100 calls Norwegian "no"; its training data is overwhelmingly Bokmål.
  { code: "nb", endonym: "Norsk bokmål", fr: "Norvégien (bokmål)", en: "Norwegian Bokmål", dir: "ltr", engine: "workers-ai" },
  { code: "ne", endonym: "नेपाली", fr: "Népalais", en: "Nepali", dir: "ltr", engine: "workers-ai" },
  { code: "nl", endonym: "Nederlands", fr: "Néerlandais", en: "Dutch", dir: "ltr", engine: "workers-ai" },
  // Not routed to m2m100 "no": its output would be Bokmål, not Nynorsk.
  { code: "nn", endonym: "Norsk nynorsk", fr: "Norvégien (nynorsk)", en: "Norwegian Nynorsk", dir: "ltr", engine: "llm" },
  // m2m100 calls Northern Sotho "ns", which is not a valid ISO 639 code.
  { code: "nso", endonym: "Sesotho sa Leboa", fr: "Sotho du Nord", en: "Northern Sotho", dir: "ltr", engine: "workers-ai" },
  { code: "ny", endonym: "Chichewa", fr: "Chichewa", en: "Chichewa", dir: "ltr", engine: "llm" },
  { code: "oc", endonym: "Occitan", fr: "Occitan", en: "Occitan", dir: "ltr", engine: "workers-ai" },
  { code: "om", endonym: "Afaan Oromoo", fr: "Oromo", en: "Oromo", dir: "ltr", engine: "llm" },
  { code: "or", endonym: "ଓଡ଼ିଆ", fr: "Odia", en: "Odia", dir: "ltr", engine: "workers-ai" },
  { code: "pa", endonym: "ਪੰਜਾਬੀ", fr: "Pendjabi", en: "Punjabi", dir: "ltr", engine: "workers-ai" },
  { code: "pap", endonym: "Papiamentu", fr: "Papiamento", en: "Papiamento", dir: "ltr", engine: "llm" },
  { code: "pl", endonym: "Polski", fr: "Polonais", en: "Polish", dir: "ltr", engine: "workers-ai" },
  { code: "ps", endonym: "پښتو", fr: "Pachto", en: "Pashto", dir: "rtl", engine: "workers-ai" },
  { code: "pt", endonym: "Português", fr: "Portugais", en: "Portuguese", dir: "ltr", engine: "workers-ai" },
  { code: "qu", endonym: "Runa Simi", fr: "Quechua", en: "Quechua", dir: "ltr", engine: "llm" },
  { code: "rm", endonym: "Rumantsch", fr: "Romanche", en: "Romansh", dir: "ltr", engine: "llm" },
  { code: "rn", endonym: "Ikirundi", fr: "Kirundi", en: "Kirundi", dir: "ltr", engine: "llm" },
  { code: "ro", endonym: "Română", fr: "Roumain", en: "Romanian", dir: "ltr", engine: "workers-ai" },
  { code: "ru", endonym: "Русский", fr: "Russe", en: "Russian", dir: "ltr", engine: "workers-ai" },
  { code: "rw", endonym: "Ikinyarwanda", fr: "Kinyarwanda", en: "Kinyarwanda", dir: "ltr", engine: "llm" },
  { code: "sa", endonym: "संस्कृतम्", fr: "Sanskrit", en: "Sanskrit", dir: "ltr", engine: "llm" },
  { code: "sc", endonym: "Sardu", fr: "Sarde", en: "Sardinian", dir: "ltr", engine: "llm" },
  { code: "sd", endonym: "سنڌي", fr: "Sindhi", en: "Sindhi", dir: "rtl", engine: "workers-ai" },
  { code: "se", endonym: "Davvisámegiella", fr: "Same du Nord", en: "Northern Sami", dir: "ltr", engine: "llm" },
  { code: "si", endonym: "සිංහල", fr: "Cingalais", en: "Sinhala", dir: "ltr", engine: "workers-ai" },
  { code: "sk", endonym: "Slovenčina", fr: "Slovaque", en: "Slovak", dir: "ltr", engine: "workers-ai" },
  { code: "sl", endonym: "Slovenščina", fr: "Slovène", en: "Slovenian", dir: "ltr", engine: "workers-ai" },
  { code: "sm", endonym: "Gagana Sāmoa", fr: "Samoan", en: "Samoan", dir: "ltr", engine: "llm" },
  { code: "sn", endonym: "ChiShona", fr: "Shona", en: "Shona", dir: "ltr", engine: "llm" },
  { code: "so", endonym: "Soomaali", fr: "Somali", en: "Somali", dir: "ltr", engine: "workers-ai" },
  { code: "sq", endonym: "Shqip", fr: "Albanais", en: "Albanian", dir: "ltr", engine: "workers-ai" },
  { code: "sr", endonym: "Српски", fr: "Serbe", en: "Serbian", dir: "ltr", engine: "workers-ai" },
  { code: "ss", endonym: "SiSwati", fr: "Swati", en: "Swati", dir: "ltr", engine: "workers-ai" },
  { code: "st", endonym: "Sesotho", fr: "Sotho du Sud", en: "Southern Sotho", dir: "ltr", engine: "llm" },
  { code: "su", endonym: "Basa Sunda", fr: "Soundanais", en: "Sundanese", dir: "ltr", engine: "workers-ai" },
  { code: "sv", endonym: "Svenska", fr: "Suédois", en: "Swedish", dir: "ltr", engine: "workers-ai" },
  { code: "sw", endonym: "Kiswahili", fr: "Swahili", en: "Swahili", dir: "ltr", engine: "workers-ai" },
  { code: "ta", endonym: "தமிழ்", fr: "Tamoul", en: "Tamil", dir: "ltr", engine: "workers-ai" },
  // Telugu is absent from m2m100 despite its size.
  { code: "te", endonym: "తెలుగు", fr: "Télougou", en: "Telugu", dir: "ltr", engine: "llm" },
  { code: "tg", endonym: "Тоҷикӣ", fr: "Tadjik", en: "Tajik", dir: "ltr", engine: "llm" },
  { code: "th", endonym: "ไทย", fr: "Thaï", en: "Thai", dir: "ltr", engine: "workers-ai" },
  { code: "ti", endonym: "ትግርኛ", fr: "Tigrigna", en: "Tigrinya", dir: "ltr", engine: "llm" },
  { code: "tk", endonym: "Türkmençe", fr: "Turkmène", en: "Turkmen", dir: "ltr", engine: "llm" },
  { code: "tn", endonym: "Setswana", fr: "Tswana", en: "Tswana", dir: "ltr", engine: "workers-ai" },
  { code: "to", endonym: "Lea faka-Tonga", fr: "Tongien", en: "Tongan", dir: "ltr", engine: "llm" },
  { code: "tr", endonym: "Türkçe", fr: "Turc", en: "Turkish", dir: "ltr", engine: "workers-ai" },
  { code: "ts", endonym: "Xitsonga", fr: "Tsonga", en: "Tsonga", dir: "ltr", engine: "llm" },
  { code: "tt", endonym: "Татарча", fr: "Tatar", en: "Tatar", dir: "ltr", engine: "llm" },
  { code: "ty", endonym: "Reo Tahiti", fr: "Tahitien", en: "Tahitian", dir: "ltr", engine: "llm" },
  { code: "ug", endonym: "ئۇيغۇرچە", fr: "Ouïghour", en: "Uyghur", dir: "rtl", engine: "llm" },
  { code: "uk", endonym: "Українська", fr: "Ukrainien", en: "Ukrainian", dir: "ltr", engine: "workers-ai" },
  { code: "ur", endonym: "اردو", fr: "Ourdou", en: "Urdu", dir: "rtl", engine: "workers-ai" },
  { code: "uz", endonym: "Oʻzbekcha", fr: "Ouzbek", en: "Uzbek", dir: "ltr", engine: "workers-ai" },
  { code: "vi", endonym: "Tiếng Việt", fr: "Vietnamien", en: "Vietnamese", dir: "ltr", engine: "workers-ai" },
  { code: "wo", endonym: "Wolof", fr: "Wolof", en: "Wolof", dir: "ltr", engine: "workers-ai" },
  { code: "xh", endonym: "isiXhosa", fr: "Xhosa", en: "Xhosa", dir: "ltr", engine: "workers-ai" },
  { code: "yi", endonym: "ייִדיש", fr: "Yiddish", en: "Yiddish", dir: "rtl", engine: "workers-ai" },
  { code: "yo", endonym: "Yorùbá", fr: "Yoruba", en: "Yoruba", dir: "ltr", engine: "workers-ai" },
  { code: "yue", endonym: "粵語", fr: "Cantonais", en: "Cantonese", dir: "ltr", engine: "llm" },
  { code: "zgh", endonym: "ⵜⴰⵎⴰⵣⵉⵖⵜ", fr: "Amazighe standard marocain", en: "Standard Moroccan Tamazight", dir: "ltr", engine: "llm" },
  // m2m100 "zh" produces Simplified characters, so Traditional needs its own
  // entry (Taiwan, Hong Kong and Macau visitors) and the LLM.
  { code: "zh", endonym: "中文（简体）", fr: "Chinois (simplifié)", en: "Chinese (Simplified)", dir: "ltr", engine: "workers-ai" },
  { code: "zh-Hant", endonym: "中文（繁體）", fr: "Chinois (traditionnel)", en: "Chinese (Traditional)", dir: "ltr", engine: "llm" },
  { code: "zu", endonym: "isiZulu", fr: "Zoulou", en: "Zulu", dir: "ltr", engine: "workers-ai" },
];

// Plain code-unit order, so the result does not depend on the runtime's ICU data.
function compareCodes(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export const LANGUAGES: readonly Language[] = Object.freeze(
  [...DATA].sort((a, b) => compareCodes(a.code, b.code)).map((l) => Object.freeze({ ...l })),
);

export const LANGUAGE_CODES: readonly string[] = Object.freeze(LANGUAGES.map((l) => l.code));

const BY_LOWER_CODE: ReadonlyMap<string, Language> = new Map(
  LANGUAGES.map((l) => [l.code.toLowerCase(), l] as const),
);

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

/** Where m2m100's language code differs from the catalogue's BCP 47 code. */
const M2M100_OVERRIDES: ReadonlyMap<string, string> = new Map([
  ["nb", "no"],
  ["nso", "ns"],
  ["fil", "tl"],
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
 * The code to pass to Workers AI's m2m100 model, or undefined when the language
 * must go to the LLM engine instead.
 */
export function m2m100Code(code: string): string | undefined {
  const lang = findLanguage(code);
  if (!lang || lang.engine !== "workers-ai") return undefined;
  return M2M100_OVERRIDES.get(lang.code) ?? lang.code;
}

export function languageLabel(code: string, uiLocale: "fr" | "en"): string {
  return findLanguage(code)?.[uiLocale] ?? code;
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
export function negotiateLanguage(
  acceptLanguage: string | null | undefined,
  available?: readonly string[],
): string | undefined {
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

  const ordered = prefs
    .filter((p) => p.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);

  for (const p of ordered) {
    for (const code of lookupChain(p.tag)) {
      if (refused.has(code)) continue;
      if (allowed && !allowed.has(code)) continue;
      return code;
    }
  }
  return undefined;
}
