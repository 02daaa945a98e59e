// `npm run bench:size` (second part): what a new language costs in engine input, per article and per museum,
// counted on the same generated museum as tests/bench/d1-size.mjs (same seed, same articles, the app's own
// segmentation and the engines' own batch limits). Prices are applied in docs/scaling.md, with sources.
// Options: --articles --words --json
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { importBundled } from "./bundle.mjs";
import { parseOptions } from "../../scripts/lib.mjs";

const { values: args } = parseOptions(process.argv.slice(2), { articles: "string", words: "string", json: "boolean" });
const ARTICLES = Number(args.articles ?? 300);
const WORDS = Number(args.words ?? 350);
for (const [name, value] of [
  ["articles", ARTICLES],
  ["words", WORDS],
]) {
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} must be a positive whole number`);
}

const work = mkdtempSync(join(tmpdir(), "muselingo-chars-"));
try {
  const museum = await importBundled("tests/bench/d1-size-museum.ts", work, "museum");
  const rand = museum.random(20261123); // the seed of d1-size.mjs: the same articles
  const articles = [];
  for (let i = 0; i < ARTICLES; i++) articles.push(await museum.generateArticle(rand, i, WORDS));

  const per = (lang) => {
    const loads = articles.map((a) =>
      museum.engineLoad(
        a.segments.map((s) => s.source),
        "fr",
        lang,
      ),
    );
    const mean = (key) => loads.reduce((s, l) => s + l[key], 0) / loads.length;
    return {
      billed: mean("billed"),
      deeplRequests: mean("deeplRequests"),
      googleRequests: mean("googleRequests"),
      m2m100Calls: mean("m2m100Calls"),
      llmCalls: mean("llmCalls"),
      llmPromptChars: mean("llmPromptChars"),
    };
  };
  const distinct = new Map();
  for (const a of articles) for (const s of a.segments) distinct.set(s.hash, s.source);
  const museumLoad = museum.engineLoad([...distinct.values()], "fr", "en");
  const segmentChars = [...distinct.values()].map((s) => museum.codePoints(s)).sort((a, b) => a - b);
  const result = {
    articles: ARTICLES,
    wordsPerArticle: WORDS,
    perArticle: { en: per("en"), ja: per("ja") },
    perMuseum: { distinctSegments: distinct.size, billed: museumLoad.billed, llmPromptChars: museumLoad.llmPromptChars, llmCalls: museumLoad.llmCalls },
    segmentChars: { median: segmentChars[Math.floor(segmentChars.length / 2)], max: segmentChars.at(-1) },
  };
  if (args.json) console.log(JSON.stringify(result, null, 2));
  else {
    const a = result.perArticle.en;
    console.log(`\nEngine input for one new language (${ARTICLES} generated articles of about ${WORDS} words):`);
    console.log(
      `  per article: ${Math.round(a.billed)} characters billed by DeepL/Google (${a.deeplRequests.toFixed(1)} DeepL request(s), ${a.googleRequests.toFixed(1)} Google),` +
        ` ${a.m2m100Calls.toFixed(1)} m2m100 calls, ${a.llmCalls.toFixed(1)} LLM calls sending ${Math.round(a.llmPromptChars)} prompt characters`,
    );
    console.log(
      `  per museum: ${distinct.size} distinct segments, ${museumLoad.billed} characters billed, LLM ${museumLoad.llmPromptChars} prompt characters in ${museumLoad.llmCalls} calls`,
    );
    console.log(`  one segment (what an edit re-translates): median ${result.segmentChars.median} characters, longest ${result.segmentChars.max}`);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
