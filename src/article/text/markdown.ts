/**
 * The one Markdown processor: Markdown as site generators keep it (YAML or TOML front matter,
 * then CommonMark with GitHub's extensions: tables, autolinked URLs, footnotes) read into an
 * mdast tree, and a tree written back as Markdown with fixed options. Analyse, the sources,
 * batch, refresh, publishing and the playground read text through it and the article is
 * written through it, so a bare URL is a link to each of them alike; no other module imports
 * a Markdown parser or serialiser (`test/unit/structure.test.ts`).
 */
import type { Root, RootContent } from "mdast";
import { fromMarkdown } from "mdast-util-from-markdown";
import { frontmatterFromMarkdown } from "mdast-util-frontmatter";
import { gfmFromMarkdown, gfmToMarkdown } from "mdast-util-gfm";
import { toMarkdown, type Options as ToMarkdownOptions } from "mdast-util-to-markdown";
import { frontmatter } from "micromark-extension-frontmatter";
import { gfm } from "micromark-extension-gfm";
import { assertNesting } from "../../contract/nesting.js";

/** The front matter kinds read: YAML (`---`) and TOML (`+++`). */
const FRONT_MATTER: Array<"yaml" | "toml"> = ["yaml", "toml"];

/**
 * Markdown as its tree, front matter as its first node (`yaml` or `toml`); text nested too
 * deep to parse safely is an error naming `field`.
 */
export function parseMarkdown(markdown: string, field = "markdown"): Root {
  assertNesting(markdown, "markdown", field);
  return fromMarkdown(markdown, {
    extensions: [frontmatter(FRONT_MATTER), gfm()],
    mdastExtensions: [frontmatterFromMarkdown(FRONT_MATTER), gfmFromMarkdown()],
  });
}

/** The text of the YAML front matter a tree opens with, if any. */
export function yamlFrontMatter(tree: Root): string | undefined {
  return tree.children[0]?.type === "yaml" ? tree.children[0].value : undefined;
}

/** Whether a node of the tree is front matter (of either kind). */
export const isFrontMatter = (node: RootContent): boolean => node.type === "yaml" || (node.type as string) === "toml";

/**
 * Fixed serialiser options: the same node always gives the same bytes. GitHub's extensions write
 * what the reader reads (tables, strikethrough, footnotes, task items): without them an author's
 * `~~struck~~` text or table could not be written back at all.
 */
const MARKDOWN: ToMarkdownOptions = {
  extensions: [gfmToMarkdown()],
  bullet: "-",
  emphasis: "_",
  strong: "*",
  fence: "`",
  rule: "-",
  listItemIndent: "one",
  setext: false,
};

/**
 * Text the serialiser leaves as it is in a paragraph of its own: it opens with a letter (no
 * list, heading or quote marker), ends on no space, and holds none of the characters it escapes
 * anywhere (emphasis, code, brackets, references, HTML, backslashes, line breaks).
 */
const PLAIN = /^\p{L}(?:[^\t\r\n\\[\]_`*&<]*[^\s\\[\]_`*&<])?$/u;

/** A node's Markdown, escaped as remark escapes it, without the final newline. */
export function serialiseMarkdown(node: RootContent): string {
  // Most sentences need no escape: serialising each one would cost more than the rest of its checks.
  if (node.type === "paragraph" && node.children.length === 1 && node.children[0]!.type === "text" && PLAIN.test(node.children[0].value))
    return node.children[0].value;
  return toMarkdown(node, MARKDOWN).replace(/\n$/, "");
}
