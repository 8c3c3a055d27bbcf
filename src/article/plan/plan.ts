import { KEYWORD_DENSITY } from "./limits.js";
import { articleLanguage, type Labels } from "../../contract/languages.js";
import { resolveStyle, type GenerateRequest, type Preset, type UserOutline } from "../../contract/request.js";
import { voiceSpellings } from "./voice.js";
import { AvoidList, countBanned } from "./avoid.js";
import { clichesFor } from "./cliches.js";
import { focusKeyword } from "./focus.js";
import { promisedCount } from "../text/counts.js";
import { countPhrase } from "../text/text.js";

/** The logical parts of an article. */
export type SectionKind = "introduction" | "takeaways" | "body" | "conclusion" | "faq";

/** A heading or question the model writes in the outline. */
export interface PlannedHeading {
  /** Whether the grammar makes it hold the primary keyword. */
  keyword: boolean;
  /** The user's own heading (an edited outline): written verbatim, never by the model. @default the model writes it */
  given?: string;
}

/** One part of the article as planned, before the model writes anything. */
export interface PlannedSection {
  kind: SectionKind;
  /** The fixed, localised heading of a structural section; null when the model writes it or when the section shows none. */
  label: string | null;
  /** The H2 the model writes (body sections of every preset but `paragraphs`). */
  heading: PlannedHeading | null;
  /** Shown before the heading: listicle items and how-to steps are numbered. */
  number: number | null;
  /** H3s the model writes: subsections (detailed body) or questions (FAQ). */
  subheadings: PlannedHeading[];
  /** Bullets of a list section (key takeaways). */
  items: number;
  /** Relative share of the article's words. */
  share: number;
  /** Sentences that open with the primary keyword in this section's prose. */
  primaryUses: number;
  /** Secondary keywords this section's prose must mention. */
  secondary: string[];
  /** An edited outline's word budgets: the prose under the H2 (or the introduction), then under each H3. @default shares decide */
  budgets?: number[];
}

/** Everything code decides before the model writes: the contract between request and outline. */
export interface Plan {
  request: GenerateRequest;
  /** The request's style resolved once (its fields over the key's default, which the service merged in). */
  style: ReturnType<typeof resolveStyle>;
  preset: Preset;
  /** The section labels of the article's language; a label the request bans is empty (the section's heading is then written). */
  labels: Labels;
  /** English name of the article's language, for prompts. */
  languageName: string;
  /** The focus keyword: the first given one, else a short phrase from the topic. */
  primary: string;
  secondary: string[];
  /** Whether the article shows heading nodes at all (its H1 title among them). */
  headings: boolean;
  /** Whether sections show their H2 and H3 headings: with headings on, in every preset but `paragraphs`. */
  subheadings: boolean;
  /** Whether the language separates words with spaces (grammars build words differently). */
  spaced: boolean;
  sections: PlannedSection[];
}

/** Words per part, by preset: about one H2 per 220 words, a list item per 150, a step per 180. */
const WORDS_PER_PART = { paragraphs: 180, sections: 220, detailed: 300, listicle: 150, "how-to": 180 } as const;
/** Target primary keyword density: low in the {@link KEYWORD_DENSITY} band, so ±10 % length keeps it inside. */
const PRIMARY_DENSITY = 0.008;
/** Share of subheadings that hold the keyword (Yoast asks for 30–75 %). */
const HEADING_KEYWORD_SHARE = 0.5;
const SHARE = { introduction: 0.7, takeaways: 0.5, body: 1, conclusion: 0.6, faq: 1.2 } as const;
/** Languages written without spaces between words. */
const UNSPACED = new Set(["ja", "zh", "th", "lo", "km", "my", "bo"]);

const clamp = (n: number, min: number, max: number) => Math.min(max, Math.max(min, n));

