/**
 * `npx tsx scripts/calibrate-topic.ts`: the figures behind the on-topic thresholds
 * (plan/limits.ts ON_TOPIC, docs/guarantees.md), on text nobody tuned the check to. Human text
 * under its own subject: every README of node_modules of 300 words or more (its subject the
 * package's description), the project's docs (the project's description and the page's title),
 * and the articles of test/fixtures/articles. The same texts under an unrelated subject, and
 * the stuffed story under each article's subject and keyword. Prints the fail and pass rates
 * and each miss.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import * as v from "valibot";
import { analyseExisting } from "../src/article/answer.js";
import { AnalyseRequestSchema } from "../src/contract/analyse.js";
import { ROOT } from "./bench/common.js";
import { humanArticles, stuffedStory } from "./fixtures/articles.js";
import { readme, readmePackages } from "./fixtures/readmes.js";

/** Subjects no README or doc is about. */
const UNRELATED = [
  "Tax returns for freelancers",
  "Growing tomatoes on a balcony",
  "Planning a wedding on a budget",
  "Caring for an older dog",
  ...humanArticles().map((article) => article.topic),
];

/** One text under one subject: what it is called, and whether it should pass. */
interface Case {
  label: string;
  markdown: string;
  topic: string;
  keywords?: string;
  title?: string;
}

/** The on-topic verdict, its message and the score analyse gives a case. */
function measure(c: Case): { passed: boolean | null; message: string; score: number } {
  const body = { markdown: c.markdown, topic: c.topic, language: "en", seo: { keywords: c.keywords, title: c.title } };
  const { analysis } = analyseExisting(v.parse(AnalyseRequestSchema, body));
  const check = analysis.seo.checks.find((entry) => entry.id === "on-topic")!;
  return { passed: check.passed, message: check.message, score: analysis.seo.score };
}

function readmeCases(): { own: Case[]; unrelated: Case[] } {
  const own: Case[] = [];
  const unrelated: Case[] = [];
  for (const [i, pkg] of readmePackages(300).entries()) {
    const manifest = JSON.parse(readFileSync(path.join(ROOT, "node_modules", pkg, "package.json"), "utf8")) as { description?: string };
    const description = manifest.description?.trim();
    if (!description || description.split(/\s+/u).length < 3) continue;
    const markdown = readme(pkg);
    own.push({ label: `README ${pkg}`, markdown, topic: `${pkg}: ${description}` });
    const topic = UNRELATED[i % UNRELATED.length]!;
    unrelated.push({ label: `README ${pkg} under “${topic}”`, markdown, topic, title: topic });
  }
  return { own, unrelated };
}

function docCases(): { own: Case[]; unrelated: Case[] } {
  const dir = path.join(ROOT, "docs");
  const { description } = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { description: string };
  const files = readdirSync(dir).filter((name) => name.endsWith(".md"));
  const pages = files.map((name) => ({ name, markdown: readFileSync(path.join(dir, name), "utf8") }));
  return {
    own: pages.map(({ name, markdown }) => ({
      label: `docs/${name}`,
      markdown,
      topic: `inkpress, ${description}: ${/^# (.+)$/mu.exec(markdown)?.[1] ?? name}`,
    })),
    unrelated: pages.map(({ name, markdown }, i) => ({
      label: `docs/${name} under “${UNRELATED[i]}”`,
      markdown,
      topic: UNRELATED[i]!,
      title: UNRELATED[i],
    })),
  };
}

function articleCases(): { own: Case[]; unrelated: Case[]; stuffed: Case[] } {
  const articles = humanArticles();
  return {
    own: articles.map((a) => ({ label: `article ${a.name}`, markdown: a.markdown, topic: a.topic, keywords: a.keywords })),
    unrelated: articles.flatMap((a) =>
      [a.unrelated, UNRELATED[0]!].map((topic) => ({
        label: `article ${a.name} under “${topic}”`,
        markdown: a.markdown,
        topic,
        title: topic,
      })),
    ),
    stuffed: articles.map((a) => ({
      label: `stuffed story under “${a.topic}”`,
      markdown: stuffedStory(a.keywords),
      topic: a.topic,
      keywords: a.keywords,
    })),
  };
}

/** Run the cases, print the misses, and return how many missed of how many were judged. */
function rate(name: string, cases: readonly Case[], shouldPass: boolean): string {
  let judged = 0;
  let missed = 0;
  for (const c of cases) {
    const { passed, message, score } = measure(c);
    if (passed === null) continue;
    judged++;
    if (passed !== shouldPass) {
      missed++;
      console.log(`  miss: ${c.label} (score ${score}): ${message}`);
    }
  }
  return `${name}: ${missed} of ${judged} ${shouldPass ? "fail" : "pass"} (${((100 * missed) / Math.max(1, judged)).toFixed(1)}%)`;
}

const readmes = readmeCases();
const docs = docCases();
const articles = articleCases();
const lines = [
  rate("READMEs under their own subject", readmes.own, true),
  rate("docs under their own subject", docs.own, true),
  rate("human articles under their own subject", articles.own, true),
  rate("READMEs under an unrelated subject", readmes.unrelated, false),
  rate("docs under an unrelated subject", docs.unrelated, false),
  rate("human articles under an unrelated subject", articles.unrelated, false),
  rate("stuffed stories", articles.stuffed, false),
];
for (const line of lines) console.log(line);
