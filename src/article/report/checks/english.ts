/**
 * English word lists for the readability checks that Yoast runs on English text only:
 * transition words and the passive voice. No maintained package serves either: none on
 * npm lists transition words, retext-passive knows only irregular participles (so "is
 * added" passes), and compromise tags passives well but costs about 3 ms a sentence
 * (a second for a 5,000-word article), so both are small lists here.
 */
import { wordSpans } from "../../text/text.js";

/** Words that link a sentence to the one before (cause, contrast, sequence, example, emphasis). */
const TRANSITION_WORDS = new Set([
  "accordingly", "additionally", "afterwards", "afterward", "also", "although", "besides", "because", "but",
  "certainly", "clearly", "consequently", "conversely", "despite", "earlier", "equally", "especially",
  "eventually", "finally", "firstly", "further", "furthermore", "hence", "however", "indeed",
  "initially", "instead", "lastly", "later", "likewise", "meanwhile", "moreover", "namely", "naturally",
  "nevertheless", "next", "nonetheless", "notably", "obviously", "otherwise", "overall", "particularly",
  "previously", "secondly", "similarly", "since", "so", "specifically", "still", "subsequently",
  "then", "therefore", "thirdly", "though", "thus", "unless", "unlike", "until", "whereas", "while",
  "yet",
]);

/** Transition phrases of several words, matched as whole words. */
const TRANSITION_PHRASES = [
  "above all", "after all", "after that", "all in all", "as a result", "as long as", "as soon as", "as well as",
  "at first", "at last", "at the same time", "because of", "before that", "by contrast", "due to", "even so",
  "even though", "first of all", "for example", "for instance", "for this reason", "in addition", "in contrast",
  "in fact", "in general", "in other words", "in particular", "in short", "in the end", "in the meantime",
  "of course", "on the contrary", "on the other hand", "on top of that", "such as", "that is why", "to begin with",
  "to sum up", "with this in mind",
].map((phrase) => phrase.split(" "));

/** Forms of "be" and "get" that make a passive with a past participle ("is added", "got bitten"). */
const AUXILIARIES = new Set(["am", "is", "are", "was", "were", "be", "been", "being", "get", "gets", "got", "gotten", "getting"]);

/** Words that may stand between the auxiliary and the participle ("is often added", "was not seen"). */
const BETWEEN = new Set(["not", "never", "also", "often", "always", "still", "just", "all", "usually", "rarely", "sometimes", "then", "now"]);

/** Irregular past participles of verbs that take an object (regular ones end in -ed): "was gone" is no passive. */
const IRREGULAR = new Set([
  "awoken", "beaten", "begun", "bent", "bet", "bitten", "bled", "blown", "broken", "bred", "brought",
  "built", "burnt", "bought", "caught", "chosen", "cost", "cut", "dealt", "done", "drawn", "dreamt",
  "driven", "drunk", "dug", "eaten", "fed", "felt", "fought", "found", "fled", "flown", "forbidden",
  "forgotten", "forgiven", "frozen", "given", "ground", "grown", "hung", "heard", "hidden", "hit", "held",
  "hurt", "kept", "knelt", "known", "laid", "led", "learnt", "left", "lent", "let", "lit", "lost", "made", "meant",
  "met", "mistaken", "paid", "put", "quit", "read", "ridden", "rung", "run", "said", "sought", "seen",
  "sold", "sent", "set", "sewn", "shaken", "shed", "shone", "shot", "shown", "shrunk", "shut", "sung", "sunk",
  "slain", "slept", "slid", "spoken", "spent", "spilt", "spun", "split", "spread", "sprung", "stolen", "stood",
  "stuck", "stung", "struck", "strung", "sworn", "swept", "swollen", "swum", "taken", "taught", "torn", "told",
  "thought", "thrown", "understood", "woken", "worn", "woven", "wept", "won", "wound", "written",
]);

/** Words ending in -ed that are not participles. */
const NOT_PARTICIPLES = new Set(["bed", "red", "seed", "need", "feed", "speed", "weed", "shed", "breed", "deed", "greed", "hundred", "indeed", "naked", "sacred", "wicked", "kindred"]);

const lowerWords = (sentence: string) => wordSpans(sentence, "en").map((span) => span.word.toLowerCase().replace(/[’]/g, "'"));

/** Whether an English sentence holds a transition word or phrase. */
export function hasTransition(sentence: string): boolean {
  const words = lowerWords(sentence);
  if (words.some((word) => TRANSITION_WORDS.has(word))) return true;
  return words.some((_, i) => TRANSITION_PHRASES.some((phrase) => phrase.every((wanted, j) => words[i + j] === wanted)));
}

/** Whether an English sentence is in the passive voice: a form of "be" or "get", then a past participle. */
export function isPassive(sentence: string): boolean {
  const words = lowerWords(sentence);
  return words.some((word, i) => {
    if (!AUXILIARIES.has(word)) return false;
    let next = i + 1;
    while (next < words.length && next <= i + 2 && (BETWEEN.has(words[next]!) || words[next]!.endsWith("ly"))) next++;
    const candidate = words[next];
    return candidate !== undefined && isParticiple(candidate);
  });
}

function isParticiple(word: string): boolean {
  return IRREGULAR.has(word) || (word.length > 3 && word.endsWith("ed") && !NOT_PARTICIPLES.has(word));
}
