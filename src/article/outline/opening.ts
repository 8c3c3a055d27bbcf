/**
 * The opening of the one answer, as generate writes it and a refresh writes it again: the
 * article's prompt, then the outline answer under its grammars, then the blank line the body
 * starts after, pinned so no cut reaches back into it.
 */
import type { Prompting } from "../../model/backend.js";
import type { TokenLedger } from "../ledger.js";
import type { AvoidList } from "../plan/avoid.js";
import type { Plan } from "../plan/plan.js";
import { articlePrompt } from "../plan/prompts.js";
import { type Outline, writeOutline } from "./outline.js";

/** The outline's format for a backend: JSON for chat models, lines for plain ones. */
export const outlineFormat = (prompting: Prompting): "json" | "lines" => (prompting === "chat-template" ? "json" : "lines");

/** What opening the answer needs. */
export interface OpeningOptions {
  plan: Plan;
  writer: TokenLedger;
  /** How the backend takes a prompt (it picks the outline's format). */
  prompting: Prompting;
  seed: number;
  avoid: AvoidList;
  /** Stops the work between two tokens. @default none */
  signal?: AbortSignal | undefined;
}

/** The prompt and the outline answer on a fresh writer; the body (or a mend) goes on from its end. */
export async function openAnswer({ plan, writer, prompting, seed, avoid, signal }: OpeningOptions): Promise<Outline> {
  const format = outlineFormat(prompting);
  await writer.begin(articlePrompt(plan, format));
  const outline = await writeOutline({ plan, writer, format, seed, avoid, ...(signal ? { signal } : {}) });
  writer.append("\n\n");
  writer.pin();
  return outline;
}
