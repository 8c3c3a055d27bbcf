/**
 * Long articles for `scripts/editor-measure.ts`: `npx tsx scripts/editor-long.ts DIR [LANGUAGE…]`
 * asks `inkpress serve` of this tree on stories260K for one 5,000-word article per language (en,
 * de, fr and ja unless named) and writes each answer to DIR as `long-<language>.json`, in the form
 * `DIGESTS_ANSWERS` keeps, so `npx tsx scripts/editor-measure.ts DIR` measures them.
 */
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { API_KEY, MODEL, ROOT } from "./bench/common.js";
import { serve } from "./bench/checkout.js";

/** A request per language: a topic and keyword of its own, a seed of its own. */
const LONG: Record<string, { topic: string; keywords: string; seed: number }> = {
  en: { topic: "Growing tomatoes in pots", keywords: "tomato plants", seed: 50 },
  de: { topic: "Tomaten im Topf anbauen", keywords: "Tomatenpflanzen", seed: 51 },
  fr: { topic: "Cultiver des tomates en pot", keywords: "plants de tomates", seed: 52 },
  ja: { topic: "観葉植物の育て方", keywords: "観葉植物", seed: 53 },
};

const [dir, ...named] = process.argv.slice(2);
if (!dir) throw new Error("usage: npx tsx scripts/editor-long.ts DIR [LANGUAGE…]");
await mkdir(dir, { recursive: true });
const server = await serve(ROOT, ["--model", MODEL, "--threads", "1"]);
try {
  for (const language of named.length ? named : Object.keys(LONG)) {
    const { topic, keywords, seed } = LONG[language] ?? LONG.en!;
    const started = Date.now();
    const response = await fetch(`${server.url}/api/v1/generate`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json", "x-api-key": API_KEY },
      body: JSON.stringify({ topic, language, length: 5000, seed, seo: { keywords } }),
    });
    const text = await response.text();
    if (response.status !== 200) throw new Error(`${language}: status ${response.status}: ${text.slice(0, 300)}`);
    await writeFile(path.join(dir, `long-${language}.json`), text);
    console.log(`${language}: ${JSON.parse(text).article.wordCount} words in ${Math.round((Date.now() - started) / 1000)} s`);
  }
} finally {
  await server.stop();
}
