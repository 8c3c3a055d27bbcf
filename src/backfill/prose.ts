/**
 * The stretches of a Markdown page that a link may be placed on: the author's plain prose,
 * each stretch a piece of one line whose bytes are exactly the text the reader sees. Never a
 * heading, the front matter, code, HTML (nor text beside inline HTML), an existing link, image text, a definition or a
 * footnote mark; a stretch holding an escape or an entity is left out, so markup placed
 * around words of a stretch never changes a byte of them.
 */
import type { Nodes } from "mdast";
import { toString } from "mdast-util-to-string";
import { readMarkdown } from "../article/index.js";

/** A piece of plain prose: where it starts in the file's text, its line, and its text (the file's bytes there). */
export interface ProseStretch {
  offset: number;
  line: number;
  text: string;
}

/** Nodes whose children may hold prose a link can be placed on. */
const CONTAINERS: ReadonlySet<string> = new Set([
  "root",
  "paragraph",
  "emphasis",
  "strong",
  "delete",
  "list",
  "listItem",
  "blockquote",
  "footnoteDefinition",
  "table",
  "tableRow",
  "tableCell",
]);

/** A byte order mark, which the reader skips and the file keeps. */
const BOM = "\uFEFF";

/** A Markdown page as link placement reads it. */
export interface LinkablePage {
  /** Its front matter's fields. */
  fields: Record<string, unknown>;
  /** Its first-level heading's text, for a page whose front matter has no title. */
  heading: string | undefined;
  /** Where its links and link definitions point, with their lines. */
  links: { url: string; line: number }[];
  /** Its plain prose, in order. */
  stretches: ProseStretch[];
}

/** Read a Markdown page's text; front matter that is not YAML fields is an error naming `field`. */
export function readLinkablePage(text: string, field: string): LinkablePage {
  const shift = text.startsWith(BOM) ? 1 : 0;
  const { tree, frontMatter } = readMarkdown(shift ? text.slice(shift) : text, field);
  const page: LinkablePage = { fields: frontMatter, heading: undefined, links: [], stretches: [] };
  const visit = (node: Nodes) => {
    const start = node.position?.start;
    if ((node.type === "link" || node.type === "definition") && start) page.links.push({ url: node.url, line: start.line });
    if (node.type === "heading" && node.depth === 1 && page.heading === undefined) page.heading = toString(node);
    if (node.type === "text") {
      const end = node.position?.end;
      if (start?.offset === undefined || end?.offset === undefined) return;
      page.stretches.push(...lineStretches(text, node.value, start.offset + shift, end.offset + shift, start.line));
      return;
    }
    // Text beside inline HTML may stand inside one of its elements: none of it is prose a link may go on.
    if ("children" in node && CONTAINERS.has(node.type) && !node.children.some((child) => child.type === "html"))
      for (const child of node.children) visit(child);
  };
  visit(tree);
  return page;
}

/**
 * A text node's lines whose source is its value: the reader drops a continuation line's
 * indent and quote marks and a line's trailing spaces, so each value line is found between
 * them; a line whose source holds more (an escape, an entity) is no stretch.
 */
function lineStretches(text: string, value: string, from: number, to: number, line: number): ProseStretch[] {
  const source = text.slice(from, to).split("\n");
  const lines = value.split("\n");
  if (source.length !== lines.length) return [];
  const out: ProseStretch[] = [];
  let offset = from;
  source.forEach((raw, i) => {
    const own = lines[i]!;
    const at = own ? raw.indexOf(own) : -1;
    if (at >= 0 && /^[\s>]*$/u.test(raw.slice(0, at)) && /^\s*$/u.test(raw.slice(at + own.length)))
      out.push({ offset: offset + at, line: line + i, text: own });
    offset += raw.length + 1;
  });
  return out;
}
