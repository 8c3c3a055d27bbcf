/**
 * One page of an audited folder, measured: what its row shows, and what the site-wide
 * findings need of it (its address's fields, its links, its shingles). Plain data, so a
 * worker thread can measure it and post it back.
 */
import type { CheckId } from "../contract/checks.js";
import type { RequestField } from "../contract/fields.js";
import { AuditError } from "./errors.js";
import { analyseFile } from "./file.js";
import { shingles } from "./similarity.js";
import type { PageLink } from "../site/addresses.js";

/** How every page of a folder is measured. */
export interface PageOptions {
  /** The front matter field that holds the keywords. @default "keywords" */
  keywordsField?: string;
  /** Targets for every page as flat request fields, over each page's own. @default {} */
  fields?: Partial<Record<RequestField, unknown>>;
}

/** A page measured. */
export interface MeasuredPage {
  title: string | null;
  /** The primary keyword, lower-cased; null without keywords. */
  keyword: string | null;
  language: string;
  wordCount: number;
  score: number;
  /** The checks it fails, in report order. */
  failed: CheckId[];
  /** Its front matter's fields. */
  fields: Record<string, unknown>;
  /** Its links: where each points, as written, and its line in the file. */
  links: PageLink[];
  /** Its prose's shingles. */
  shingles: Uint32Array;
}

/** A page measured, or why it could not be. */
export type PageResult = { page: MeasuredPage } | { error: string };

/** Measure one page file; a page that cannot be read or analysed is an error result, anything else is thrown. */
export async function measurePage(file: string, options: PageOptions): Promise<PageResult> {
  try {
    const { analysis, links, blocks, fields } = await analyseFile(file, options);
    const language = analysis.language.value;
    const prose = blocks.flatMap((block) => (block.kind === "prose" ? [block.text] : [])).join(" ");
    return {
      page: {
        title: analysis.title?.value ?? null,
        keyword: analysis.keywords?.value[0]?.toLocaleLowerCase(language) ?? null,
        language,
        wordCount: analysis.wordCount,
        score: analysis.seo.score,
        failed: analysis.seo.checks.filter((check) => check.passed === false).map((check) => check.id),
        fields,
        links: links.map(({ url, line }) => (line ? { url, line } : { url })),
        shingles: Uint32Array.from(shingles({ text: prose, language })),
      },
    };
  } catch (error) {
    if (error instanceof AuditError) return { error: error.message };
    throw error;
  }
}
