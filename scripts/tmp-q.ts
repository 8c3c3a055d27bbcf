import { getLlama, LlamaCompletion, LlamaLogLevel } from "node-llama-cpp";
import { writeTestModel as f32 } from "./make-test-model.js";
import { writeTestModel as q8 } from "./tmp-model-Q8_0.js";
import { writeTestModel as f16 } from "./tmp-model-F16.js";
const llama = await getLlama({ gpu: false, build: "never", logLevel: LlamaLogLevel.error });
for (const [name, write] of [["F32", f32], ["Q8_0", q8], ["F16", f16]] as const) {
  const path = await write({ path: `/tmp/tm/${name}.gguf`, variant: "plain" });
  const model = await llama.loadModel({ modelPath: path });
  const context = await model.createContext({ contextSize: 2048, threads: 1 });
  const out = await new LlamaCompletion({ contextSequence: context.getSequence() }).generateCompletion("The best way to", { maxTokens: 20 });
  console.log(name, model.size, JSON.stringify(out));
  await context.dispose(); await model.dispose();
}
await llama.dispose();
