import { writeFileAtomic } from "../atomic.js";
import { defineCommand } from "citty";
import { acceptRequest, conflictingFields, writeArticle, type AcceptedRequest } from "../article/index.js";
import { PRESETS } from "../contract/presets.js";
import { requestFromFields, splitList } from "../contract/fields.js";
import { readSourceFiles } from "../site/source-files.js";
import { GenerateRequestSchema } from "../contract/request.js";
import { readOutlineFile } from "../planning/outline-file.js";
import { fieldErrors, type FieldError } from "../contract/fields.js";
import { voiceOfField } from "../voice/files.js";
import { ModelRuntime } from "../model/runtime.js";
import { UsageError, chosenFormat, fail } from "./fail.js";
import { localModelConfig } from "./first-model.js";
import { GenerateProgress } from "./generate-progress.js";
import { repeatedFlag } from "./repeated.js";
import { settingArgs } from "../settings.js";

/**
 * The request the flags describe, validated and accepted as the API validates and accepts a body
 * (the same words in its errors); `--outline` names a JSON file.
 */
export async function requestFromArgs(
  args: Record<string, unknown> & { "heading-tags"?: boolean },
  rawArgs: string[],
): Promise<AcceptedRequest> {
  const avoid = repeatedFlag(rawArgs, "avoid").flatMap(splitList);
  const sources = repeatedFlag(rawArgs, "source");
  const input = requestFromFields({
    ...args,
    headingTags: args["heading-tags"],
    avoid: avoid.length ? avoid : undefined,
    sources: sources.length ? await readSourceFiles({ paths: sources, base: process.cwd() }) : undefined,
  });
  if (typeof input.outline === "string") input.outline = await readOutlineFile(input.outline, process.cwd());
  if (input.style && typeof input.style === "object")
    Object.assign(input.style, { voice: await voiceOfField((input.style as { voice?: unknown }).voice, process.cwd()) });
  const validated = await GenerateRequestSchema["~standard"].validate(input);
  if (validated.issues) throw invalidRequest(fieldErrors(validated));
  const { stream: _stream, ...request } = validated.value;
  const conflicts = conflictingFields(request);
  if (conflicts.length) throw invalidRequest(conflicts);
  return acceptRequest(request);
}

/** The same words the API answers with in a 422, on one line. */
function invalidRequest(errors: readonly FieldError[]): UsageError {
  return new UsageError(`invalid request: ${errors.map((e) => `${e.path}: ${e.message}`).join("; ")}`);
}

/** Output formats of `inkpress generate`. */
const FORMATS = ["md", "html", "json"] as const;

/** The request flags `generate` and `outline` share, and the model's. */
export const GENERATE_ARGS = {
  topic: { type: "string", description: "Main topic (required)" },
  length: { type: "string", description: "Approximate words (default 800)" },
  tone: { type: "string", description: "Tone (default professional)" },
  language: { type: "string", description: "ISO 639-1 code (default en)" },
  structure: {
    type: "string",
    description: `${PRESETS.slice(0, -1).join(", ")} or ${PRESETS.at(-1)}, or free words that pick one (default sections)`,
  },
  keywords: { type: "string", description: "Comma-separated keywords; the first is primary" },
  title: { type: "string", description: "Title to use verbatim" },
  description: { type: "string", description: "Meta description to use verbatim" },
  "heading-tags": {
    type: "boolean",
    default: true,
    description: "Headings in the article: one H1, then H2 and H3",
    negativeDescription: "No headings at all (the title is still in --format json and the HTML <title>)",
  },
  seed: { type: "string", description: "Seed for a reproducible article" },
  avoid: { type: "string", description: "A phrase the article never contains; repeat the flag, or separate phrases with ;" },
  voice: {
    type: "string",
    description:
      'A style note for the prompt, such as "plain British English, second person"; or a voice file (house.voice.json, from inkpress voice)',
  },
  cliches: {
    type: "boolean",
    description: "Avoid the built-in AI clichés (the default)",
    negativeDescription: "Do not avoid the built-in AI clichés",
  },
  source: { type: "string", description: "A text or Markdown file the article draws on and cites; repeat the flag for more" },
  outline: { type: "string", description: "An edited outline (JSON, from `inkpress outline`): the article has exactly its headings" },
  format: { type: "string", default: "md", description: "md, html (a full document) or json (the API's answer)" },
  output: { type: "string", alias: "o", description: "Write to this file instead of stdout" },
  ...settingArgs("model", "threads", "window", "gpu", "gpuLayers"),
} as const;

/** `inkpress generate`: one article without a server, through the same validation and engine as the API. */
export const generateCommand = defineCommand({
  meta: { name: "generate", description: "Write one article without a server (progress on stderr, the article on stdout or in a file)" },
  args: GENERATE_ARGS,
  async run({ args, rawArgs }) {
    try {
      const format = chosenFormat(args.format, FORMATS);
      const request = await requestFromArgs(args, rawArgs);
      const model = await localModelConfig(args);
      const progress = new GenerateProgress(request.length);
      try {
        progress.loading(model.modelPath);
        await using backend = await ModelRuntime.load({ ...model, sequences: 1, queueSize: 0 });
        progress.planning();
        const { response, document } = await writeArticle(request, {
          backend,
          onOutline: (outline) => progress.outline(outline),
          onWords: (words) => progress.wordsWritten(words),
        });
        progress.done(response.article.wordCount, response.seo.score);
        const out = format === "json" ? `${JSON.stringify(response, null, 2)}\n` : format === "html" ? document : response.article.markdown;
        if (args.output) {
          await writeFileAtomic(args.output, out, { userFile: true });
          progress.wrote(args.output);
        } else process.stdout.write(out);
      } finally {
        progress.stop();
      }
    } catch (error) {
      fail(error);
    }
  },
});
