import { defineCommand } from "citty";
import { learnVoiceFiles, writeVoiceFile } from "../voice/files.js";
import { fail, UsageError } from "./fail.js";

/** `inkpress voice`: a house voice learnt from Markdown files, as `POST /api/v1/voice` learns it. */
export const voiceCommand = defineCommand({
  meta: { name: "voice", description: "Learn a house voice from the team's own Markdown articles, for --voice and style.voice" },
  args: {
    files: { type: "positional", required: true, description: "Markdown articles (at least 150 words of prose in all)" },
    name: { type: "string", description: "What the voice is called (default house)" },
    out: { type: "string", alias: "o", description: "Write the voice to this file (house.voice.json); without it, to standard output" },
  },
  async run({ args }) {
    try {
      const files = args._.length ? args._ : [args.files];
      if (!files.length) throw new UsageError("give at least one Markdown file");
      const voice = await learnVoiceFiles(files, args.name);
      if (args.out) {
        await writeVoiceFile(args.out, voice);
        const { profile } = voice;
        process.stderr.write(
          `${args.out}: voice “${voice.name}” from ${profile.articles} articles (${profile.words} words): sentences ${profile.sentenceWords.mean} words, ` +
            `${profile.person.value} person, spelling ${profile.spelling.value}, headings ${profile.headingCase.value}\n`,
        );
      } else process.stdout.write(`${JSON.stringify(voice, null, 2)}\n`);
    } catch (error) {
      fail(error);
    }
  },
});
