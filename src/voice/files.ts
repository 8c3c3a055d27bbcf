/**
 * Voices in files: `inkpress voice` learns one from Markdown files and writes it (atomically),
 * and `--voice FILE` / `serve --voices DIR` read one back, its profile checked as the API checks
 * `style.voice`, so a hand-edited file with a typo is refused by name.
 */
import path from "node:path";
import { fieldErrors } from "../contract/fields.js";
import { type VoiceProfile, VoiceProfileSchema, VoiceRequestSchema, type VoiceResponse } from "../contract/voice.js";
import { writeFileAtomic } from "../atomic.js";
import { InkpressError, InvalidFieldError } from "../errors.js";
import { NotTextError, readTextFile } from "../text-file.js";
import { learnVoice } from "../article/index.js";

/** A voice file that cannot be read or learnt from; the message names the file. */
class VoiceFileError extends InkpressError {}

async function textOf(file: string): Promise<string> {
  try {
    return (await readTextFile(file)).text;
  } catch (error) {
    if (error instanceof NotTextError) throw new VoiceFileError(`${file}: ${error.message}`);
    throw new VoiceFileError(`${file}: ${(error as Error).message}`);
  }
}

/** Learn a voice from Markdown files; a fault names the file (or `articles` for too little prose). */
export async function learnVoiceFiles(files: readonly string[], name: string | undefined): Promise<VoiceResponse> {
  const articles = await Promise.all(files.map(textOf));
  const validated = await VoiceRequestSchema["~standard"].validate({ articles, ...(name === undefined ? {} : { name }) });
  if (validated.issues)
    throw new VoiceFileError(
      fieldErrors(validated)
        .map((e) => `${e.path}: ${e.message}`)
        .join("; "),
    );
  try {
    return learnVoice(validated.value);
  } catch (error) {
    if (!(error instanceof InvalidFieldError)) throw error;
    const at = /^articles\[(\d+)\]/u.exec(error.field);
    throw new VoiceFileError(at ? `${files[Number(at[1])]}: ${error.problem}` : `${files.join(", ")}: ${error.problem}`, { cause: error });
  }
}

/** Write a voice as JSON, atomically. */
export const writeVoiceFile = (file: string, voice: VoiceResponse) => writeFileAtomic(file, `${JSON.stringify(voice, null, 2)}\n`);

/**
 * A `voice` flag's or column's value as the request's `style.voice`: a name ending in `.json` is a
 * voice file (relative to `base`), read into its profile; anything else stays a style note.
 */
export async function voiceOfField(value: unknown, base: string): Promise<unknown> {
  if (typeof value !== "string" || !/\.json$/iu.test(value.trim())) return value;
  return (await readVoiceFile(path.resolve(base, value.trim()))).profile;
}

/** A voice file's profile: the file `inkpress voice` writes (its `profile`), or a bare profile; a fault names the file and the field. */
export async function readVoiceFile(file: string): Promise<{ name: string; profile: VoiceProfile }> {
  let data: unknown;
  try {
    data = JSON.parse(await textOf(file));
  } catch (error) {
    if (error instanceof VoiceFileError) throw error;
    throw new VoiceFileError(`${file}: not JSON (${(error as Error).message})`);
  }
  const wrapped = typeof data === "object" && data !== null && (data as { object?: unknown }).object === "voice";
  const profile = await VoiceProfileSchema["~standard"].validate(wrapped ? (data as { profile?: unknown }).profile : data);
  if (profile.issues)
    throw new VoiceFileError(
      `${file}: ${fieldErrors(profile)
        .map((e) => (!e.path || e.message.includes(e.path) ? e.message : `voice.${e.path}: ${e.message}`))
        .join("; ")}`,
    );
  const name = wrapped && typeof (data as { name?: unknown }).name === "string" ? (data as { name: string }).name : "";
  return { name, profile: profile.value };
}
