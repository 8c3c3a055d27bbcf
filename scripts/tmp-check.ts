import { getLlama, LlamaChatSession, LlamaCompletion, LlamaLogLevel, resolveChatWrapper } from "node-llama-cpp";
const llama = await getLlama({ gpu: false, build: "never", logLevel: LlamaLogLevel.error });
for (const path of ["/tmp/tm/plain.gguf", "/tmp/tm/chat.gguf"]) {
  const model = await llama.loadModel({ modelPath: path });
  console.log("==", model.fileInfo.metadata.general.name, "vocab", model.tokens.bos, model.tokens.eos, model.tokens.bosString, model.tokens.eosString);
  const text = "The quick brown fox.";
  const toks = model.tokenize(text);
  console.log("tokens", toks.length, toks.map((t) => JSON.stringify(model.detokenize([t]))).join(" "));
  console.log("roundtrip", JSON.stringify(model.detokenize(toks)), model.detokenize(toks) === text);
  const t2 = model.tokenize("the best guide to search content, always!");
  console.log("tokens2", t2.map((t) => JSON.stringify(model.detokenize([t]))).join(" "));
  const context = await model.createContext({ contextSize: 2048, threads: 1 });
  const seq = context.getSequence();
  if (model.fileInfo.metadata.tokenizer.chat_template == null) {
    const completion = new LlamaCompletion({ contextSequence: seq });
    let t0 = Date.now();
    const out = await completion.generateCompletion("The best way to", { maxTokens: 50 });
    console.log("greedy:", JSON.stringify(out), Date.now() - t0, "ms");
    const out2 = await completion.generateCompletion("The best way to", { maxTokens: 50, temperature: 0.8, seed: 1 });
    console.log("temp:", JSON.stringify(out2));
  } else {
    console.log("resolveChatWrapper:", resolveChatWrapper(model).constructor.name);
    const session = new LlamaChatSession({ contextSequence: seq });
    console.log("session wrapper:", session.chatWrapper.constructor.name, session.chatWrapper.wrapperName);
    const out = await session.prompt("Write about gardens.", { maxTokens: 50 });
    console.log("chat greedy:", JSON.stringify(out));
    const out2 = await session.prompt("More please.", { maxTokens: 50, temperature: 0.8, seed: 1 });
    console.log("chat temp:", JSON.stringify(out2));
  }
  await context.dispose();
  await model.dispose();
}
await llama.dispose();
