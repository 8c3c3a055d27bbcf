import { fileVersion, writeFileAtomic } from "../atomic.js";
import path from "node:path";
import { defineCommand } from "citty";
import { splitList } from "../contract/fields.js";
import { readLinksFile } from "../site/links-file.js";
import { readSourceFiles } from "../site/source-files.js";
import { ModelRuntime } from "../model/runtime.js";
import { refreshFile, refreshRequestOf, type RefreshFields } from "../refresh/file.js";
import { MEND_PARTS, type RefreshResponse } from "../contract/refresh.js";
import { recordedPostId } from "../publish/post.js";
import { withPostRecorded } from "../publish/record.js";
import { settingArgs } from "../settings.js";
import { chosenFormat, fail } from "./fail.js";
import { localModelConfig } from "./first-model.js";
import { LOCAL_OWNER } from "../publish/ownership.js";
import { PUBLISHING_SETTINGS, publishingTo, recordPublished } from "./publish.js";
import { repeatedFlag } from "./repeated.js";

/** Output formats of `inkpress refresh`. */
const FORMATS = ["md", "json", "diff"] as const;

/** The targets `refresh` and `batch --refresh` take as flags, over each file's front matter. */
export const REFRESH_TARGET_ARGS = {
  keywords: { type: "string", description: "Comma-separated keywords, over the front matter's; the first is primary" },
  language: { type: "string", description: "ISO 639-1 code, over the front matter's (detected when neither names one)" },
  length: { type: "string", description: "Words the article should have: a shorter one is extended towards it" },
  structure: { type: "string", description: "The article's structure, as for generate (default sections)" },
  avoid: { type: "string", description: "A phrase the article must not hold; repeat the flag, or separate phrases with ;" },
  links: { type: "string", description: "Pages to link where sentences fit: a sitemap (.xml), .csv (url,title,keywords) or .jsonl file" },
  source: { type: "string", description: "A text or Markdown file to cite where a sentence restates it; repeat the flag for more" },
  seed: { type: "string", description: "Seed for a reproducible refresh" },
  mend: {
    type: "string",
    description:
      `What the author wrote that the refresh may rewrite, comma-separated: ${MEND_PARTS.join(", ")} (by default none changes; the body's ` +
      `sentences are never rewritten)`,
  },
} as const;

/** The flat request fields of the target flags (files read), and `--mend`. */
export async function refreshFields(args: Record<string, unknown>, rawArgs: string[]): Promise<RefreshFields> {
  const avoid = repeatedFlag(rawArgs, "avoid").flatMap(splitList);
  const sources = repeatedFlag(rawArgs, "source");
  return {
    keywords: args.keywords,
    language: args.language,
    length: args.length,
    structure: args.structure,
    seed: args.seed,
    mend:
      typeof args.mend === "string"
        ? args.mend
            .split(",")
            .map((part) => part.trim())
            .filter(Boolean)
        : undefined,
    avoid: avoid.length ? avoid : undefined,
    links: typeof args.links === "string" ? await readLinksFile(path.resolve(args.links)) : undefined,
    sources: sources.length ? await readSourceFiles({ paths: sources, base: process.cwd() }) : undefined,
  };
}

/** `inkpress refresh`: one Markdown file mended where its checks fail, through the same validation and engine as the API. */
export const refreshCommand = defineCommand({
  meta: {
    name: "refresh",
    description: "Mend an existing Markdown article where its SEO checks fail (the summary on stderr, the article on stdout or in a file)",
  },
  args: {
    file: {
      type: "positional",
      required: true,
      description: "A Markdown file; its front matter (title, description, keywords, language, slug) gives the targets",
    },
    ...REFRESH_TARGET_ARGS,
    format: { type: "string", default: "md", description: "md (the refreshed article), json (the API's answer) or diff (a unified diff)" },
    output: { type: "string", alias: "o", description: "Write to this file instead of stdout" },
    publish: {
      type: "string",
      description:
        "Publish the refreshed article to this target, updating the post it came from (the id in the front matter, else its slug); the id is recorded in " +
        "the file",
    },
    ...settingArgs("model", "threads", "window", "gpu", "gpuLayers"),
    ...PUBLISHING_SETTINGS,
  },
  async run({ args, rawArgs }) {
    try {
      const format = chosenFormat(args.format, FORMATS);
      const { request, bytes } = await refreshRequestOf(args.file, await refreshFields(args, rawArgs));
      // Written over the file it reads: only while the file still holds what was read.
      const unchanged =
        args.output && path.resolve(args.output) === path.resolve(args.file) ? await fileVersion(args.file, bytes) : undefined;
      const publishTo = args.publish === undefined ? undefined : await publishingTo(args.publish, args);
      const model = await localModelConfig(args);
      process.stderr.write(`inkpress: refreshing ${args.file} with ${path.basename(model.modelPath)}\n`);
      await using backend = await ModelRuntime.load({ ...model, sequences: 1, queueSize: 0 });
      try {
        const refreshed = (await refreshFile(args.file, request, { backend })).response;
        process.stderr.write(summary(refreshed));
        const response = publishTo ? await publishRefreshed(args.file, refreshed, publishTo, request.markdown) : refreshed;
        const out =
          format === "json" ? `${JSON.stringify(response, null, 2)}\n` : format === "diff" ? response.diff : response.article.markdown;
        if (args.output) await writeFileAtomic(args.output, out, { userFile: true, ...(unchanged ? { unchanged } : {}) });
        else process.stdout.write(out);
      } finally {
        await publishTo?.publishing.close();
      }
    } catch (error) {
      fail(error);
    }
  },
});

/**
 * Publish a refreshed file's article: the post it came from is found by the id its front matter
 * recorded (else by slug) and updated, and the id is recorded in the file and in the refreshed
 * Markdown. A failure is one line and exit code 1; the refreshed article is still written.
 */
async function publishRefreshed(
  file: string,
  response: RefreshResponse,
  { publishing, field }: Awaited<ReturnType<typeof publishingTo>>,
  given: string,
): Promise<RefreshResponse> {
  const publish = await publishing.outcome(response.article, field, LOCAL_OWNER, recordedPostId(given, field.target));
  if (!("id" in publish)) {
    process.stderr.write(`${file}: not published: ${publish.problem.detail}\n`);
    process.exitCode = 1;
    return { ...response, publish };
  }
  await recordPublished(file, publish);
  const markdown = withPostRecorded(response.article.markdown, publish.target, publish.id);
  return { ...response, publish, article: { ...response.article, markdown } };
}

/** The score before and after, the checks mended, and each check still failing with why. */
export function summary(response: RefreshResponse): string {
  const mended = [...new Set(response.changes.map((change) => change.check))];
  const lines = [
    `score ${response.before.score} → ${response.after.score}; ` +
      `${response.changes.length} change${response.changes.length === 1 ? "" : "s"}${mended.length ? ` (${mended.join(", ")})` : ""}`,
    ...response.unmended.map((u) => `  still failing: ${u.check}: ${u.reason}`),
  ];
  return `${lines.join("\n")}\n`;
}
