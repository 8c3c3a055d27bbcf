/**
 * The `language` check: the body's language as franc detects it (trigrams of 187
 * languages, ISO 639-3 codes) is the requested ISO 639-1 one. franc only chooses among the
 * languages a request can name (those with an ISO 639-1 code), so Scots, which franc often
 * prefers to plain English, does not win over it.
 */
import { francAll } from "franc";
import { data } from "franc/data.js";
import { expressions } from "franc/expressions.js";
import { iso6393To1 } from "iso-639-3";
import { countWords } from "../../text/text.js";
import type { CheckId } from "../../../contract/checks.js";
import { type Article, type Measure, type Verdict, na, verdict } from "./article.js";

/** Fewer words than this are too few to tell a language by its trigrams. */
const LANGUAGE_MIN_WORDS = 30;

/** franc reads at most 2,048 characters; longer bodies are read in samples of about this size and the scores summed. */
const SAMPLE = 2000;

/**
 * Individual languages that franc detects, in the ISO 639-1 macrolanguage a request names
 * (franc says "cmn" for Mandarin, a request says "zh"); iso-639-3 maps only exact codes.
 */
const MEMBERS: Readonly<Record<string, string>> = {
  cmn: "zh",
  arb: "ar",
  pes: "fa",
  prs: "fa",
  swh: "sw",
  uzn: "uz",
  zlm: "ms",
  azj: "az",
  plt: "mg",
  als: "sq",
  ayr: "ay",
  lvs: "lv",
  ekk: "et",
  khk: "mn",
  pbu: "ps",
  npi: "ne",
  ydd: "yi",
  ckb: "ku",
  quy: "qu",
  quz: "qu",
  fuv: "ff",
  fuf: "ff",
  koi: "kv",
  src: "sc",
  knc: "kr",
  kng: "kg",
};

/** Every language franc can name: the ones it tells by script alone and the ones it tells by trigrams. */
const FRANC_LANGUAGES = [
  ...Object.keys(expressions).filter((name) => !(name in data)),
  ...Object.values(data).flatMap((languages) => Object.keys(languages)),
];

/** The ISO 639-1 code of a franc language, if it has one. */
const toIso6391 = (code: string): string | undefined => iso6393To1[code] ?? MEMBERS[code];

/** Norwegian is "no" to most people and "nb" or "nn" to ISO 639-1: all three name the same text. */
const NORWEGIAN = new Set(["no", "nb", "nn"]);

/** Whether a franc language is the requested ISO 639-1 one. */
function isRequested(code: string, language: string): boolean {
  const iso = toIso6391(code);
  return iso === language || (iso !== undefined && NORWEGIAN.has(iso) && NORWEGIAN.has(language));
}

/** The languages franc may choose: those a request can name. */
const CANDIDATES = FRANC_LANGUAGES.filter((code) => toIso6391(code) !== undefined);

const names = new Intl.DisplayNames(["en"], { type: "language" });
const named = (iso6391: string) => `${names.of(iso6391) ?? iso6391} (${iso6391})`;

/** The language check by id. */
export const languageChecks = { language: detectLanguage } satisfies Partial<Record<CheckId, Measure>>;

function detectLanguage(article: Article): Verdict {
  const { language } = article.input;
  if (!CANDIDATES.some((code) => isRequested(code, language))) {
    return na(`The language detector (franc) cannot recognise ${named(language)}, so this check does not apply.`);
  }
  const text = article.prose.map((paragraph) => paragraph.text).join("\n");
  const words = countWords(text, language);
  if (words < LANGUAGE_MIN_WORDS) return na(`The body has too few words to tell its language (${words}; at least ${LANGUAGE_MIN_WORDS}).`);
  const best = detect(text);
  const detected = toIso6391(best);
  if (isRequested(best, language)) return verdict(true, `The body reads as ${named(language)}, as requested (franc: ${best}).`);
  return verdict(false, `The body reads as ${detected ? named(detected) : best} (franc: ${best}), not ${named(language)} as requested.`);
}

/**
 * The ISO 639-1 language a text reads as, by the same detector and candidates as the check;
 * undefined when it has too few words to tell (an article whose request named no language).
 */
export function languageOf(text: string): string | undefined {
  if (countWords(text, "en") < LANGUAGE_MIN_WORDS) return undefined;
  return toIso6391(detect(text));
}

/** The last text detected and its language: an article whose language was detected is measured right after, on the same text. */
let last: { text: string; code: string } | undefined;

/** franc's best guess over the whole text: its scores per sample of about {@link SAMPLE} characters, weighted by length. */
function detect(text: string): string {
  if (last?.text === text) return last.code;
  const code = bestOf(text);
  last = { text, code };
  return code;
}

function bestOf(text: string): string {
  const totals = new Map<string, number>();
  for (const sample of samples(text)) {
    for (const [code, score] of francAll(sample, { minLength: 1, only: CANDIDATES }))
      totals.set(code, (totals.get(code) ?? 0) + score * sample.length);
  }
  return [...totals].sort((x, y) => y[1] - x[1])[0]![0];
}

/** The text cut into samples of about {@link SAMPLE} characters, at line breaks where it can. */
function samples(text: string): string[] {
  const out: string[] = [];
  let current = "";
  for (const line of text.split("\n")) {
    if (current && current.length + line.length > SAMPLE) {
      out.push(current);
      current = "";
    }
    current = current ? `${current}\n${line}` : line;
    while (current.length > SAMPLE) {
      out.push(current.slice(0, SAMPLE));
      current = current.slice(SAMPLE);
    }
  }
  if (current) out.push(current);
  return out;
}
