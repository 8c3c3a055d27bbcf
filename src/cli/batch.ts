import { defineCommand } from "citty";
import { LinkSet, slugify } from "../article/index.js";
import { readLinksFile } from "../site/links-file.js";
import { localWriter } from "../batch/local.js";
import { planBatch } from "../batch/plan.js";
import { offerQueries, STRIKING } from "../batch/queries.js";
import { localRefresher, planRefresh, runRefresh } from "../batch/refresh.js";
import { runBatch, type BatchSummary } from "../batch/run.js";
import { serverWriter } from "../batch/server.js";
import { ModelRuntime } from "../model/runtime.js";
import { BatchProgress } from "./batch-progress.js";
import { UsageError, fail } from "./fail.js";
import { localModelConfig } from "./first-model.js";
import { interruption } from "./interrupt.js";
import type { PublishOutcome } from "../contract/publish.js";
import type { WriteRow } from "../batch/run.js";
import type { Publishing } from "../publish/publisher.js";
import { readSetting, settingArgs, type SettingFlags } from "../settings.js";
import { REFRESH_TARGET_ARGS, refreshFields } from "./refresh.js";
import { PUBLISHING_SETTINGS, openPublishing } from "./publish.js";

/** Most articles at once: each is a model sequence or a job in flight. */
const MAX_CONCURRENCY = 64;

/** `inkpress batch`: one article per row of a CSV or JSONL file, resumable, on the local model or a server. */
export const batchCommand = defineCommand({
  meta: {
    name: "batch",
    description:
      "Write one article per row of a CSV or JSONL file into a folder, or refresh every Markdown file of a folder; run again to resume",
  },
  args: {
    input: {
      type: "positional",
      required: false,
      description: "CSV file (header row: the request fields) or JSONL file (one request per line)",
    },
    out: { type: "string", alias: "o", description: "Folder for the articles: <slug>.md (YAML front matter) and <slug>.json per row" },
    refresh: {
      type: "string",
      description: "Instead of rows: refresh every Markdown file under this folder, each written beside it as <slug>.refreshed.md",
    },
    "in-place": { type: "boolean", description: "With --refresh: replace each file, keeping the original as <file>.bak" },
    queries: {
      type: "string",
      description:
        "With --refresh: an export of queries by page; the queries a page ranks 8-20 for are offered to its refresh as secondary keywords",
    },
    only: {
      type: "string",
      description:
        "With --refresh: refresh only the pages an audit report's decay lists (inkpress audit --search-console --out), or a file of paths, one a line",
    },
    ...REFRESH_TARGET_ARGS,
    concurrency: {
      type: "string",
      default: "1",
      description: `Articles written at once, up to ${MAX_CONCURRENCY} (model sequences, or jobs in flight on the server)`,
    },
    links: {
      type: "string",
      description:
        "Pages every article may link: a sitemap.xml, or a CSV or JSONL file of url,title,keywords (a row never links its own url)",
    },
    h1: {
      type: "boolean",
      description:
        "Keep each article's # Title line under the front matter (site themes print the front matter's title, so by default it is not repeated)",
    },
    server: {
      type: "string",
      description: "URL of an inkpress server that writes the articles through its jobs API, instead of a local model",
    },
    key: { type: "string", description: "API key for --server (INKPRESS_API_KEY)" },
    "request-timeout": {
      type: "string",
      default: "30",
      description:
        "Seconds one request to --server may go unanswered before it is tried again; after 3 such tries in a row the batch stops",
    },
    publish: {
      type: "string",
      description: "Publish every article, once written, to this target (as a draft unless the target says otherwise)",
    },
    ...settingArgs("model", "threads", "window", "gpu", "gpuLayers", "shutdownGrace"),
    ...PUBLISHING_SETTINGS,
  },
  async run({ args, rawArgs }) {
    try {
      const concurrency = Number(args.concurrency);
      if (!/^\d+$/.test(args.concurrency) || concurrency < 1 || concurrency > MAX_CONCURRENCY) {
        throw new UsageError(`concurrency must be a whole number from 1 to ${MAX_CONCURRENCY}, got "${args.concurrency}"`);
      }
      if (args.refresh !== undefined) return await refreshBatch(args, rawArgs, concurrency);
      const refreshOnly = ["in-place", "only", "queries", ...Object.keys(REFRESH_TARGET_ARGS)].find(
        (name) => args[name] !== undefined && name !== "links",
      );
      if (refreshOnly) throw new UsageError(`--${refreshOnly} is for --refresh`);
      if (args.input === undefined) throw new UsageError("batch needs an input file (CSV or JSONL) and --out, or --refresh DIR");
      if (args.out === undefined) throw new UsageError("batch needs --out: the folder the articles are written to");
      const { input, out } = args;
      const server = serverOf(args);
      // The files first: a missing input is said before anything about the model.
      const links = args.links === undefined ? undefined : new LinkSet(await readLinksFile(args.links));
      const plan = await planBatch(input, out, { links });
      const progress = new BatchProgress();
      progress.plan(plan);
      if (plan.pending.length === 0)
        return finish(progress, {
          written: 0,
          skipped: plan.skipped,
          failed: plan.failed,
          duplicates: plan.duplicates,
          interrupted: false,
        });
      const model = server ? undefined : await localModelConfig(args);

      // Ctrl-C stops cleanly: finished rows are kept and recorded, the rows in flight are dropped.
      const stop = interruption(readSetting("shutdownGrace", { flags: args }));
      let runtime: ModelRuntime | undefined;
      let publishing: Publishing | undefined;
      try {
        if (model) {
          progress.loading(model.modelPath);
          runtime = await ModelRuntime.load({ ...model, sequences: concurrency, queueSize: 0 });
        }
        publishing = args.publish === undefined || server ? undefined : await openPublishing(args);
        publishing?.authorise(undefined, args.publish!);
        const write = publishingRows(
          args.publish,
          runtime ? localWriter(runtime, publishing) : serverWriter({ ...server!, onSlow: (message) => progress.note(message) }),
          (message) => progress.note(message),
        );
        progress.start();
        const summary = await runBatch(plan, {
          concurrency,
          write,
          h1: args.h1,
          signal: stop.signal,
          onWritten: (row, file) => progress.written(row, file),
          onFailed: (row) => progress.failed(row),
        });
        finish(progress, summary);
      } finally {
        progress.stop();
        await publishing?.close();
        stop.dispose();
        await runtime?.dispose();
      }
    } catch (error) {
      fail(error);
    }
  },
});

