import { createHash } from "node:crypto";
import { conflictingFields, slugify, type LinkSet, sameAddress } from "../article/index.js";
import * as v from "valibot";
import { unknownFieldReason } from "../did-you-mean.js";
import { REQUEST_FIELDS, fieldPath, requestFromFields, type RequestField } from "../contract/fields.js";
import { GenerateRequestSchema, LIMITS, SiteUrlSchema, type GenerateRequest, type Link } from "../contract/request.js";

/** One row as read from the input: its fields, or why it could not be read; `line` is where it starts (1-based). */
export type InputRow = { line: number; fields: Record<string, unknown> } | { line: number; error: string };

/** A valid row, ready to write. */
export interface BatchRow {
  /** Where the row starts in the input (1-based). */
  line: number;
  /** The row's identity across runs: a hash of its normalised request. */
  key: string;
  request: GenerateRequest;
  /** The request as a server takes it: the same for every row with the same key. */
  body: Record<string, unknown>;
  /**
   * The file name the row's `url` gives (its last path segment), so that links planned to that address reach it.
   * @default none: named by the article's slug
   */
  name?: string;
  /**
   * The site path the row's `url` gives (`/guides/compost-bins/`), written into the page's front
   * matter as `url`, which Hugo, Astro, Jekyll and Eleventy serve the page at.
   * @default none: the site generator's own address
   */
  address?: string;
}

/** A row that cannot be written: `error` names the field and says why, in the API's words. */
export interface BadRow {
  line: number;
  error: string;
  /**
   * The file it is, when the batch works on files rather than lines.
   * @default none: named by its line
   */
  name?: string;
}

/**
 * A row's fields: the request's, `url`, the address its article will have (so it never links
 * itself), `slug`, its file name (else the last segment of `url`, else the article's slug), and
 * `role`, its place in the plan `inkpress plan` wrote it from (pillar or cluster; said, not used).
 */
const ROW_FIELDS = [...REQUEST_FIELDS, "url", "slug", "role"] as const;

/** The roles `inkpress plan` writes. */
const ROLES = ["pillar", "cluster"];

/** Why a field name is not one of a row's, or undefined when it is. */
export function unknownField(name: string): string | undefined {
  if ((ROW_FIELDS as readonly string[]).includes(name)) return undefined;
  return `${name}: ${unknownFieldReason(name, ROW_FIELDS)}`;
}

/** What every row shares. */
export interface RowOptions {
  /**
   * The link set of `--links`: each row links the pages of it most relevant to it.
   * @default none: rows link only the pages they name
   */
  links?: LinkSet;
}

/** Validate a row's flat fields with the API's schema. */
export function parseRow(line: number, fields: Record<string, unknown>, options: RowOptions = {}): BatchRow | BadRow {
  const unknown = Object.keys(fields).map(unknownField).filter(Boolean);
  if (unknown.length) return { line, error: unknown.join("; ") };
  const { url: own, slug, role, ...requestFields } = fields;
  if (role !== undefined && !ROLES.includes(role as string)) return { line, error: `role: must be ${ROLES.join(" or ")}` };
  const url = own === undefined ? undefined : v.safeParse(SiteUrlSchema, own);
  const result = v.safeParse(GenerateRequestSchema, requestFromFields(requestFields as Record<RequestField, unknown>));
  if (!result.success || url?.success === false) {
    // One message per field, as the API's 422 lists them.
    const messages = new Map<string, string>();
    const named = [
      ...(url?.issues ?? []).map((issue) => ({ path: "url", issue })),
      ...(result.issues ?? []).map((issue) => ({ path: fieldPath(issue.path?.map((p) => p.key) ?? []) ?? "row", issue })),
    ];
    for (const { path, issue } of named) if (!messages.has(path)) messages.set(path, `${path}: ${issue.message}`);
    return { line, error: [...messages.values()].join("; ") };
  }
  const { stream: _stream, ...parsed } = result.output;
  const links = rowLinks(parsed, url?.output, options.links);
  const request: GenerateRequest = { ...parsed, ...(links ? { links } : {}) };
  // Bans the row's own fields contradict, as the API refuses them: before anything is written.
  const conflicts = conflictingFields(request);
  if (conflicts.length) return { line, error: conflicts.map((e) => `${e.path}: ${e.message}`).join("; ") };
  // A seed the row did not give is drawn anew on every run: it is no part of the row's identity.
  const seed = fields.seed === undefined ? undefined : request.seed;
  const { seo, style, sources, outline } = request;
  const body = {
    topic: request.topic,
    length: request.length,
    tone: request.tone,
    language: request.language,
    structure: request.structureRequested,
    ...(seed === undefined ? {} : { seed }),
    seo: { keywords: seo.keywords.join(", "), title: seo.title, description: seo.description, headingTags: seo.headingTags },
    ...(style ? { style } : {}),
    ...(sources ? { sources } : {}),
    ...(links ? { links } : {}),
    ...(outline ? { outline } : {}),
  };
  const key = createHash("sha256").update(JSON.stringify(body)).digest("hex").slice(0, 32);
  const name = typeof slug === "string" && slug.trim() ? slug : url?.output && fileName(url.output);
  const address = url?.output && sitePath(url.output);
  return { line, key, request, body, ...(name ? { name: slugify(name) } : {}), ...(address ? { address } : {}) };
}

/** An address as a path of the site (`https://example.com/guides/x/` → `/guides/x/`). */
const sitePath = (address: string): string => (URL.canParse(address) ? new URL(address).pathname : address);

/** The last segment of an address's path, without an extension (`/guides/compost-bins/` → `compost-bins`); undefined for the root. */
function fileName(address: string): string | undefined {
  return sitePath(address)
    .split("/")
    .filter(Boolean)
    .at(-1)
    ?.replace(/\.[a-z]+$/iu, "");
}

/**
 * The pages a row links: its own `links` first, then the pages of the shared set most
 * relevant to its topic and keywords, up to the request's limit; never its own `url`.
 */
function rowLinks(request: GenerateRequest, own: string | undefined, shared: LinkSet | undefined): Link[] | undefined {
  if (!request.links && !shared) return undefined;
  const given = (request.links ?? []).filter((link) => own === undefined || !sameAddress(link.url, own));
  const query = [request.topic, ...request.seo.keywords].join(" ");
  const more = shared?.for({ query, language: request.language, max: LIMITS.links, own }) ?? [];
  return [...given, ...more.filter((link) => !given.some((g) => sameAddress(g.url, link.url)))].slice(0, LIMITS.links);
}
