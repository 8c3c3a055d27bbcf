/**
 * The SEO report of an article as it is (written by anyone, or by inkpress and given back):
 * the page read into the document model's blocks, its targets taken from the request, else
 * from the page itself, then measured by the same analyser as a written article. Checks that
 * need a record of the writing (which sentence restates a source, how many links the plan
 * wanted) and checks whose target is missing are not applicable, and say why.
 */
import * as v from "valibot";
import { InvalidFieldError } from "../../errors.js";
import type { Block } from "../body/document.js";
import type { GroundingStats } from "../grounding/grounding.js";
import { isIso6391 } from "../../contract/languages.js";
import { voiced } from "../plan/voice.js";
import { analyse, requestTexts, scoreChecks, type Analysis, type SeoCheck } from "../report/analyse.js";
import { languageOf } from "../report/checks/language.js";
import { countBlocks, proseText, readPage, type Declared, type ExistingPage, type FoundLink } from "./page.js";
import type { OutlineEntry } from "../outline/outline.js";
import type { AnalyseRequest, TargetSource } from "../../contract/analyse.js";
import { KeywordsSchema, resolveStyle, type Link, type Style } from "../../contract/request.js";

/** What analysing an article needs besides the request. */
export interface AnalyseExistingOptions {
  /**
   * The key's default style, under the request's own (as for generate).
   * @default none
   */
  keyStyle?: Style;
  /**
   * The style already resolved from the request's and the key's (a refresh measures its article
   * again after every mend, in the one style it resolved): used instead of resolving it again.
   * @default the request's style over `keyStyle`
   */
  style?: ReturnType<typeof resolveStyle>;
  /**
   * The slug when neither the request nor the front matter gives one: a file's name.
   * @default none (the slug check then does not apply)
   */
  fileSlug?: string;
  /**
   * The front matter field that holds the keywords.
   * @default "keywords"
   */
  keywordsField?: string;
  /**
   * A record of the links planned for the article and placed in it (a refresh plans them):
   * the internal-links check then applies, measured against it.
   * @default none (the check does not apply to an article given as it is)
   */
  grounding?: GroundingStats;
}

/** A target the article is measured against, and where it came from; null when there is none. */
export type Target<T> = { value: T; from: TargetSource } | null;

/**
 * The engine's report of an article as it is: report/'s analysis (checks, score, counts), the
 * targets it was measured against, and its H2 and H3 headings. `answer.ts` turns it into the
 * wire's analysis answer; a refresh keeps it as its state.
 */
export interface ExistingReport extends Analysis {
  language: NonNullable<Target<string>>;
  title: Target<string>;
  description: Target<string>;
  slug: Target<string>;
  keywords: Target<string[]>;
  /** The article's H2 and H3 headings, in order. */
  outline: OutlineEntry[];
}

/** The report, and what a site audit reads besides it. */
export interface MeasuredArticle {
  report: ExistingReport;
  /** Every link of the body. */
  links: FoundLink[];
  /** The body blocks measured. */
  blocks: Block[];
  /** The front matter's fields (empty for HTML). */
  fields: Record<string, unknown>;
}

/** Measure an article given as Markdown or HTML against the request's targets. */
export function measureExisting(request: AnalyseRequest, options: AnalyseExistingOptions = {}): MeasuredArticle {
  const field = request.markdown === undefined ? "html" : "markdown";
  const page = readPage(request.markdown === undefined ? { html: request.html! } : { markdown: request.markdown }, field);
  const { declared } = page;
  const language = languageTarget(request.language, declared, page);
  const title = pick(request.seo.title, "request") ?? pick(declared.title, declared.from) ?? pick(page.h1, "h1");
  const description = pick(request.seo.description, "request") ?? pick(declared.description, declared.from);
  const slug =
    pick(request.slug && lastSegment(request.slug), "request") ??
    pick(declared.slug && lastSegment(declared.slug), "front-matter") ??
    pick(options.fileSlug, "file-name");
  const keywords = keywordTarget(request.seo.keywords, declared, { field, name: options.keywordsField ?? "keywords" });
  const blocks = countBlocks(page.blocks, language.value);
  const report = analyse({
    blocks,
    // A site generator's theme prints the front matter's title as the page's H1 (when the article has headings at all).
    hasTitle: page.h1 !== undefined || (request.seo.headingTags && declared.from === "front-matter" && declared.title !== undefined),
    title: title?.value ?? "",
    metaDescription: description?.value ?? "",
    slug: slug?.value ?? "",
    keywords: keywords?.value ?? [],
    // The author wrote every word, so nothing was steered in beyond the keywords, which the
    // on-topic check takes out. The subject is what the request says, as generate's is: the page's
    // own title stands in only when the request names no topic, title or keyword.
    about: [
      request.topic,
      title && (title.from === "request" || !(request.topic || keywords?.value.length)) ? title.value : undefined,
    ].filter((text): text is string => Boolean(text)),
    language: language.value,
    headingTags: request.seo.headingTags,
    preset: request.structure,
    targetLength: request.length ?? 0,
    ...voiced(options.style ?? resolveStyle(request.style, options.keyStyle)),
    given: requestTexts({ ...request, markdown: undefined, html: undefined }),
    sources: request.sources ?? [],
    ...(options.grounding ? { grounding: options.grounding } : {}),
  });
  const checks = report.checks.map((check) =>
    check.id === "internal-links" && options.grounding ? check : (notApplicable(check, { request, page, language, slug }) ?? check),
  );
  return {
    report: {
      ...report,
      checks,
      score: scoreChecks(checks),
      language,
      title,
      description,
      slug,
      keywords,
      outline: blocks.flatMap((b) =>
        b.kind === "heading" && (b.depth === 2 || b.depth === 3) ? [{ level: b.depth as 2 | 3, text: b.text, shown: true }] : [],
      ),
    },
    links: page.links,
    blocks,
    fields: declared.fields,
  };
}

