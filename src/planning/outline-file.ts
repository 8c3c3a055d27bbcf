import { readFile } from "node:fs/promises";
import path from "node:path";
import { InkpressError } from "../errors.js";

/**
 * An edited outline read from a JSON file, for generate's `--outline` and a batch row's
 * `outline` column: the outline object itself, or a whole `POST /api/v1/outline` answer (its
 * `outline` is taken). Validation is the request's, like any other field; a file that cannot
 * be read or parsed is one clear error naming it.
 */
export async function readOutlineFile(file: string, base: string): Promise<unknown> {
  const full = path.resolve(base, file);
  let text: string;
  try {
    text = await readFile(full, "utf8");
  } catch (error) {
    throw new InkpressError(`cannot read the outline file ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, {
      status: 422,
    });
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new InkpressError(`the outline file ${file} is not JSON: ${(error as Error).message}`, { status: 422 });
  }
  const answer = parsed as { object?: unknown; outline?: unknown };
  return answer && typeof answer === "object" && answer.object === "outline" ? answer.outline : parsed;
}
