import { defineCommand } from "citty";
import type { AnalysisResponse } from "../contract/analyse.js";
import { splitList } from "../contract/fields.js";
import { analyseFile } from "../audit/file.js";
import { chosenFormat, fail } from "./fail.js";
import { repeatedFlag } from "./repeated.js";

/** Output formats of `inkpress analyse`. */
const FORMATS = ["text", "json"] as const;

/** `inkpress analyse`: the SEO report of one Markdown or HTML file, as `POST /api/v1/analyse` measures it. */
export const analyseCommand = defineCommand({
  meta: {
    name: "analyse",
    description: "Check an existing article (Markdown with front matter, or HTML): its failed checks, then its score",
  },
  args: {
    file: {
      type: "positional",
      required: true,
      description: "A .md or .html file; its front matter (title, description, keywords, language, slug) gives the targets",
    },
    keywords: { type: "string", description: "Comma-separated keywords, over the front matter's; the first is primary" },
    language: { type: "string", description: "ISO 639-1 code, over the front matter's (detected when neither names one)" },
    length: { type: "string", description: "Words the article should have (the length check applies only with it)" },
    structure: { type: "string", description: "The article's structure, as for generate (default sections)" },
    avoid: { type: "string", description: "A phrase the article must not hold; repeat the flag, or separate phrases with ;" },
    format: { type: "string", default: "text", description: "text (failed checks, then the score) or json (the API's answer)" },
  },
  async run({ args, rawArgs }) {
    try {
      const format = chosenFormat(args.format, FORMATS);
      const avoid = repeatedFlag(rawArgs, "avoid").flatMap(splitList);
      const { analysis } = await analyseFile(args.file, {
        fields: {
          keywords: args.keywords,
          language: args.language,
          length: args.length,
          structure: args.structure,
          avoid: avoid.length ? avoid : undefined,
        },
      });
      process.stdout.write(format === "json" ? `${JSON.stringify(analysis, null, 2)}\n` : reportText(analysis));
    } catch (error) {
      fail(error);
    }
  },
});

/** Where each target came from, in words. */
const FROM: Record<string, string> = {
  request: "given",
  "front-matter": "front matter",
  html: "the page's head",
  h1: "the H1",
  "file-name": "the file's name",
  detected: "detected",
};

/** The failed checks as a short table (label, then what was measured), then the score. */
export function reportText(analysis: AnalysisResponse): string {
  const failed = analysis.seo.checks.filter((check) => check.passed === false);
  const width = Math.max(0, ...failed.map((check) => check.label.length));
  const target = (name: string, value: { value: unknown; from: string } | null) =>
    value
      ? `${name}: ${Array.isArray(value.value) ? value.value.join(", ") : String(value.value)} (${FROM[value.from] ?? value.from})`
      : `${name}: none`;
  const lines = [
    [target("language", analysis.language), target("keywords", analysis.keywords), `${analysis.wordCount} words`].join("; "),
    "",
    failed.length ? `Failed checks (${failed.length}):` : "No check failed.",
    ...failed.map((check) => `  ${check.label.padEnd(width)}  ${check.message}`),
    "",
    `Score: ${analysis.seo.score}/100 (${analysis.seo.checks.filter((c) => c.passed !== null).length} checks applied, ` +
      `${analysis.seo.checks.filter((c) => c.passed === null).length} did not apply)`,
  ];
  return `${lines.join("\n")}\n`;
}
