import { writeFileAtomic } from "../atomic.js";
import { defineCommand } from "citty";
import { ModelRuntime } from "../model/runtime.js";
import { draftOutline } from "../article/index.js";
import { fail } from "./fail.js";
import { localModelConfig } from "./first-model.js";
import { GENERATE_ARGS, requestFromArgs } from "./generate.js";

const { format: _format, outline: _outline, ...ARGS } = GENERATE_ARGS;

/** `inkpress outline`: the plan `generate` would write from, as JSON to edit and pass back with `generate --outline`. */
export const outlineCommand = defineCommand({
  meta: {
    name: "outline",
    description: "Plan one article without writing it: its outline as JSON, to edit and pass to generate --outline",
  },
  args: ARGS,
  async run({ args, rawArgs }) {
    try {
      const request = await requestFromArgs(args, rawArgs);
      const model = await localModelConfig(args);
      process.stderr.write(`Planning with ${model.modelPath}…\n`);
      await using backend = await ModelRuntime.load({ ...model, sequences: 1, queueSize: 0 });
      const answer = `${JSON.stringify(await draftOutline(request, { backend }), null, 2)}\n`;
      if (args.output) {
        await writeFileAtomic(args.output, answer, { userFile: true });
        process.stderr.write(`Wrote ${args.output}\n`);
      } else process.stdout.write(answer);
    } catch (error) {
      fail(error);
    }
  },
});
