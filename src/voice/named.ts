/**
 * The voices a server knows by name (`serve --voices DIR`): each `NAME.voice.json` in the folder,
 * read once at start and checked as `style.voice` is, so a bad file stops the start with one line
 * naming the file and the field. With voices known, a `style.voice` of one word (a request's or a
 * key's default style's) is a name: the profile stands in for it before the request is validated;
 * a name the server does not know is a 422 listing the ones it does. A longer text stays a style note.
 */
import { readdir } from "node:fs/promises";
import path from "node:path";
import type { VoiceProfile } from "../contract/voice.js";
import { ConfigError, InvalidFieldError } from "../errors.js";
import { readVoiceFile } from "./files.js";

/** What a voice's file is called in the folder. */
const SUFFIX = ".voice.json";
/** A voice's name: one word of letters, digits, `.`, `_` or `-`, as a file name allows. */
const NAME = /^[\p{L}\p{N}][\p{L}\p{N}._-]{0,59}$/u;

/** The voices of a `--voices` folder, by name; none without one. */
export class NamedVoices {
  private constructor(private readonly voices: ReadonlyMap<string, VoiceProfile>) {}

  /** No voices: every `style.voice` text is a note. */
  static readonly none = new NamedVoices(new Map());

  /** Read every `NAME.voice.json` of `dir`; a folder that cannot be read, holds none, or a bad file is a ConfigError naming it. */
  static async load(dir: string | undefined): Promise<NamedVoices> {
    if (dir === undefined) return NamedVoices.none;
    let files: string[];
    try {
      files = (await readdir(dir)).filter((file) => file.endsWith(SUFFIX)).sort();
    } catch (error) {
      throw new ConfigError(
        `--voices ${dir}: ${(error as NodeJS.ErrnoException).code === "ENOENT" ? "no such folder" : (error as Error).message}`,
      );
    }
    if (!files.length) throw new ConfigError(`--voices ${dir}: the folder holds no NAME${SUFFIX} file`);
    const voices = new Map<string, VoiceProfile>();
    for (const file of files) {
      const name = file.slice(0, -SUFFIX.length);
      const at = path.join(dir, file);
      if (!NAME.test(name)) throw new ConfigError(`${at}: a voice's name is one word of letters, digits, ".", "_" or "-"`);
      try {
        voices.set(name, (await readVoiceFile(at)).profile);
      } catch (error) {
        throw new ConfigError((error as Error).message, { cause: error });
      }
    }
    return new NamedVoices(voices);
  }

  /** The names known, in order. */
  get names(): string[] {
    return [...this.voices.keys()];
  }

  /**
   * `style` with its voice's name replaced by the profile; unchanged without voices, or when its
   * voice is no name (a profile, a note of several words). `whose` says whose style it is in a 422.
   */
  resolve<S>(style: S, whose = "the request"): S {
    if (this.voices.size === 0 || typeof style !== "object" || style === null) return style;
    const voice: unknown = (style as { voice?: unknown }).voice;
    if (typeof voice !== "string" || !NAME.test(voice.trim())) return style;
    const profile = this.voices.get(voice.trim());
    if (profile) return { ...style, voice: profile };
    const known = this.names.join(", ");
    const problem = `names no voice this server knows (it knows ${known}); a style note is more than one word`;
    throw new InvalidFieldError("style.voice", problem, `The style.voice of ${whose}, "${voice.trim()}", ${problem}.`);
  }
}
