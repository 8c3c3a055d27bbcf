/**
 * The playground's voice panel, in the form's Style fieldset: example articles dropped as files or
 * pasted, learnt into a house voice (`POST /api/v1/voice`), the profile shown, and "Write with this
 * voice" sends it as `style.voice` in place of the note (client/voice.ts).
 */

/** The panel's own look, in the page's style. */
export const VOICE_STYLE = `
details.voice-learn { border: 1px dashed var(--line); border-radius: 8px; padding: 8px 10px; margin-bottom: 10px; }
details.voice-learn summary { cursor: pointer; font-size: 13px; font-weight: 600; }
details.voice-learn[open] summary { margin-bottom: 8px; }
.voice-learn .drop { border-style: dashed; }
.voice-learn .files { font-size: 12px; color: var(--muted); margin: 0 0 8px; overflow-wrap: anywhere; }
.voice-learn .voice-actions { display: flex; gap: 8px; flex-wrap: wrap; align-items: center; margin-bottom: 8px; }
.voice-learn .voice-actions button { padding: 5px 12px; font-size: 13px; }
.voice-learn dl { display: grid; grid-template-columns: auto 1fr; gap: 2px 10px; margin: 0 0 8px; font-size: 13px; }
.voice-learn dt { color: var(--muted); }
.voice-learn dd { margin: 0; overflow-wrap: anywhere; }
`;

/** The panel; the profile part is hidden until a voice is learnt. */
export const VOICE_PANEL = `<details class="voice-learn" id="voice-learn">
<summary>Learn a house voice from your articles</summary>
<label class="field"><span>Example articles</span>
<textarea id="voice-examples" class="drop" rows="4" placeholder="Paste an article or drop Markdown files here&#10;---&#10;another article"></textarea>
<small>Three to five of your own articles, at least 150 words of prose in all: drop <code>.md</code> files on the box or pick them,
or paste articles separated by a line of <code>---</code>.</small></label>
<p class="files" id="voice-files-list" hidden></p>
<div class="voice-actions">
<label><input type="file" id="voice-files" multiple accept=".md,.markdown,.txt,text/markdown,text/plain"></label>
<button type="button" id="voice-learn-button">Learn voice</button>
</div>
<div id="voice-profile" hidden>
<dl id="voice-features"></dl>
<label class="check"><input type="checkbox" id="voice-use"> Write with this voice</label>
</div>
<textarea id="f-style-voice-profile" name="style.voice" data-list="json" hidden disabled></textarea>
</details>`;