/** Plan an article from a normalised request: sections, word shares, keyword placement. Pure. */
export function plan(request: GenerateRequest): Plan {
  const preset = request.structure;
  const style = resolveStyle(request.style);
  const { labels, name } = allowedLabels(request.language, style);
  const [first, ...rest] = request.seo.keywords;
  const primary = first ?? focusKeyword(request.topic, request.language);
  const secondary = rest.filter((k) => k.toLocaleLowerCase() !== primary.toLocaleLowerCase());
  const headings = request.seo.headingTags;
  const subheadings = headings && (preset !== "paragraphs" || request.outline !== undefined);

  const base = {
    request,
    style,
    preset,
    labels,
    languageName: name,
    primary,
    secondary,
    headings,
    subheadings,
    spaced: !UNSPACED.has(request.language),
  };
  if (request.outline) {
    const sections = outlineSections(request.outline, section, (text) => countPhrase(text, primary, request.language) > 0);
    const keywordHeadings = sections.flatMap((s) => [s.heading, ...s.subheadings]).filter((h) => h?.keyword).length;
    placeKeywordUses(sections, secondary, request.length, keywordHeadings, request.outline);
    return { ...base, sections };
  }
  // A count the given title (else the topic) promises is the number of items or steps ("Ten tips" → 10).
  const promised = promisedCount(request.seo.title ?? "", request.language) ?? promisedCount(request.topic, request.language);
  const sections = presetSections(preset, request.length, labels, promised);
  const keywordHeadings = markKeywordHeadings(sections, subheadings, request.length);
  placeKeywordUses(sections, secondary, request.length, keywordHeadings);
  return { ...base, sections };
}

/**
 * The phrases an article of this plan refuses: the style's bans and clichés, less any that would
 * refuse a keyword or a link's keyword the article must hold.
 */
export function planAvoidList(articlePlan: Plan): AvoidList {
  const { request, style, primary, secondary } = articlePlan;
  const keep = [primary, ...secondary, ...(request.links ?? []).flatMap((link) => link.keywords)];
  return new AvoidList({ style, language: request.language, keep, spellings: voiceSpellings(style.profile) });
}

/** A planned section of `kind`, empty but for `fields`. */
function section(kind: SectionKind, fields: Partial<PlannedSection> = {}): PlannedSection {
  return {
    kind,
    label: null,
    heading: null,
    number: null,
    subheadings: [],
    items: 0,
    share: SHARE[kind],
    primaryUses: 0,
    secondary: [],
    ...fields,
  };
}

/** A heading the model writes. */
const written = (): PlannedHeading => ({ keyword: false });

/** The sections a preset plans for `length` words, fixed labels where the style allows them. */
function presetSections(
  preset: GenerateRequest["structure"],
  length: number,
  labels: Plan["labels"],
  promised: number | undefined,
): PlannedSection[] {
  const parts = Math.round(length / WORDS_PER_PART[preset]);
  // A banned label gives way to a heading the model writes, like any other.
  const labelled = (label: string): Partial<PlannedSection> => (label ? { label } : { heading: written() });
  const sections: PlannedSection[] = [section("introduction")];
  switch (preset) {
    case "paragraphs":
      for (let i = 0; i < Math.max(1, parts - 2); i++) sections.push(section("body"));
      sections.push(section("conclusion"));
      break;
    case "sections": {
      // From 200 words there is room for a body H2 and the conclusion's.
      const h2 = Math.max(length >= 200 ? 2 : 1, parts);
      for (let i = 0; i < Math.max(1, h2 - 1); i++) sections.push(section("body", { heading: written() }));
      sections.push(section("conclusion", h2 > 1 ? labelled(labels.conclusion) : {}));
      break;
    }
    case "detailed": {
      const h2 = Math.max(2, parts);
      sections.push(section("takeaways", { ...labelled(labels.keyTakeaways), items: clamp(Math.round(length / 500), 3, 5) }));
      for (let i = 0; i < Math.max(1, h2 - 2); i++) {
        sections.push(section("body", { heading: written(), subheadings: [written(), written()] }));
      }
      sections.push(section("conclusion", labelled(labels.conclusion)));
      const questions = clamp(Math.round(length / 600), 3, 5);
      sections.push(section("faq", { ...labelled(labels.faq), subheadings: Array.from({ length: questions }, written) }));
      break;
    }
    case "listicle":
    case "how-to": {
      // Enough items that none runs past the RUN_WORDS a subheading may cover, even at 5000 words.
      const most = preset === "listicle" ? 40 : 30;
      const count = promised === undefined ? clamp(parts, 3, most) : Math.min(promised, most);
      for (let i = 0; i < count; i++) sections.push(section("body", { heading: written(), number: i + 1 }));
      sections.push(section("conclusion", labelled(labels.conclusion)));
      break;
    }
  }
  return sections;
}

