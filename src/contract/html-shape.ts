/**
 * The shape of the tree HTML's tree builder (parse5, as browsers) will build from a page,
 * read in one forward pass before the page is parsed: how deep its elements nest, and how
 * many elements the builder reopens. A formatting element (`<b>`, `<i>`, `<font>`…) left open
 * when its paragraph ends stays on the builder's list of active formatting elements, and the
 * builder reopens every such element, nested, in each later paragraph: `<p><b id=…>bees</p>`
 * repeated 1,000 times made a tree 1,000 deep and half a million elements, and took 34 s.
 * Both counts are upper bounds, tight for what pages hold.
 */
import { PARSE_BUDGET } from "./parse-cost.js";

/** Elements that never hold others. */
const VOID = new Set([
  "area",
  "base",
  "br",
  "col",
  "embed",
  "hr",
  "img",
  "input",
  "link",
  "meta",
  "source",
  "track",
  "wbr",
  "param",
  "keygen",
]);
/** Elements whose content is text up to their end tag, never tags. */
const RAW = new Set(["script", "style", "textarea", "title", "xmp", "iframe", "noembed", "noframes", "plaintext"]);
/** Start tags that close an open `<p>` (HTML's "close a p element"). */
const CLOSES_P = new Set([
  "address",
  "article",
  "aside",
  "blockquote",
  "details",
  "div",
  "dl",
  "fieldset",
  "figcaption",
  "figure",
  "footer",
  "form",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "header",
  "hr",
  "main",
  "menu",
  "nav",
  "ol",
  "p",
  "pre",
  "section",
  "table",
  "ul",
  "li",
  "dd",
  "dt",
]);
/** Elements an open one of the same kinds ends (a new `<li>` ends the last one). */
const SIBLINGS: Record<string, readonly string[]> = {
  li: ["li"],
  dt: ["dt", "dd"],
  dd: ["dt", "dd"],
  tr: ["tr", "td", "th"],
  td: ["td", "th"],
  th: ["td", "th"],
  option: ["option"],
};
/** A tag read by {@link nextTag}: its name (lower case), whether it ends an element or closes itself, and where it ends. */
interface Tag {
  name: string;
  /** Where the tag starts (its `<`). */
  at: number;
  /** Its attributes as written, the text between its name and its `>`. */
  attributes: string;
  end: boolean;
  selfClosing: boolean;
  after: number;
}

const isLetter = (c: string | undefined) => c !== undefined && ((c >= "a" && c <= "z") || (c >= "A" && c <= "Z"));
const endsName = (c: string) => c === " " || c === "\t" || c === "\n" || c === "\r" || c === "\f" || c === "/" || c === ">";

/**
 * The next start or end tag from `from`, comments skipped, read by one forward scan (no
 * backtracking: a backtracking tag pattern took time growing with the cube of `<a<a<a…`). A
 * name runs to a space, `/` or `>`; the tag ends at the next `>`. Without a `>` left no tag
 * can follow, so the scan ends there.
 */
function nextTag(text: string, from: number): Tag | undefined {
  for (let at = text.indexOf("<", from); at >= 0; at = text.indexOf("<", at + 1)) {
    if (text.startsWith("<!--", at)) {
      const close = text.indexOf("-->", at + 4);
      if (close < 0) return undefined;
      at = close + 2;
      continue;
    }
    const end = text[at + 1] === "/";
    const start = at + (end ? 2 : 1);
    if (!isLetter(text[start])) continue;
    let stop = start + 1;
    while (stop < text.length && !endsName(text[stop]!)) stop++;
    const gt = text.indexOf(">", stop);
    if (gt < 0) return undefined;
    const name = text.slice(start, stop).toLowerCase();
    return { name, at, attributes: text.slice(stop, gt).trim(), end, selfClosing: gt > stop && text[gt - 1] === "/", after: gt + 1 };
  }
  return undefined;
}

/** Formatting elements: the builder reopens them in later paragraphs until they are closed. */
const FORMATTING = new Set(["a", "b", "big", "code", "em", "font", "i", "nobr", "s", "small", "strike", "strong", "tt", "u"]);
/**
 * Elements whose start marks the active formatting list: what was opened before them is not reopened inside them, and their end drops what
 * was opened inside.
 */
const MARKERS = new Set(["applet", "caption", "marquee", "object", "td", "template", "th"]);
/** Start tags the builder inserts without reopening formatting elements first (blocks, tables, the document's own). */
const NO_REOPEN = new Set([
  ...CLOSES_P,
  ...["body", "caption", "center", "col", "colgroup", "dialog", "dir", "frameset", "head", "hgroup", "html", "listing"],
  ...["base", "link", "meta", "script", "style", "template", "title", "search", "summary", "plaintext", "textarea", "xmp"],
  ...["tbody", "td", "tfoot", "th", "thead", "tr", "iframe", "noembed", "noframes"],
]);

/** Work units each reopened element costs, of {@link PARSE_BUDGET}: 100,000 reopened took 2.5 s to analyse, where the budget is about half a second. */
const REOPEN_COST = 100;

/** The tree a page will make, as {@link htmlShape} reads it. */
export interface HtmlShape {
  /** The deepest the open elements go. */
  depth: number;
  /** Of the deepest open elements, how many the builder reopened. */
  reopenedAtDepth: number;
  /** Elements the builder makes again, paragraph after paragraph, for formatting elements left open. */
  reopened: number;
}

