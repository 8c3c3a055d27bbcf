/**
 * The playground's grounding boxes as request fields: pasted sources and a list of links,
 * written the way a person types them into a textarea.
 */

/** A source as the request takes it. */
export interface PastedSource {
  title: string;
  text: string;
}

/** A link as the request takes it. */
export interface TypedLink {
  url: string;
  title: string;
  keywords?: string;
}

/**
 * Sources pasted into one box: separated by a line of three dashes; a first line `# Title`
 * names one (and stays in its text), else it is "Pasted text N".
 */
export function sourcesFromText(raw: string): PastedSource[] {
  return raw
    .split(/^[ \t]*---[ \t]*$/m)
    .map((block) => block.trim())
    .filter(Boolean)
    .map((text, i) => ({ title: /^#[ \t]+(.+?)[ \t#]*$/m.exec(text.split("\n", 1)[0]!)?.[1] ?? `Pasted text ${i + 1}`, text }));
}

/** Links typed one per line: the URL, then the page's title, then optionally `|` and its comma-separated keywords. */
export function linksFromText(raw: string): TypedLink[] {
  return raw
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => {
      const [page = "", keywords] = line.split("|", 2).map((part) => part.trim());
      const [url = "", ...title] = page.split(/\s+/);
      return { url, title: title.join(" "), ...(keywords ? { keywords } : {}) };
    });
}