const pick = <T extends string>(value: string | undefined, from: TargetSource): Target<T> => (value ? { value: value as T, from } : null);

/** A URL's or path's last segment: the slug of `https://example.com/guides/compost/` is `compost`. */
const lastSegment = (slug: string) => slug.split(/[?#]/u)[0]!.split("/").filter(Boolean).at(-1);

/** The request's language, else the page's declared one (`en-GB` is `en`), else the one its body reads as (English when too short to tell). */
function languageTarget(requested: string | undefined, declared: Declared, page: ExistingPage): { value: string; from: TargetSource } {
  if (requested) return { value: requested, from: "request" };
  const code = declared.language?.toLowerCase().split(/[-_]/u)[0];
  if (code && isIso6391(code)) return { value: code, from: declared.from };
  return { value: languageOf(proseText(page)) ?? "en", from: "detected" };
}

/** The request's keywords, else the front matter's (a list, or one comma-separated text), cleaned as a request's are. */
function keywordTarget(requested: string[], declared: Declared, where: { field: string; name: string }): Target<string[]> {
  if (requested.length) return { value: requested, from: "request" };
  const raw = declared.fields[where.name];
  if (raw === undefined || raw === null) return null;
  const list = Array.isArray(raw) ? raw : [raw];
  if (!list.every((item) => typeof item === "string")) {
    throw new InvalidFieldError(
      where.field,
      `front matter ${where.name} must be a text or a list of texts`,
      `${where.field}: front matter ${where.name} must be a text or a list of texts`,
    );
  }
  const parsed = v.safeParse(KeywordsSchema, list.join(","));
  if (!parsed.success)
    throw new InvalidFieldError(
      where.field,
      `front matter ${where.name}: ${parsed.issues[0].message}`,
      `${where.field}: front matter ${where.name}: ${parsed.issues[0].message}`,
    );
  return parsed.output.length ? { value: parsed.output, from: "front-matter" } : null;
}

/** What a check cannot judge on an article given as it is. */
interface Context {
  request: AnalyseRequest;
  page: ExistingPage;
  language: { value: string; from: TargetSource };
  slug: Target<string>;
}

/** A check's verdict replaced by "not applicable", with why, or undefined to keep it. */
function notApplicable(check: SeoCheck, { request, page, language, slug }: Context): SeoCheck | undefined {
  const na = (message: string): SeoCheck => ({ ...check, passed: null, message });
  switch (check.id) {
    case "language":
      return language.from === "detected"
        ? na(
            `No language was given or declared, so the article was measured as the language its body reads as (${language.value}); this check does not apply.`,
          )
        : undefined;
    case "keyword-in-slug":
      return check.passed !== null && !slug
        ? na("No slug was given or found (send `slug`, or a front matter `slug`), so this check does not apply.")
        : undefined;
    case "sources-cited":
      if (!request.sources?.length) return undefined;
      return na(
        `Which sentence restates a source is recorded as inkpress writes an article; an article given as it is has no such record, so this check does not \
apply. Found ${page.citations} citation marker${page.citations === 1 ? "" : "s"} and ${linksTo(
          page.links,
          request.sources.flatMap((s) => (s.url ? [s.url] : [])),
        )} link(s) to the sources' URLs.`,
      );
    case "internal-links":
      if (!request.links?.length) return undefined;
      return na(
        `How many links an article owes comes from inkpress's plan of it, which an article given as it is does not have, so this check does not apply. It \
links ${linksTo(
          page.links,
          request.links.map((l: Link) => l.url),
        )} of the ${request.links.length} given page(s).`,
      );
    default:
      return undefined;
  }
}

/** How many of the given addresses the article links (a site path matches a full URL with that path). */
function linksTo(found: readonly FoundLink[], urls: readonly string[]): number {
  const key = (url: string) =>
    URL.canParse(url, "https://site.invalid") ? new URL(url, "https://site.invalid").pathname.replace(/\/+$/u, "") : url;
  const linked = new Set(found.map((link) => key(link.url)));
  return new Set(urls.map(key).filter((url) => linked.has(url))).size;
}
