import { writeFile } from "node:fs/promises";
import { defineCommand } from "citty";
import { LINKING } from "../article/index.js";
import { auditFolder } from "../audit/audit.js";
import { clusterKeywords, planSite } from "../planning/clusters.js";
import { readKeywordFile } from "../planning/keyword-file.js";
import { UsageError, fail } from "./fail.js";

/** `inkpress plan`: keywords grouped into a pillar and cluster articles, as a JSONL batch file `inkpress batch` writes as it is. */
export const planCommand = defineCommand({
  meta: {
    name: "plan",
    description: "Plan a topic cluster from a keyword CSV: a pillar and cluster articles with their links, as a batch file (JSONL)",
  },
  args: {
    topic: { type: "string", description: "The seed topic (required)" },
    keywords: { type: "string", description: "A keyword CSV (keyword, volume, difficulty columns) (required)" },
    site: { type: "string", description: "The site's folder: a keyword one of its pages targets is not planned again" },
    language: { type: "string", default: "en", description: "ISO 639-1 code of the keywords (default en)" },
    length: {
      type: "string",
      description: "Words per article, written into every row, at least 200 per planned link and one more (default: batch's)",
    },
    output: { type: "string", alias: "o", description: "Write the batch file here instead of stdout" },
  },
  async run({ args }) {
    try {
      if (!args.topic || !args.keywords) throw new UsageError("plan needs --topic and --keywords FILE.csv");
      const keywords = await readKeywordFile(args.keywords);
      const existing = args.site
        ? (await auditFolder(args.site)).pages.flatMap((page) => (page.keyword ? [{ url: page.url, keyword: page.keyword }] : []))
        : [];
      const { articles, covered } = planSite(clusterKeywords(keywords, { topic: args.topic, language: args.language }), {
        topic: args.topic,
        language: args.language,
        existing,
      });
      for (const { primary, page } of covered) process.stderr.write(`“${primary}” is covered by ${page}: not planned again\n`);
      const rows = articles.map(({ topic, keywords: list, url, links }) => {
        // Room for every planned link: an article places about one per LINKING.wordsPerLink words.
        const length = args.length ? { length: Math.max(Number(args.length), LINKING.wordsPerLink * (links.length + 1)) } : {};
        return JSON.stringify({ topic, keywords: list.join(", "), url, language: args.language, ...length, links });
      });
      const text = rows.map((row) => `${row}\n`).join("");
      process.stderr.write(`Planned ${articles.length} articles (1 pillar) from ${keywords.length} keywords\n`);
      if (args.output) await writeFile(args.output, text);
      else process.stdout.write(text);
    } catch (error) {
      fail(error);
    }
  },
});
