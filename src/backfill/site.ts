/**
 * A site's Markdown pages as `inkpress links` reads them: each page's address (as the audit
 * gives it), its title and keywords (what names it as a link target), its links, and the
 * plain prose a link may be placed on. A page that cannot be read is listed with why, never
 * dropped in silence.
 */
import path from "node:path";
import { normaliseBasePath, pageAddress } from "../site/addresses.js";
import { InkpressError } from "../errors.js";
import { MARKDOWN_PAGES, pageFiles } from "../site/pages.js";
import { readTextFile } from "../text-file.js";
import { type LinkablePage, readLinkablePage } from "./prose.js";

/** One Markdown page of the site, read. */
export interface SitePageFile extends LinkablePage {
  /** Its file, relative to the folder, with `/` separators. */
  file: string;
  /** Its text, as read. */
  text: string;
  /** Its address on the site. */
  url: string;
  title: string;
  keywords: string[];
  language: string;
}

/** How the site is read. */
export interface SiteOptions {
  /** The path the folder is served under, as `inkpress audit --base-path`. @default "/" */
  basePath?: string;
  /** The front matter field that holds each page's keywords. @default "keywords" */
  keywordsField?: string;
  /** The language of a page whose front matter names none. @default "en" */
  language?: string;
}

/** The site's pages, in file order, and the files that could not be read, with why. */
export async function readSite(
  dir: string,
  options: SiteOptions = {},
): Promise<{ pages: SitePageFile[]; unreadable: { file: string; error: string }[] }> {
  const basePath = normaliseBasePath(options.basePath ?? "/");
  const pages: SitePageFile[] = [];
  const unreadable: { file: string; error: string }[] = [];
  for (const absolute of await pageFiles(dir, MARKDOWN_PAGES)) {
    const file = path.relative(dir, absolute).split(path.sep).join("/");
    try {
      const { text } = await readTextFile(absolute);
      const page = readLinkablePage(text, file);
      const fields = page.fields;
      const title = [fields.title, page.heading].find((value): value is string => typeof value === "string" && value.trim() !== "");
      const language = [fields.language, fields.lang].find(
        (value): value is string => typeof value === "string" && /^[a-z]{2}$/u.test(value),
      );
      pages.push({
        ...page,
        file,
        text,
        url: pageAddress({ file, fields }, basePath),
        title: title?.trim() ?? path.posix.basename(file).replace(/\.[^.]+$/u, ""),
        keywords: keywordList(fields[options.keywordsField ?? "keywords"]),
        language: language ?? options.language ?? "en",
      });
    } catch (error) {
      if (!(error instanceof InkpressError || (error as NodeJS.ErrnoException).code)) throw error;
      unreadable.push({ file, error: (error as Error).message });
    }
  }
  return { pages, unreadable };
}

/** A front matter keywords field as a list: a YAML list, or one string of `,` or `;` separated keywords. */
function keywordList(value: unknown): string[] {
  const items = Array.isArray(value) ? value : typeof value === "string" ? value.split(/[,;]/u) : [];
  return items.flatMap((item) => (typeof item === "string" && item.trim() ? [item.trim()] : []));
}