/** `batch --refresh DIR`: every Markdown file of the folder refreshed on the local model, resumable like rows. */
async function refreshBatch(
  args: Record<string, unknown> & { refresh?: string; "in-place"?: boolean; server?: string; input?: string; out?: string },
  rawArgs: string[],
  concurrency: number,
): Promise<void> {
  if (args.server !== undefined) throw new UsageError("--refresh runs on the local model; --server is for rows");
  if (args.publish !== undefined)
    throw new UsageError("--publish is for rows; publish a refreshed file with inkpress refresh FILE --publish TARGET");
  if (args.input !== undefined || args.out !== undefined)
    throw new UsageError("--refresh writes beside each file: it takes no input file and no --out");
  const plan = await planRefresh(args.refresh!, {
    inPlace: args["in-place"] === true,
    fields: await refreshFields(args, rawArgs),
    ...(typeof args.only === "string" ? { only: args.only } : {}),
  });
  const progress = new BatchProgress(process.stderr, { noun: "file", verb: "refresh", past: "refreshed" });
  if (typeof args.queries === "string") {
    const offered = await offerQueries(plan, args.queries);
    process.stderr.write(
      `${args.queries}: queries ranking ${STRIKING.from}-${STRIKING.to} offered to ${offered} of ${plan.pending.length} files\n`,
    );
  }
  progress.plan(plan);
  if (plan.pending.length === 0)
    return finish(progress, { written: 0, skipped: plan.skipped, failed: plan.failed, duplicates: [], interrupted: false });
  const model = await localModelConfig(args as SettingFlags);
  const stop = interruption(readSetting("shutdownGrace", { flags: args as SettingFlags }));
  let runtime: ModelRuntime | undefined;
  try {
    progress.loading(model.modelPath);
    runtime = await ModelRuntime.load({ ...model, sequences: concurrency, queueSize: 0 });
    progress.start();
    const summary = await runRefresh(plan, {
      concurrency,
      refresh: localRefresher(runtime),
      signal: stop.signal,
      onWritten: (item, file) => progress.written(item, file),
      onFailed: (bad) => progress.failed(bad),
    });
    finish(progress, summary);
  } finally {
    progress.stop();
    stop.dispose();
    await runtime?.dispose();
  }
}

/**
 * With `--publish`, each row's request publishes to the target under a slug of its topic: an
 * article written again after a crash (its seed drawn anew, so another title) still finds its
 * post, never a second one. A publish failure is noted; the row's files are kept.
 */
function publishingRows(target: string | undefined, write: WriteRow, note: (message: string) => void): WriteRow {
  if (target === undefined) return write;
  return async (row, signal) => {
    const response = await write({ ...row, request: { ...row.request, publish: { target, slug: slugify(row.request.topic) } } }, signal);
    const outcome = (response as { publish?: PublishOutcome }).publish;
    if (outcome && "problem" in outcome) note(`line ${row.line}: not published: ${outcome.problem.detail}`);
    return response;
  };
}

/** The server of `--server`, with its key and request time limit; undefined for the local model. */
function serverOf(args: {
  server?: string;
  key?: string;
  model?: string;
  "request-timeout": string;
}): { url: string; key: string; requestTimeoutMs: number } | undefined {
  const timeout = args["request-timeout"];
  if (!/^\d+(\.\d+)?$/.test(timeout) || !(Number(timeout) > 0))
    throw new UsageError(`request-timeout must be a number of seconds above 0, got "${timeout}"`);
  if (args.server === undefined) {
    if (args.key !== undefined) throw new UsageError("--key is for --server");
    return undefined;
  }
  if (args.model !== undefined) throw new UsageError("--model and --server exclude each other: the server writes with its own model");
  const port = /^https?:\/\/(?:\[[^\]]*\]|[^/:]*):(\d+)/i.exec(args.server)?.[1];
  if (port && Number(port) > 65_535) throw new UsageError(`server ${args.server}: port ${port} is out of range (at most 65535)`);
  if (!/^https?:\/\/[^/]/i.test(args.server) || !URL.canParse(args.server))
    throw new UsageError(`server must be an http:// or https:// URL, got "${args.server}"`);
  const key = args.key ?? (process.env.INKPRESS_API_KEY || undefined);
  if (!key) throw new UsageError("--server needs an API key: --key KEY or INKPRESS_API_KEY");
  return { url: args.server, key, requestTimeoutMs: Number(timeout) * 1000 };
}

/** The summary, and the exit code: 130 when interrupted, 1 when a row failed (a duplicate row is no failure). */
function finish(progress: BatchProgress, summary: BatchSummary): void {
  progress.summary(summary);
  process.exitCode = summary.interrupted ? 130 : summary.failed.length ? 1 : 0;
}