/**
 * Mark the model-written headings that hold the keyword, spread evenly, so that about
 * half of all visible subheadings (fixed labels included) do. A very short article with
 * many headings gets fewer: density wins, and the report says the share is low. Returns how many.
 */
function markKeywordHeadings(sections: PlannedSection[], visible: boolean, length: number): number {
  if (!visible) {
    // Questions stay visible as paragraphs without headings; one in two holds the keyword, like with headings.
    const questions = sections.flatMap((s) => (s.kind === "faq" ? s.subheadings : []));
    for (const [i, q] of questions.entries()) q.keyword = i % 2 === 0;
    return questions.filter((q) => q.keyword).length;
  }
  const writable = sections.flatMap((s) => [...(s.heading ? [s.heading] : []), ...s.subheadings]);
  const total = writable.length + sections.filter((s) => s.label !== null).length;
  // Never so many that the headings alone (and the introduction's one use) pass the density limit.
  const room = Math.max(1, Math.floor((length * KEYWORD_DENSITY.max) / 100) - 1);
  const wanted = Math.min(writable.length, room, Math.max(1, Math.round(total * HEADING_KEYWORD_SHARE)));
  for (let i = 0; i < wanted; i++) writable[Math.floor((i * writable.length) / wanted)]!.keyword = true;
  return wanted;
}

/**
 * Spread the primary keyword's sentence openings over the prose sections, the
 * introduction first, and give each secondary keyword a section of its own, round-robin.
 */
function placeKeywordUses(
  sections: PlannedSection[],
  secondary: string[],
  length: number,
  headingUses: number,
  outline?: UserOutline,
): void {
  const prose = sections.filter((s) => s.kind === "introduction" || s.kind === "body" || s.kind === "conclusion");
  const uses = Math.max(1, Math.ceil(length * PRIMARY_DENSITY) - headingUses);
  for (let i = 0; i < uses; i++) prose[i % prose.length]!.primaryUses++;
  // An edited outline's H2 that names a secondary keyword carries it; the others go round-robin.
  const named = new Map(
    outline?.headings.filter((h) => h.level === 2 && h.keyword).map((h) => [h.keyword!.toLocaleLowerCase(), h.text]) ?? [],
  );
  for (const [i, keyword] of secondary.entries()) {
    const text = named.get(keyword.toLocaleLowerCase());
    const own = text === undefined ? undefined : sections.find((s) => s.heading?.given === text);
    (own ?? prose[(i + 1) % prose.length]!).secondary.push(keyword);
  }
}

/**
 * The sections of an edited outline: the introduction, then one section per H2 with its H3s,
 * each heading the user's words and each budget theirs. A `takeaways` H2 is a list of about a
 * bullet per 25 words.
 */
function outlineSections(
  outline: UserOutline,
  section: (kind: SectionKind, fields?: Partial<PlannedSection>) => PlannedSection,
  holdsKeyword: (text: string) => boolean,
): PlannedSection[] {
  const sections = [section("introduction", { budgets: [outline.introduction] })];
  for (const heading of outline.headings) {
    const planned = { keyword: holdsKeyword(heading.text), given: heading.text };
    const parent = sections.at(-1)!;
    if (heading.level === 3) {
      parent.subheadings.push(planned);
      parent.budgets!.push(heading.words);
      continue;
    }
    const kind = heading.kind ?? "body";
    sections.push(
      section(kind, {
        heading: planned,
        budgets: [heading.words],
        ...(kind === "takeaways" ? { items: clamp(Math.round(heading.words / 25), 2, 8) } : {}),
      }),
    );
  }
  return sections;
}

/**
 * The labels of the article's language and its English name; a label the request's bans (or
 * the built-in clichés it avoids) would match is left empty, since the article may not show it.
 */
function allowedLabels(language: string, style: ReturnType<typeof resolveStyle>): { labels: Labels; name: string } {
  const { labels, name } = articleLanguage(language);
  const bans = [...style.avoid, ...(style.cliches ? clichesFor(language) : [])];
  const allowed = Object.fromEntries(Object.entries(labels).map(([key, label]) => [key, countBanned([label], bans).size ? "" : label]));
  return { labels: allowed as unknown as Labels, name };
}
