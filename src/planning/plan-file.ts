/**
 * The plan as a batch file `inkpress batch` writes as it is: one row per planned article with its
 * topic, keywords, slug, address, role (pillar or cluster), links and, where a model planned it,
 * its outline. A JSONL row
 * holds its links and outline inline; a CSV row names files written beside it (a folder named
 * after the CSV), since a cell holds text.
 */
import { writeFileAtomic } from "../atomic.js";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { stringify } from "csv-stringify/sync";
import * as v from "valibot";
import { LINKING } from "../contract/limits.js";
import { fieldPath, requestFromFields } from "../contract/fields.js";
import { GenerateRequestSchema, type GenerateRequest } from "../contract/request.js";
import { InkpressError } from "../errors.js";
import type { PlannedArticle } from "./clusters.js";
import type { OutlineResponse } from "../contract/outline-response.js";

/** One row of the plan's batch file. */
export interface PlanRow {
  topic: string;
  /** Comma-separated, the primary first. */
  keywords: string;
  /** The written article's file name. */
  slug: string;
  url: string;
  /** The article's place in the plan, as the API's answer says it. */
  role: PlannedArticle["role"];
  language: string;
  /** @default none: batch's length */
  length?: number;
  links: PlannedArticle["links"];
  /** @default none: no model planned the rows */
  outline?: OutlineResponse["outline"];
}

/**
 * The rows of planned articles. With a length, each row's is at least one planned link's words
 * ({@link LINKING.wordsPerLink}) per link and one more, since an article places about one link per that many words.
 */
export function planRows(articles: readonly PlannedArticle[], options: { language: string; length?: number }): PlanRow[] {
  return articles.map(({ topic, keywords, slug, url, role, links }) => ({
    topic,
    keywords: keywords.join(", "),
    slug,
    url,
    role,
    language: options.language,
    ...(options.length ? { length: Math.max(options.length, LINKING.wordsPerLink * (links.length + 1)) } : {}),
    links,
  }));
}

/** The request `inkpress batch` will write a row as, validated as the API validates it. */
function rowRequest(row: PlanRow): GenerateRequest {
  const { topic, keywords, language, length, links } = row;
  const result = v.safeParse(GenerateRequestSchema, requestFromFields({ topic, keywords, language, length, links }));
  if (result.success) return result.output;
  const [issue] = result.issues;
  const where = fieldPath(issue.path?.map((p) => p.key) ?? []) ?? "row";
  throw new InkpressError(`the planned row for “${topic}” is not a valid request: ${where}: ${issue.message}`, { status: 422 });
}

/**
 * The rows with the outline each would be written from, drafted one after another (the engine's
 * outline step, as `inkpress outline` runs it): the user edits them before `inkpress batch`.
 */
export async function withOutlines(
  rows: readonly PlanRow[],
  draft: (request: GenerateRequest) => Promise<OutlineResponse>,
): Promise<{ rows: PlanRow[]; usage: { completionTokens: number; durationMs: number } }> {
  const out: PlanRow[] = [];
  const usage = { completionTokens: 0, durationMs: 0 };
  for (const row of rows) {
    const answer = await draft(rowRequest(row));
    usage.completionTokens += answer.usage.completionTokens;
    usage.durationMs += answer.usage.durationMs;
    out.push({ ...row, outline: answer.outline });
  }
  return { rows: out, usage };
}

/** The batch file's text, JSONL: one row per line, links and outline inline. */
export function jsonlText(rows: readonly PlanRow[]): string {
  return rows.map((row) => `${JSON.stringify(row)}\n`).join("");
}

/**
 * Write the rows as a CSV batch file: each row's links (`SLUG.links.jsonl`) and outline
 * (`SLUG.outline.json`) in a folder beside it named after it, its cells naming them relative to the CSV.
 */
export async function writeCsvPlan(file: string, rows: readonly PlanRow[]): Promise<void> {
  const folder = path.basename(file, path.extname(file));
  await mkdir(path.join(path.dirname(file), folder), { recursive: true });
  const records: string[][] = [];
  for (const row of rows) {
    let links = "";
    if (row.links.length) {
      links = path.posix.join(folder, `${row.slug}.links.jsonl`);
      await writeFileAtomic(path.join(path.dirname(file), links), row.links.map((link) => `${JSON.stringify(link)}\n`).join(""), {
        userFile: true,
      });
    }
    let outline = "";
    if (row.outline) {
      outline = path.posix.join(folder, `${row.slug}.outline.json`);
      await writeFileAtomic(path.join(path.dirname(file), outline), `${JSON.stringify(row.outline, null, 2)}\n`, { userFile: true });
    }
    records.push([
      row.topic,
      row.keywords,
      row.slug,
      row.url,
      row.role,
      row.language,
      row.length ? String(row.length) : "",
      links,
      outline,
    ]);
  }
  const header = ["topic", "keywords", "slug", "url", "role", "language", "length", "links", "outline"];
  await writeFileAtomic(file, stringify([header, ...records]), { userFile: true });
}
