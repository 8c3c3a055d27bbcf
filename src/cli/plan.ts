import { writeFileAtomic } from "../atomic.js";
import path from "node:path";
import { defineCommand } from "citty";
import { acceptRequest, draftOutline } from "../article/index.js";
import { auditFolder } from "../audit/audit.js";
import { normaliseBasePath } from "../site/addresses.js";
import { resolveModelConfig } from "../config.js";
import { ModelRuntime } from "../model/runtime.js";
import { clusterKeywords, planSite, type Cluster } from "../planning/clusters.js";
import { placeLoneKeywords } from "../planning/embeddings.js";
import { readKeywordFile } from "../planning/keyword-file.js";
import { jsonlText, planRows, withOutlines, writeCsvPlan, type PlanRow } from "../planning/plan-file.js";
import { readSetting, settingArgs } from "../settings.js";
import { UsageError, fail } from "./fail.js";
import { interruption } from "./interrupt.js";

const { model: modelArg, ...MODEL_ARGS } = settingArgs("model", "threads", "gpu", "gpuLayers", "shutdownGrace");

/** `inkpress plan`: keywords grouped into a pillar and cluster articles, as a batch file `inkpress batch` writes as it is. */
export const planCommand = defineCommand({
  meta: {
    name: "plan",
    description: "Plan a topic cluster from a keyword CSV: a pillar and cluster articles with their links (and outlines), as a batch file",
  },
  args: {
    topic: { type: "string", description: "The seed topic (required)" },
    keywords: { type: "string", description: "A keyword CSV (keyword, volume, difficulty columns) (required)" },
    site: { type: "string", description: "The site's folder: a keyword one of its pages targets is not planned again" },
    "base-path": {
      type: "string",
      default: "/",
      description: "The path the articles are served under (/posts/ for Hugo's content/posts): each row's url and links use it",
    },
    language: { type: "string", default: "en", description: "ISO 639-1 code of the keywords (default en)" },
    length: {
      type: "string",
      description: "Words per article, written into every row, at least 200 per planned link and one more (default: batch's)",
    },
    output: {
      type: "string",
      alias: "o",
      description: "Write the batch file here (.jsonl, or .csv with its files beside it) instead of stdout",
    },
    ...MODEL_ARGS,
    model: {
      ...modelArg,
      description: "A GGUF model: each row gets the outline it would write from, and lone keywords are placed by its embeddings",
    },
    embeddings: {
      type: "boolean",
      default: true,
      description: "With --model, place lone keywords by its embeddings (--no-embeddings: keep the word groups, still outline each row)",
    },
  },
  async run({ args }) {
    const stop = interruption(readSetting("shutdownGrace", { flags: args }));
    try {
      if (!args.topic || !args.keywords) throw new UsageError("plan needs --topic and --keywords FILE.csv");
      if (args.output && !/\.(csv|jsonl|ndjson)$/iu.test(args.output)) throw new UsageError("plan writes a .csv or .jsonl batch file");
      const keywords = await readKeywordFile(args.keywords);
      const { signal } = stop;
      const basePath = normaliseBasePath(args["base-path"]);
      const existing = args.site
        ? (await auditFolder(args.site, { signal, basePath })).pages.flatMap((page) =>
            page.keyword ? [{ url: page.url, keyword: page.keyword }] : [],
          )
        : [];
      const options = { topic: args.topic, language: args.language };
      await using runtime = args.model
        ? await ModelRuntime.load({ ...resolveModelConfig({ flags: args }), sequences: 1, queueSize: 0 })
        : undefined;
      const lexical = clusterKeywords(keywords, options);
      const clusters = runtime && args.embeddings ? await placed(lexical, runtime) : lexical;
      const { articles, covered } = planSite(clusters, { ...options, existing, basePath });
      for (const { primary, page } of covered) process.stderr.write(`“${primary}” is covered by ${page}: not planned again\n`);
      let rows = planRows(articles, { language: args.language, ...(args.length ? { length: Number(args.length) } : {}) });
      if (runtime) rows = await outlined(rows, runtime, signal);
      process.stderr.write(
        `Planned ${articles.length} article${articles.length === 1 ? "" : "s"} (1 pillar) from ${counted(keywords.length, lexical)}\n`,
      );
      await writePlan(args.output, rows);
    } catch (error) {
      if (!stop.signal.aborted) fail(error);
      process.stderr.write("inkpress: plan interrupted; nothing was written\n");
      process.exitCode = 130;
    } finally {
      stop.dispose();
    }
  },
});

/** The clusters with lone keywords placed by the model's embeddings, each said on stderr. */
async function placed(clusters: Cluster[], runtime: ModelRuntime): Promise<Cluster[]> {
  const result = await placeLoneKeywords(clusters, (texts) => runtime.embeddings(texts));
  for (const p of result.lone) {
    const near = `nearest “${p.primary}” by embeddings (${p.similarity.toFixed(2)})`;
    process.stderr.write(
      `“${p.keyword}” shares no term with a group: ${p.joined ? `placed with it, ${near}` : `planned alone, ${near}`}\n`,
    );
  }
  return result.clusters;
}

/** How many keywords were read, and how many of them repeated another (case and spacing aside). */
function counted(read: number, clusters: readonly Cluster[]): string {
  const repeated = read - clusters.reduce((n, c) => n + c.keywords.length, 0);
  return `${read} keywords${repeated ? ` (${repeated} repeating another, planned once)` : ""}`;
}

/** The rows with an outline each, its cost said on stderr; the interruption's signal stops the draft in flight. */
async function outlined(rows: PlanRow[], runtime: ModelRuntime, signal: AbortSignal): Promise<PlanRow[]> {
  process.stderr.write(`Outlining ${rows.length} article${rows.length === 1 ? "" : "s"}…\n`);
  const result = await withOutlines(rows, (request) => draftOutline(acceptRequest(request), { backend: runtime, signal }));
  const seconds = (result.usage.durationMs / 1000).toFixed(1);
  process.stderr.write(`Outlined ${rows.length} articles: ${result.usage.completionTokens} tokens generated in ${seconds} s\n`);
  return result.rows;
}

async function writePlan(file: string | undefined, rows: PlanRow[]): Promise<void> {
  if (!file) process.stdout.write(jsonlText(rows));
  else if (path.extname(file).toLowerCase() === ".csv") await writeCsvPlan(file, rows);
  else await writeFileAtomic(file, jsonlText(rows), { userFile: true });
}