/** An active formatting element: its name, its tag as written (three alike at most stay active), whether it is open now. */
interface Active {
  name: string;
  key: string;
  open: boolean;
}
/** An open element, the active formatting element it is, and whether the builder reopened it. */
interface Open {
  name: string;
  active?: Active;
  reopened?: boolean;
}
const MARKER = "marker";

/**
 * The open elements and the active formatting elements as HTML's tree builder keeps them:
 * void elements never open, an end tag closes up to the element it names (an end tag naming
 * none is ignored), a new paragraph, list item, row or cell ends the open one, raw text
 * (`<script>`, `<style>`…) is skipped, `/>` closes only inside SVG and MathML, and text or an
 * inline start tag first reopens each active formatting element that is no longer open. One
 * pass, time linear in the text (the open elements stay under `limit`, the nesting limit); stops once over `limit`.
 */
export function htmlShape(text: string, limit: number): HtmlShape {
  const open: Open[] = [];
  const active: Array<Active | typeof MARKER> = [];
  const shape: HtmlShape = { depth: 0, reopenedAtDepth: 0, reopened: 0 };
  const push = (element: Open) => {
    open.push(element);
    if (open.length <= shape.depth) return;
    shape.depth = open.length;
    shape.reopenedAtDepth = open.filter((o) => o.reopened).length;
  };
  const close = (at: number) => {
    for (const element of open.splice(at)) {
      if (element.active) element.active.open = false;
      if (MARKERS.has(element.name)) active.splice(Math.max(0, active.lastIndexOf(MARKER)));
    }
  };
  const reopen = () => {
    for (const entry of active)
      if (entry !== MARKER && !entry.open && shape.depth <= limit) {
        entry.open = true;
        shape.reopened++;
        push({ name: entry.name, active: entry, reopened: true });
      }
  };
  /** The last active formatting element named `name` since the last marker. */
  const lastActive = (name: string) => {
    for (let i = active.length - 1; i >= 0 && active[i] !== MARKER; i--) if ((active[i] as Active).name === name) return i;
    return -1;
  };
  const drop = (index: number) => {
    const [entry] = active.splice(index, 1) as [Active];
    if (entry.open) close(open.findLastIndex((o) => o.active === entry));
  };
  let textFrom = 0;
  for (let tag = nextTag(text, 0); tag && shape.depth <= limit; tag = nextTag(text, tag.after)) {
    if (tag.at > textFrom) reopen();
    textFrom = tag.after;
    const { name } = tag;
    if (tag.end) {
      const formatting = FORMATTING.has(name) ? lastActive(name) : -1;
      if (formatting >= 0) drop(formatting);
      else {
        const at = open.findLastIndex((o) => o.name === name);
        if (at >= 0) close(at);
      }
      continue;
    }
    // An `<a>` or `<nobr>` closes the one still active before anything is reopened.
    if ((name === "a" || name === "nobr") && lastActive(name) >= 0) drop(lastActive(name));
    if (!NO_REOPEN.has(name)) reopen();
    if (VOID.has(name) || (tag.selfClosing && open.some((o) => o.name === "svg" || o.name === "math"))) continue;
    if (CLOSES_P.has(name) && open.at(-1)?.name === "p") close(open.length - 1);
    if (SIBLINGS[name]?.includes(open.at(-1)?.name ?? "")) close(open.length - 1);
    if (RAW.has(name)) {
      // A literal search, from the tag on: each raw element's text is read once.
      const end = new RegExp(`</${name}`, "giu");
      end.lastIndex = tag.after;
      tag.after = end.exec(text)?.index ?? text.length;
      textFrom = tag.after;
      continue;
    }
    if (FORMATTING.has(name)) push({ name, active: activate(active, name, `${name} ${tag.attributes}`) });
    else push({ name });
    if (MARKERS.has(name)) active.push(MARKER);
  }
  return shape;
}

/**
 * A formatting element opened: of three alike (same tag and attributes) since the last marker, the earliest leaves the list (the builder's
 * "Noah's Ark" clause).
 */
function activate(active: Array<Active | typeof MARKER>, name: string, key: string): Active {
  const alike: number[] = [];
  for (let i = active.length - 1; i >= 0 && active[i] !== MARKER; i--) if ((active[i] as Active).key === key) alike.push(i);
  if (alike.length >= 3) active.splice(alike.at(-1)!, 1);
  const entry: Active = { name, key, open: true };
  active.push(entry);
  return entry;
}

/** What keeps HTML's tree from being built within the parse budget, as words completing "… is", or undefined. */
export function reopenProblem(shape: HtmlShape, limit: number): string | undefined {
  const tooDeep = shape.depth > limit && shape.reopenedAtDepth > 0;
  if (!tooDeep && shape.reopened * REOPEN_COST <= PARSE_BUDGET) return undefined;
  return (
    `too costly to parse: it leaves formatting elements (<b>, <i>, <font>…) open, and the browser reopens each of them in every paragraph after ` +
    `(${tooDeep ? `nested over ${limit} deep` : `${shape.reopened} elements`}); close each with its end tag`
  );
}
