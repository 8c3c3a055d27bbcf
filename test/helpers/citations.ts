/**
 * Reading an answer's citations as a client would: which sentences carry a marker `[n]`,
 * which source the list numbers `n`, and what a cited sentence shares with that source
 * beyond the request's own words. Written apart from the engine (its own words, stop words
 * and stems from the same packages), so a test checks the engine's rule, not its code.
 */
import type { Nodes, Root } from "mdast";
import { toString } from "mdast-util-to-string";
import remarkParse from "remark-parse";
import * as stopword from "stopword";
import { stemmer } from "@orama/stemmers/english";
import { unified } from "unified";
import { sentences } from "./rules.js";

/** A source as the request gives it. */
export interface TestSource {
  title: string;
  url?: string;
  text: string;
}

/** Technical composting texts: nothing a children's story model says. */
export const TECHNICAL: TestSource[] = [
  {
    title: "Thermophilic decomposition",
    url: "https://docs.example/thermophilic",
    text: "Thermophilic bacteria dominate once pile temperature exceeds 45 °C, oxidising cellulose and hemicellulose. Aeration maintains oxygen concentration above 10 percent, preventing anaerobic fermentation and methane emissions. Moisture content between 50 and 60 percent optimises microbial metabolism.",
  },
  {
    title: "Carbon-to-nitrogen stoichiometry",
    url: "https://docs.example/cn-ratio",
    text: "Optimal feedstock carbon-to-nitrogen ratios approximate 30:1 by dry mass. Lignin-rich substrates mineralise slowly, whereas proteinaceous residues release ammonium rapidly, volatilising nitrogen. Stoichiometric imbalance reduces humification efficiency.",
  },
  {
    title: "Pathogen reduction protocols",
    text: "Regulatory protocols require windrows to sustain 55 °C for fifteen days with five turnings. Vessel systems require three consecutive days above that threshold. Helminth ova inactivation follows first-order kinetics.",
  },
];

/** The keywords the engine steers into sentences, which {@link STEERED}'s sources are titled by and hold. */
export const STEERED_KEYWORDS = "compost bin, kitchen scraps, garden waste";

/** Plain composting guides titled by the request's keywords and full of them. */
export const STEERED: TestSource[] = [
  {
    title: "Compost bin guide",
    url: "https://garden.example/compost-bin",
    text: "A compost bin turns kitchen scraps and garden waste into dark soil. Put the bin on bare ground in a spot with some sun. Keep the lid on so rain does not soak the pile.",
  },
  {
    title: "Kitchen scraps guide",
    url: "https://garden.example/kitchen-scraps",
    text: "Kitchen scraps such as fruit peels, coffee grounds and eggshells go into the compost bin. Leave out meat, fish and milk, which bring rats. Chop big scraps so they break down faster.",
  },
  {
    title: "Garden waste and leaves",
    text: "Garden waste like dry leaves, grass clippings and small twigs adds air to the pile. Mix one bucket of kitchen scraps with two buckets of garden waste. Turn the pile every week with a fork.",
  },
];

/** Children's stories in stories260K's own idiom, which it can echo. */
export const STORIES: TestSource[] = [
  {
    title: "Lily and the red ball",
    url: "https://stories.example/lily",
    text: "Once upon a time, there was a little girl named Lily. She loved to play outside with her mom. One day, Lily saw a big red ball in the park. She was very happy and played with the ball all day.",
  },
  {
    title: "Tom and the dog",
    url: "https://stories.example/tom",
    text: "Tom had a little dog named Max. Every day Tom and Max played in the park with a red ball. One day the ball went into the pond and Max jumped in to get it.",
  },
  {
    title: "Notes without a link",
    text: "The girl liked to play with her toys in the sun. She had a doll, a ball and a big box of blocks. Her mom smiled and gave her a big hug.",
  },
];

/** A sentence that carries a citation marker, and the title the Sources list gives its number. */
export interface CitedSentence {
  sentence: string;
  n: number;
  title: string;
}

/** Every cited sentence of an answer's Markdown, with the title its marker's number is listed under. */
export function citedSentences(markdown: string): CitedSentence[] {
  const paragraphs: string[] = [];
  const visit = (node: Nodes): void => {
    if (node.type === "paragraph") paragraphs.push(toString(node));
    else if ("children" in node) for (const child of node.children) visit(child);
  };
  visit(unified().use(remarkParse).parse(markdown) as Root);
  const titles = new Map<number, string>();
  for (const p of paragraphs) {
    const entry = p.match(/^\[(\d+)\] (.+)$/u);
    if (entry) titles.set(Number(entry[1]), entry[2]!.trim());
  }
  return paragraphs
    .filter((p) => !/^\[\d+\] /u.test(p))
    .flatMap((p) => {
      const cited: CitedSentence[] = [];
      let from = 0;
      for (const marker of p.matchAll(/\[(\d+)\]/gu)) {
        const n = Number(marker[1]);
        cited.push({ sentence: sentences(p.slice(from, marker.index), "en").at(-1) ?? "", n, title: titles.get(n) ?? "" });
        from = marker.index + marker[0].length;
      }
      return cited;
    });
}

const STOP = new Set(stopword.eng);
const segmenter = new Intl.Segmenter("en", { granularity: "word" });

/** The content words of an English text as stems, in order. */
function stems(text: string): string[] {
  return [...segmenter.segment(text)]
    .filter((s) => s.isWordLike)
    .map((s) => s.segment.toLowerCase())
    .filter((w) => !STOP.has(w))
    .map((w) => stemmer(w));
}

/**
 * What a cited sentence shares with its source that the request did not supply: a run of two
 * consecutive content words of one of the source's sentences, neither of them a word of the
 * request, or a figure in digits that the request does not hold. Empty when it shares neither.
 */
export function restatedEvidence(options: { sentence: string; source: string; request: readonly string[] }): string[] {
  const given = new Set(options.request.flatMap(stems));
  const runs = new Set(sentences(options.source, "en").flatMap((s) => stems(s).map((w, i, all) => (i ? `${all[i - 1]} ${w}` : ""))));
  const own = stems(options.sentence);
  for (let i = 1; i < own.length; i++) {
    const [a, b] = [own[i - 1]!, own[i]!];
    if (!given.has(a) && !given.has(b) && runs.has(`${a} ${b}`)) return [a, b];
  }
  const figures = (text: string): string[] => text.match(/\d+(?:[.,:]\d+)*/gu) ?? [];
  const requested = new Set(options.request.flatMap(figures));
  return figures(options.sentence).filter((f) => !requested.has(f) && figures(options.source).includes(f));
}
