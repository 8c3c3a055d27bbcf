/**
 * The playground's tabs (Generate an article, Check an article), as the WAI-ARIA tabs pattern
 * has them: the selected tab alone is in the Tab order, the arrow keys (and Home, End) move
 * to and select the next tab, and each tab shows its panel. `/#check` opens on the Check tab,
 * and selecting a tab keeps the address in step, so a reload or a shared link lands there.
 */

const tabs = [...document.querySelectorAll<HTMLElement>('[role="tablist"] [role="tab"]')];

/** The hash that opens a tab: its id without `tab-`, none for the first. */
const hashOf = (tab: HTMLElement) => (tab === tabs[0] ? "" : `#${tab.id.replace(/^tab-/, "")}`);

/** Select a tab: show its panel, hide the others, and (when asked) move the focus to it. */
function select(tab: HTMLElement, { focus = false } = {}): void {
  for (const other of tabs) {
    const selected = other === tab;
    other.setAttribute("aria-selected", String(selected));
    other.tabIndex = selected ? 0 : -1;
    document.getElementById(other.getAttribute("aria-controls")!)!.hidden = !selected;
  }
  if (focus) tab.focus();
  if (location.hash !== hashOf(tab) && (location.hash || hashOf(tab)))
    history.replaceState(null, "", `${location.pathname}${location.search}${hashOf(tab)}`);
}

/** The tab a key moves to from `index`, or undefined for a key the tabs do not take. */
function target(key: string, index: number): HTMLElement | undefined {
  if (key === "ArrowRight") return tabs[(index + 1) % tabs.length];
  if (key === "ArrowLeft") return tabs[(index - 1 + tabs.length) % tabs.length];
  if (key === "Home") return tabs[0];
  if (key === "End") return tabs.at(-1);
  return undefined;
}

for (const [index, tab] of tabs.entries()) {
  tab.addEventListener("click", () => select(tab));
  tab.addEventListener("keydown", (event) => {
    const next = target(event.key, index);
    if (!next) return;
    event.preventDefault();
    select(next, { focus: true });
  });
}

const opened = tabs.find((tab) => hashOf(tab) && hashOf(tab) === location.hash);
if (opened) select(opened);
