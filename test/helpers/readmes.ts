/**
 * Real prose for the analyser: README files of packages in node_modules, as Markdown pages
 * with front matter and as saved web pages (navigation, scripts, styles, a footer around
 * the article), the way a site keeps an article someone wrote.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import rehypeStringify from "rehype-stringify";
import remarkGfm from "remark-gfm";
import remarkParse from "remark-parse";
import remarkRehype from "remark-rehype";
import { unified } from "unified";
import { stringify } from "yaml";
import { ROOT } from "./server.js";

/** A package's README, without its front matter. */
export function readme(pkg: string): string {
  const dir = path.join(ROOT, "node_modules", pkg);
  const file = readdirSync(dir).find((name) => /^readme\.md$/i.test(name));
  if (!file) throw new Error(`${pkg} has no README`);
  return readFileSync(path.join(dir, file), "utf8");
}

/** Every package folder of node_modules with a README of at least `minWords` words, by name. */
export function readmePackages(minWords: number): string[] {
  const names = readdirSync(path.join(ROOT, "node_modules")).flatMap((name) =>
    name.startsWith("@") ? readdirSync(path.join(ROOT, "node_modules", name)).map((sub) => `${name}/${sub}`) : name.startsWith(".") ? [] : [name],
  );
  return names
    .filter((name) => {
      try {
        return readme(name).split(/\s+/).length >= minWords;
      } catch {
        return false;
      }
    })
    .sort();
}

/** Markdown with YAML front matter. */
export function withFrontMatter(fields: Record<string, unknown>, markdown: string): string {
  return `---\n${stringify(fields)}---\n\n${markdown}`;
}

/** The Markdown as a saved web page: head, navigation, scripts and a footer around the article. */
export function webPage({ title, description, markdown }: { title: string; description: string; markdown: string }): string {
  const article = String(unified().use(remarkParse).use(remarkGfm).use(remarkRehype).use(rehypeStringify).processSync(markdown));
  const escape = (text: string) => text.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${escape(title)}</title>
<meta name="description" content="${escape(description)}">
<style>body { font-family: sans-serif; } nav a { margin-right: 1em; }</style>
<script>window.dataLayer = window.dataLayer || []; function track() { dataLayer.push(arguments); }</script>
</head>
<body>
<header><nav aria-label="Site"><a href="/">Home</a> <a href="/guides/">Guides and tutorials for every reader</a> <a href="/about/">About the people who write here</a></nav></header>
<nav class="breadcrumbs"><ol><li><a href="/">Home</a></li><li><a href="/docs/">Documentation and reference pages</a></li></ol></nav>
<main>
${article}
</main>
<aside><h2>Related reading</h2><p>Subscribe to our newsletter to receive the latest updates every single week.</p></aside>
<footer><p>Copyright the authors. All rights reserved. Built with love and a static site generator.</p></footer>
<script src="/assets/app.js"></script>
<script>track("page_view", { path: location.pathname });</script>
</body>
</html>
`;
}
