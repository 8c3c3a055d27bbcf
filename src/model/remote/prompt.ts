import type { Prompt } from "../backend.js";
import { ModelLoadError } from "../errors.js";
import type { PromptPrefix } from "./server.js";

/**
 * Stand-ins for the text of the system and user turns while the chat template is applied:
 * plain letters, which every template and tokenizer keeps as they are, so the template's own
 * text can be found around them.
 */
const SYSTEM_MARK = "InkpressSystemTurnText";
const USER_MARK = "InkpressUserTurnText";

/** The two turns with the stand-ins for their text, to apply the chat template to. */
export const MARKED_TURNS = [
  { role: "system", content: SYSTEM_MARK },
  { role: "user", content: USER_MARK },
] as const;

/** The chat template's own text around the two turns (its control tokens written as text). */
export interface TemplateParts {
  before: string;
  between: string;
  after: string;
}

/**
 * Split the template applied to {@link MARKED_TURNS} at the turns' text. A template that does not
 * place each turn's text once, unchanged, cannot be told apart from request text: refused.
 */
export function templateParts(rendered: string, origin: string): TemplateParts {
  const [before, rest, ...more] = rendered.split(SYSTEM_MARK);
  const [between, after, ...others] = rest?.split(USER_MARK) ?? [];
  if (before === undefined || between === undefined || after === undefined || more.length > 0 || others.length > 0) {
    throw new ModelLoadError(
      `${origin}: the model's chat template does not place the system and user text once each, so request text cannot be kept apart from its control tokens`,
    );
  }
  return { before, between, after };
}

/**
 * The template's parts, from `render` (the server's template applied to {@link MARKED_TURNS}):
 * the same for every article, so asked once, outside any one request's signal; asked again after a failure.
 */
export function turnsTemplate(render: () => Promise<string>, origin: string): () => Promise<TemplateParts> {
  let parts: Promise<TemplateParts> | undefined;
  return () =>
    (parts ??= render()
      .then((rendered) => templateParts(rendered, origin))
      .catch((error: unknown) => {
        parts = undefined;
        throw error;
      }));
}

/**
 * How one server tokenizes the parts of a prompt. `special`: control tokens written as text become those tokens (the template's text), or
 * stay text (request text).
 */
export interface PartTokenizers {
  /** The prompt's first part: with BOS where the model wants one. */
  start(text: string, special: boolean, signal?: AbortSignal): Promise<number[]>;
  /** A later part, continuing the one before it: no BOS, no leading space added. */
  piece(text: string, special: boolean, signal?: AbortSignal): Promise<number[]>;
}

/**
 * The instructions as token ids, built so that request text (the topic, keywords, tone, voice,
 * sources and links, all inside the turns' text) never becomes a control token: the template's
 * own text is tokenized with control tokens parsed, the turns' text with none, and the ids are
 * joined. `parts` is undefined for a completion model: its prompt is request text throughout.
 * `text` is the same prompt for a server that takes text, its turns' tags broken ({@link breakTags}).
 */
export async function promptPrefix(
  prompt: Prompt,
  parts: TemplateParts | undefined,
  tokenizers: PartTokenizers,
  signal?: AbortSignal,
): Promise<PromptPrefix> {
  const all = parts
    ? [
        { text: parts.before, special: true },
        { text: prompt.system, special: false },
        { text: parts.between, special: true },
        { text: prompt.user, special: false },
        { text: parts.after, special: true },
      ]
    : [{ text: prompt.completion, special: false }];
  const present = all.filter((part) => part.text);
  // An empty prompt is still a start: its BOS.
  if (present.length === 0) present.push(all[0]!);
  const tokens = await Promise.all(
    present.map((part, i) => (i === 0 ? tokenizers.start : tokenizers.piece)(part.text, part.special, signal)),
  );
  return { tokens: tokens.flat(), text: present.map((part) => (part.special ? part.text : breakTags(part.text))).join("") };
}

/**
 * Where request text is cut before it is tokenized on a server that always parses control tokens
 * (vLLM): after each `<` and `[`, with which control tokens begin (`<|im_end|>`, `</s>`, `<s>`,
 * `<end_of_turn>`, `[INST]`…), so that no piece holds one whole.
 */
export function tagPieces(text: string): string[] {
  return text.split(/(?<=[<[])/u).filter(Boolean);
}

/** A zero-width space: put after the opening `<` or `[` of a tag, it keeps a server that tokenizes text from reading a control token there. */
const TAG_BREAK = "\u200b";

/**
 * Text for a server that takes prompts as text and parses control tokens in them: every tag-like
 * run (`<…>` or `[…]` without spaces) gets a zero-width space after its opening bracket. Only the
 * prompt is changed, never the article.
 */
export function breakTags(text: string): string {
  return text.replace(/([<[])(?=[^\s<>[\]]{1,64}[>\]])/gu, `$1${TAG_BREAK}`);
}
