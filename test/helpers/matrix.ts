import type { Structure } from "./rules.js";
import { HAS_STORIES_MODEL, STORIES_MODEL, testModel } from "./server.js";

/**
 * The engine matrix, shared by the in-process run (engine-matrix.test.ts) and the run
 * through an inference server (backend-matrix.test.ts): one topic and keyword set, every
 * preset × headingTags × length with a fixed seed per case, and the two models.
 */
export const MATRIX = {
  topic: "Caring for indoor plants",
  keywords: "indoor plants, watering schedule, potting soil",
  language: "en",
} as const;

/** One case of the matrix. */
export interface MatrixCase {
  name: string;
  structure: Structure;
  headingTags: boolean;
  length: number;
  seed: number;
}

const STRUCTURES: Structure[] = ["paragraphs", "sections", "detailed", "listicle", "how-to"];
const LENGTHS = [300, 800, 2000];

/** Every case, each with its own fixed seed. */
export const MATRIX_CASES: MatrixCase[] = STRUCTURES.flatMap((structure, s) =>
  [true, false].flatMap((headingTags, h) =>
    LENGTHS.map((length, l) => ({
      name: `${structure}, headings ${headingTags ? "on" : "off"}, ${length} words`,
      structure,
      headingTags,
      length,
      seed: 1000 + s * 100 + h * 10 + l,
    })),
  ),
);

/** The request of a case. */
export function matrixRequest(c: Pick<MatrixCase, "structure" | "headingTags" | "length" | "seed">) {
  return {
    topic: MATRIX.topic,
    length: c.length,
    tone: "friendly",
    language: MATRIX.language,
    structure: c.structure,
    seed: c.seed,
    seo: { keywords: MATRIX.keywords, headingTags: c.headingTags },
  };
}

/** What the independent rule checker is told of a case. */
export function matrixRules(c: MatrixCase) {
  return {
    length: c.length,
    structure: c.structure,
    headingTags: c.headingTags,
    keywords: MATRIX.keywords.split(",").map((k) => k.trim()),
    language: MATRIX.language,
    titleGenerated: true,
  };
}

/** The plain-completion model (real, pretrained) and the chat-template one (the project's test model). */
export const MATRIX_MODELS = [
  { name: "stories260K (completion)", path: async () => STORIES_MODEL, skip: !HAS_STORIES_MODEL },
  { name: "ChatML test model (chat template)", path: () => testModel("chat"), skip: false },
];
