/**
 * The folder as a site: each page's address, and which pages link which. A page's address
 * is its path under the folder as site generators publish it (`guides/compost.md` is
 * `/guides/compost/`, `guides/index.md` is `/guides/`), its front matter `slug` in place of
 * the file's name, or its front matter `url` or `permalink`. A link reaches a page when it
 * names that address as a site path (`/guides/compost/`), as a full URL of the site, or as
 * a path relative to the linking page or to its file (`../compost.md`, `compost.html`). A
 * link within the site that reaches no page is broken; links to files that are not pages
 * (`/img/heap.png`, `/notes.pdf`) are assets, not checked.
 */
import path from "node:path";

/** What the site needs to know of one page. */
export interface SitePage {
  /** The page's file, relative to the folder, with `/` separators. */
  file: string;
  /** Its front matter's fields (empty for HTML). */
  fields: Record<string, unknown>;
  /** Its links: where each points, as written, and its line in the file where known. */
  links: readonly PageLink[];
}

/** One link of a page. */
export interface PageLink {
  url: string;
  line?: number;
}

/** A link within the site that reaches no page of the folder. */
export interface BrokenLink {
  /** The linking page's file, relative to the folder. */
  file: string;
  /** Its line in that file, where known. */
  line: number | null;
  url: string;
}

/** Page extensions that a link may name or leave out. */
const EXTENSION = /\.(?:md|markdown|mdx|html?)$/iu;
/** A scheme other than the web's: mail, phone, scripts. */
const OTHER_SCHEME = /^[a-z][a-z0-9+.-]*:/iu;
/** A last path segment with an extension that is not a page's: an image, a PDF, a feed. */
const ASSET = /\.[a-z0-9]{1,8}$/iu;

/** How the folder is served. */
export interface SiteLayout {
  /** The site's hosts (from its sitemap): a full URL on another is not a link within the site. @default none */
  hosts?: ReadonlySet<string>;
  /** The path the folder is served under (`/posts/` for Hugo's `content/posts`). @default "/" */
  basePath?: string;
}

/** A base path as `/posts/`: one slash at each end (`/` for none). */
export function normaliseBasePath(base: string): string {
  const parts = base.split("/").filter(Boolean);
  return parts.length ? `/${parts.join("/")}/` : "/";
}

/** The address a page is published at: `/guides/compost/`, under `basePath` unless its front matter gives its own. */
export function pageAddress(page: Pick<SitePage, "file" | "fields">, basePath = "/"): string {
  const own = [page.fields.url, page.fields.permalink].find((value): value is string => typeof value === "string" && value.startsWith("/"));
  if (own) return own;
  const dir = path.posix.dirname(page.file);
  const name = path.posix.basename(page.file).replace(EXTENSION, "");
  const slug = typeof page.fields.slug === "string" && page.fields.slug.trim() ? page.fields.slug.trim() : name;
  const parts = [...(dir === "." ? [] : dir.split("/")), ...(/^_?index$/iu.test(name) ? [] : [slug])];
  return `${basePath}${parts.join("/")}${parts.length ? "/" : ""}`;
}

/** A path as a key: decoded, without a trailing index page, page extension or slash. */
function key(pathname: string): string {
  let decoded = pathname;
  try {
    decoded = decodeURI(pathname);
  } catch {
    // A malformed escape stays as written.
  }
  const trimmed = decoded
    .replace(/\/_?index\.(?:md|markdown|mdx|html?)$/iu, "/")
    .replace(EXTENSION, "")
    .replace(/\/+$/u, "");
  return trimmed || "/";
}

/** Every page's keys (its address and its file as a path) to the page's index. */
function pageIndex(pages: readonly Pick<SitePage, "file" | "fields">[], basePath: string): Map<string, number> {
  const byKey = new Map<string, number>();
  pages.forEach((page, i) => {
    byKey.set(key(pageAddress(page, basePath)), i);
    byKey.set(key(`${basePath}${page.file}`), i);
  });
  return byKey;
}

/** The page a site path reaches, by index (undefined for none): an export's or a log's URLs matched to files. */
export function pageFinder(pages: readonly Pick<SitePage, "file" | "fields">[], basePath = "/"): (pathname: string) => number | undefined {
  const byKey = pageIndex(pages, normaliseBasePath(basePath));
  return (pathname) => byKey.get(key(pathname));
}

/** The other pages each page links, by index, in the order given. */
export function linkedPages(pages: readonly SitePage[], layout: SiteLayout = {}): Set<number>[] {
  const byKey = pageIndex(pages, layout.basePath ?? "/");
  return pages.map((page, from) => {
    const linked = new Set<number>();
    for (const link of page.links) {
      for (const candidate of targets(link.url, page, layout)) {
        const to = byKey.get(key(candidate));
        if (to !== undefined && to !== from) linked.add(to);
      }
    }
    return linked;
  });
}

/**
 * How many other pages link each page, in the order given. Without the site's hosts, a full
 * URL counts when its path is a page's address.
 */
export function inboundLinks(pages: readonly SitePage[], layout: SiteLayout = {}): number[] {
  const inbound = pages.map(() => 0);
  for (const linked of linkedPages(pages, layout)) for (const to of linked) inbound[to]!++;
  return inbound;
}

/**
 * Every link within the site that reaches no page of the folder, page by page in link order.
 * A full URL is within the site only on one of its hosts (so, without a sitemap, only site paths
 * and relative links are checked); a link to an asset is not checked.
 */
export function brokenLinks(pages: readonly SitePage[], layout: SiteLayout = {}): BrokenLink[] {
  const byKey = pageIndex(pages, layout.basePath ?? "/");
  return pages.flatMap((page) =>
    page.links
      .filter((link) => {
        const bare = link.url.split(/[?#]/u)[0]!;
        if (/^https?:\/\//iu.test(bare) && !layout.hosts?.size) return false;
        const candidates = targets(link.url, page, layout);
        if (candidates.length === 0 || candidates.some((candidate) => isAsset(candidate))) return false;
        return candidates.every((candidate) => !byKey.has(key(candidate)));
      })
      .map((link) => ({ file: page.file, line: link.line ?? null, url: link.url })),
  );
}

/** Whether a site path names a file that is not a page. */
const isAsset = (pathname: string) => {
  const last = pathname.replace(/\/+$/u, "").split("/").pop() ?? "";
  return ASSET.test(last) && !EXTENSION.test(last);
};

/** The site paths a link may name: one for an absolute link, two for a relative one (from the page's address, and from its file). */
function targets(url: string, page: SitePage, { hosts = new Set(), basePath = "/" }: SiteLayout): string[] {
  const bare = url.split(/[?#]/u)[0]!;
  if (!bare) return [];
  if (/^https?:\/\//iu.test(bare)) {
    if (!URL.canParse(bare)) return [];
    const parsed = new URL(bare);
    return hosts.size === 0 || hosts.has(parsed.host.toLowerCase()) ? [parsed.pathname] : [];
  }
  if (OTHER_SCHEME.test(bare) || bare.startsWith("//")) return [];
  if (bare.startsWith("/")) return [bare];
  return [path.posix.join(pageAddress(page, basePath), bare), path.posix.join(basePath, path.posix.dirname(page.file), bare)];
}
