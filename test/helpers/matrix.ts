import { expect } from "vitest";
import type { Structure } from "./rules.js";
import { HAS_STORIES_MODEL, STORIES_MODEL, testModel } from "./server.js";

/**
 * The engine matrix, shared by the in-process run (engine-matrix.test.ts) and the run
 * through an inference server (backend-matrix.test.ts): one topic and keyword set per language,
 * every preset × headingTags × length with a fixed seed per case, and the two models, each
 * writing six of the languages the project labels, rotated over the cases so that each of its
 * languages meets every preset and every length.
 */
export const MATRIX_TOPICS: Record<string, { topic: string; keywords: string }> = {
  en: { topic: "Caring for indoor plants", keywords: "indoor plants, watering schedule, potting soil" },
  de: { topic: "Zimmerpflanzen richtig pflegen", keywords: "Zimmerpflanzen, Gießplan, Blumenerde" },
  fr: { topic: "Prendre soin des plantes vertes", keywords: "plantes vertes, arrosage régulier, terreau" },
  es: { topic: "Cuidar las plantas de interior", keywords: "plantas de interior, riego semanal, sustrato" },
  ja: { topic: "観葉植物の育て方", keywords: "観葉植物, 水やり, 培養土" },
  ru: { topic: "Уход за комнатными растениями", keywords: "комнатные растения, полив, грунт" },
  it: { topic: "Curare le piante da appartamento", keywords: "piante da appartamento, annaffiatura, terriccio" },
  pt: { topic: "Cuidar de plantas de interior", keywords: "plantas de interior, rega, substrato" },
  nl: { topic: "Zorgen voor kamerplanten", keywords: "kamerplanten, water geven, potgrond" },
  zh: { topic: "室内植物的养护", keywords: "室内植物, 浇水, 盆栽土" },
  ko: { topic: "실내 식물 키우기", keywords: "실내 식물, 물주기, 화분 흙" },
};

/** One case of the matrix. */
export interface MatrixCase {
  name: string;
  structure: Structure;
  headingTags: boolean;
  length: number;
  seed: number;
  language: string;
}

const STRUCTURES: Structure[] = ["paragraphs", "sections", "detailed", "listicle", "how-to"];
const LENGTHS = [300, 800, 2000];

/**
 * Every case, each with its own fixed seed and one of six `languages`: the case of preset s,
 * headings h and length l writes language s + 3h + l (mod 6), so each language meets every preset
 * (3h + l takes six values) and every length (s + 3h does) at least once.
 */
export function matrixCases(languages: readonly string[]): MatrixCase[] {
  return STRUCTURES.flatMap((structure, s) =>
    [true, false].flatMap((headingTags, h) =>
      LENGTHS.map((length, l) => {
        const language = languages[(s + 3 * h + l) % languages.length]!;
        return {
          name: `${structure}, headings ${headingTags ? "on" : "off"}, ${length} words, ${language}`,
          structure,
          headingTags,
          length,
          seed: 1000 + s * 100 + h * 10 + l,
          language,
        };
      }),
    ),
  );
}

/** The topic and keywords of a case's language (English when it names none). */
const topicOf = (c: { language?: string }) => MATRIX_TOPICS[c.language ?? "en"]!;

/** The request of a case. */
export function matrixRequest(c: Pick<MatrixCase, "structure" | "headingTags" | "length" | "seed"> & { language?: string }) {
  const { topic, keywords } = topicOf(c);
  return {
    topic,
    length: c.length,
    tone: "friendly",
    language: c.language ?? "en",
    structure: c.structure,
    seed: c.seed,
    seo: { keywords, headingTags: c.headingTags },
  };
}

/** What the independent rule checker is told of a case. */
export function matrixRules(c: Omit<MatrixCase, "language"> & { language?: string }) {
  return {
    length: c.length,
    structure: c.structure,
    headingTags: c.headingTags,
    keywords: topicOf(c)
      .keywords.split(",")
      .map((k) => k.trim()),
    language: c.language ?? "en",
    titleGenerated: true,
  };
}

/** The plain-completion model (real, pretrained) and the chat-template one (the project's test model), six languages each. */
export const MATRIX_MODELS = [
  {
    name: "stories260K (completion)",
    path: async () => STORIES_MODEL,
    skip: !HAS_STORIES_MODEL,
    languages: ["en", "de", "fr", "es", "ja", "ru"],
  },
  {
    name: "ChatML test model (chat template)",
    path: () => testModel("chat"),
    skip: false,
    languages: ["en", "it", "pt", "nl", "zh", "ko"],
  },
];

/** A case keeps every rule; a failure lists each it broke. */
export function expectMatrixRules(broken: readonly string[], c: MatrixCase): void {
  expect(broken, `${c.name} (seed ${c.seed}) breaks ${broken.length} rules:\n  ${broken.join("\n  ")}`).toEqual([]);
}
