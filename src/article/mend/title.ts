/**
 * The title and meta description, written again through the outline's grammars when their
 * checks fail: in the front matter's value (and the H1 showing the same title). Each only when
 * the request's `mend` names it (a description the front matter lacks is added unasked); a title
 * or description the request gives is measured as given, never rewritten.
 */
import type { Outline } from "../outline/outline.js";
import type { CheckId } from "../../contract/checks.js";
import { countWords } from "../text/text.js";
import type { Mending } from "./context.js";
import type { Rewritten } from "./plan.js";
import type { RefreshState } from "./state.js";
import type { Edit } from "./state.js";

const TITLE_CHECKS: readonly CheckId[] = ["title-length", "keyword-in-title"];
const DESCRIPTION_CHECKS: readonly CheckId[] = ["meta-description-length", "keyword-in-meta-description"];

/** Which of the title and description the outline writes again: one that fails, was not given by the request, and has a place in the text. */
export function rewrittenFields(state: RefreshState, holds: (text: string) => boolean): Rewritten {
  const { report, located } = state;
  const bans = state.fails("avoid") || state.fails("cliches");
  const title = report.title;
  const description = report.description;
  const titleFails = TITLE_CHECKS.some((id) => state.fails(id)) || (bans && title !== null && holds(title.value));
  const descriptionFails = DESCRIPTION_CHECKS.some((id) => state.fails(id)) || (bans && description !== null && holds(description.value));
  const fixed = (from: string | undefined, id: CheckId) => {
    if (from === "request") state.note(id, "the request gives it, and a given value is measured as given, never rewritten");
    return from === "request";
  };
  const titleCheck = TITLE_CHECKS.find((id) => state.fails(id)) ?? "avoid";
  const descriptionCheck = DESCRIPTION_CHECKS.find((id) => state.fails(id)) ?? "avoid";
  const titleHome = located.frontMatter?.title !== undefined || located.h1 !== undefined;
  const titleAsked = state.asked("title");
  if (titleFails && !fixed(title?.from, titleCheck) && !titleHome)
    state.note(titleCheck, "the article has no title in its front matter or H1 to write one in");
  if (titleFails && !titleAsked)
    for (const id of failingOf(state, TITLE_CHECKS, titleCheck))
      state.note(id, "the title is the author's, and a refresh rewrites it only when the request's `mend` holds \"title\"");
  // A description the front matter holds is the author's; one it lacks may be added.
  const descriptionAuthored = located.frontMatter?.description !== undefined;
  const descriptionAsked = !descriptionAuthored || state.asked("description");
  if (descriptionFails && !fixed(description?.from, descriptionCheck) && !located.frontMatter)
    state.note(descriptionCheck, "the article has no front matter to hold a description");
  if (descriptionFails && !descriptionAsked)
    for (const id of failingOf(state, DESCRIPTION_CHECKS, descriptionCheck))
      state.note(id, "the description is the author's, and a refresh rewrites it only when the request's `mend` holds \"description\"");
  return {
    title: titleFails && titleHome && titleAsked && title?.from !== "request",
    description: descriptionFails && located.frontMatter !== undefined && descriptionAsked && description?.from !== "request",
  };
}

/** Each of a field's checks that fails, else the check it fails through a phrase to avoid. */
function failingOf(state: RefreshState, checks: readonly CheckId[], fallback: CheckId): CheckId[] {
  const failing = checks.filter((id) => state.fails(id));
  return failing.length ? failing : [fallback];
}

/** Put the outline's new title and description into the article, each as one change, when they pass what failed. */
export async function mendTitle(m: Mending, outline: Outline, rewritten: Rewritten): Promise<void> {
  const { state } = m;
  const { located } = state;
  if (rewritten.title) {
    const old = state.report.title?.value ?? "";
    const edits: Edit[] = [];
    if (located.frontMatter?.title)
      edits.push({
        ...located.frontMatter.title,
        text: yamlValue(outline.title, located.markdown.slice(located.frontMatter.title.start, located.frontMatter.title.end)),
      });
    if (located.h1 && (located.h1.text === old || !located.frontMatter?.title)) edits.push({ ...located.h1.span, text: outline.title });
    await propose(m, edits, { field: "title", checks: TITLE_CHECKS, old, now: outline.title });
  }
  if (rewritten.description) {
    const old = state.report.description?.value ?? "";
    const span = located.frontMatter!.description;
    const value = yamlValue(outline.metaDescription, span ? located.markdown.slice(span.start, span.end) : "");
    // No description field yet: a line of its own at the end of the front matter.
    const end = located.markdown.lastIndexOf("\n", located.frontMatter!.span.end - 1);
    const edit: Edit = span ? { ...span, text: value } : { start: end, end, text: `\ndescription: ${value}` };
    await propose(m, [edit], { field: "description", checks: DESCRIPTION_CHECKS, old, now: outline.metaDescription });
  }
}

async function propose(
  m: Mending,
  edits: Edit[],
  f: { field: "title" | "description"; checks: readonly CheckId[]; old: string; now: string },
): Promise<void> {
  const failing = f.checks.filter((id) => m.state.fails(id));
  const check = failing[0] ?? (m.state.fails("avoid") ? "avoid" : "cliches");
  if (!f.now || f.now === f.old) {
    m.state.note(check, `the model's ${f.field} was no different`);
    return;
  }
  const change = {
    section: f.field,
    check,
    reason: `The ${f.field} failed: ${failing.join(", ") || "it held a phrase to avoid"}.`,
    before: f.old,
    after: f.now,
  };
  const kept = await m.state.propose(edits, change, countWords(f.now, m.state.language));
  if (kept && failing.some((id) => m.state.fails(id)))
    m.state.note(check, `the model's ${f.field} under the outline grammar still fails it`);
}

/** A YAML scalar for `text`, quoted as the value it replaces was (plain when it was plain and `text` needs no quotes). */
function yamlValue(text: string, original: string): string {
  if (original.startsWith("'")) return `'${text.replaceAll("'", "''")}'`;
  const plain =
    /^\p{L}[^:#\n"'{}[\],&*!|>%@`]*$/u.test(text) && !/\s$/u.test(text) && !/^(?:y|n|yes|no|on|off|true|false|null)$/iu.test(text);
  if (!original.startsWith('"') && plain) return text;
  return JSON.stringify(text);
}
