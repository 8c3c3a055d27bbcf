import * as v from "valibot";
import { ArticleDocument } from "../../src/article/body/document.js";
import { writeBody } from "../../src/article/body/write.js";
import type { Outline } from "../../src/article/outline/outline.js";
import { AvoidList } from "../../src/article/plan/avoid.js";
import { plan, type Plan } from "../../src/article/plan/plan.js";
import { capitalise } from "../../src/article/text/text.js";
import { GenerateRequestSchema, type GenerateRequestInput } from "../../src/contract/request.js";
import { FakeWriter, type Script } from "../../scripts/fixtures/fake-writer.js";

/**
 * Builders the body pass's tests share: a plan from a request, the outline a model might
 * have planned for it, and the body written on a scripted writer.
 */

/** The request the body tests write unless told otherwise: 600 words on composting, one keyword. */
export const COMPOSTING = {
  topic: "Composting at home",
  seed: 1,
  length: 600,
  seo: { keywords: "compost bins" },
} as const satisfies GenerateRequestInput;

/** The plan of `input` laid over `base` (the fields `input` gives replace the base's). */
export function planFor(input: Partial<GenerateRequestInput> = {}, base: GenerateRequestInput = COMPOSTING): Plan {
  return plan(v.parse(GenerateRequestSchema, { ...base, ...input }));
}

/** The outline's own words where a test does not give them. */
const OUTLINE = {
  title: "Compost bins for small gardens and balconies",
  metaDescription: "Compost bins turn kitchen scraps into rich soil.",
};

/**
 * The outline as the model might have planned it: distinct headings, the keyword where the
 * plan marks it, FAQ questions ending in "?".
 */
export function outlineFor(p: Plan, words: Partial<typeof OUTLINE> = {}): Outline {
  const keyword = capitalise(p.primary, p.request.language);
  return {
    ...OUTLINE,
    ...words,
    sections: p.sections.map((s, i) => ({
      heading: s.heading ? (s.heading.keyword ? `${keyword} in part ${i}` : `Part ${i} of the guide`) : null,
      subheadings: s.subheadings.map((sub, j) =>
        s.kind === "faq" ? `Question ${j} about ${sub.keyword ? p.primary : "the heap"}?` : `${sub.keyword ? keyword : "Detail"} ${i}.${j}`,
      ),
    })),
  };
}

/** The avoid list of a request that bans nothing of its own: the built-in clichés only. */
export const clichesOnly = (p: Plan) => new AvoidList({ style: { avoid: [], cliches: true }, language: p.request.language });

/** Write the body of `p` on the scripted writer; returns the writer, the document, the outline and the running word totals. */
export async function writeWith(
  p: Plan,
  script: Script,
  options: { outline?: Outline; maxSteps?: number; signal?: AbortSignal; avoid?: AvoidList } = {},
) {
  const writer = new FakeWriter(script);
  writer.maxSteps = options.maxSteps ?? 2000;
  const document = new ArticleDocument(p.request.language, [p.primary, ...p.secondary]);
  const words: number[] = [];
  const outline = options.outline ?? outlineFor(p);
  await writeBody(p, outline, {
    writer,
    document,
    avoid: options.avoid ?? clichesOnly(p),
    seed: 7,
    signal: options.signal,
    onWords: (n) => words.push(n),
  });
  return { writer, document, outline, words };
}
