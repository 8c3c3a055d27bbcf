/**
 * The playground's voice panel (playground-voice.ts): example articles dropped or picked as files
 * (each kept whole) and pasted (separated by a line of `---`) are sent to `POST /api/v1/voice`; the
 * learnt profile is shown feature by feature, and "Write with this voice" puts it in the form as
 * `style.voice` (a hidden control of that name) in place of the note, which is disabled meanwhile.
 */
import { createClient, InkpressApiError, type VoiceResponse } from "../../../client/index.js";
import { byId, el } from "./dom.js";
import { hideError, showError, showProblem } from "./errors.js";
import { keyInput, rememberKey } from "./key.js";

const form = byId<HTMLFormElement>("form");
const examples = byId<HTMLTextAreaElement>("voice-examples");
const picker = byId<HTMLInputElement>("voice-files");
const filesList = byId("voice-files-list");
const learnButton = byId<HTMLButtonElement>("voice-learn-button");
const use = byId<HTMLInputElement>("voice-use");
const note = byId<HTMLInputElement>("f-style-voice");
const profileControl = byId<HTMLTextAreaElement>("f-style-voice-profile");

/** Files dropped or picked, each one article as it is. */
const files: Array<{ name: string; text: string }> = [];

async function addFiles(list: FileList): Promise<void> {
  for (const file of list) files.push({ name: file.name, text: await file.text() });
  filesList.textContent = `${files.length} ${files.length === 1 ? "file" : "files"}: ${files.map((f) => f.name).join(", ")}`;
  filesList.hidden = false;
}

/** The examples as the request takes them: the files, then each pasted article. */
function articles(): string[] {
  const pasted = examples.value
    .split(/^[ \t]*---[ \t]*$/m)
    .map((block) => block.trim())
    .filter(Boolean);
  return [...files.map((f) => f.text), ...pasted];
}

const pct = (share: number) => `${Math.round(share * 100)} %`;
const band = (b: { value: number; min: number; max: number }, unit: string) => `${b.value} ${unit} (passes ${b.min}–${b.max})`;

/** The learnt profile, feature by feature, as a person reads it. */
function showProfile({ name, profile: p, examples: learnt }: VoiceResponse): void {
  const rows: Array<[string, string]> = [
    ["Voice", `“${name}”, from ${learnt.length} ${learnt.length === 1 ? "article" : "articles"} (${p.words} words, ${p.language})`],
    ["Sentences", `${p.sentenceWords.mean} words on average (most ${p.sentenceWords.p10}–${p.sentenceWords.p90})`],
    ["Person", `${p.person.value} (${pct(p.person.share)} of the pronouns)`],
    ["Contractions", band(p.contractions, "per 100 words")],
    ["Spelling", p.spelling.value],
    ["Headings", `${p.headingCase.value} case`],
    ["Reading ease", band(p.readingEase, "Flesch")],
    ["Numbers", p.numbers.value],
    ["Phrases", p.phrases.slice(0, 6).join(", ") || "none"],
  ];
  byId("voice-features").replaceChildren(...rows.flatMap(([term, value]) => [el("dt", null, term), el("dd", null, value)]));
  byId("voice-profile").hidden = false;
  profileControl.value = JSON.stringify(p);
  use.checked = true;
  applyUse();
}

/** Send the learnt voice as `style.voice`, or the note again. */
function applyUse(): void {
  profileControl.disabled = !use.checked;
  note.disabled = use.checked;
}

async function learn(): Promise<void> {
  hideError(form);
  const key = keyInput.value.trim();
  if (!key) {
    keyInput.setAttribute("aria-invalid", "true");
    showError(form, "Missing API key", "Enter the key, then press Learn voice again.");
    return;
  }
  rememberKey(key);
  learnButton.disabled = true;
  learnButton.textContent = "Learning…";
  try {
    showProfile(await createClient({ baseUrl: location.origin, apiKey: key }).voice({ articles: articles() }));
  } catch (error) {
    if (error instanceof InkpressApiError) showProblem(form, error.problem, error.retryAfter);
    else showError(form, "Could not reach the server", error instanceof Error ? error.message : String(error));
  } finally {
    learnButton.disabled = false;
    learnButton.textContent = "Learn voice";
  }
}

examples.addEventListener("dragover", (event) => event.preventDefault());
examples.addEventListener("drop", (event) => {
  if (!event.dataTransfer?.files.length) return;
  event.preventDefault();
  void addFiles(event.dataTransfer.files);
});
picker.addEventListener("change", () => {
  if (picker.files?.length) void addFiles(picker.files).then(() => (picker.value = ""));
});
learnButton.addEventListener("click", () => void learn());
use.addEventListener("change", applyUse);
