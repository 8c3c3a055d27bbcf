/**
 * The Markdown tree as the HTML tree a reader's browser gets, the one way every HTML of an
 * article is made (the API's `html` and page, a post sent to a CMS, the playground's preview):
 * remark-rehype drops raw HTML, and rehype-sanitize keeps only what GitHub keeps in user content,
 * with links and images only to `http`, `https` or `mailto` addresses or relative ones, so no
 * `javascript:` or `data:` address reaches a page.
 */
import type { Root as HastRoot } from "hast";
import type { Root } from "mdast";
import rehypeSanitize, { defaultSchema, type Options as SanitizeSchema } from "rehype-sanitize";
import remarkRehype from "remark-rehype";
import { unified } from "unified";

/** The address schemes a link may have; a relative address has none and is kept. */
const LINK_PROTOCOLS = ["http", "https", "mailto"];

const SCHEMA: SanitizeSchema = {
  ...defaultSchema,
  // Ids come only from remark-rehype, which already prefixes the ones Markdown names (footnotes).
  clobber: [],
  protocols: { href: LINK_PROTOCOLS, cite: ["http", "https"], src: ["http", "https"], longDesc: ["http", "https"] },
};

const processor = unified().use(remarkRehype).use(rehypeSanitize, SCHEMA);

/** The HTML tree of a Markdown tree (which it leaves untouched), sanitised. */
export function htmlTree(tree: Root): HastRoot {
  return processor.runSync(structuredClone(tree)) as HastRoot;
}
