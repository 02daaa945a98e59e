import { useEffect, useRef, useState, type KeyboardEvent } from "react";
import { useTranslation } from "react-i18next";

export type EditorTab = "edit" | "preview";

/** Below this width the form and the preview are two tabs (decision 066); the CSS uses the same figure. */
export const TABS_MEDIA = "(max-width: 899.98px)";

/**
 * Whether the screen is narrow enough for tabs. The server renders the wide layout (it cannot know the
 * width); on a phone the tabs appear once the page is hydrated, before anyone can interact.
 */
export function useNarrowScreen(): boolean {
  const [narrow, setNarrow] = useState(false);
  useEffect(() => {
    const query = window.matchMedia(TABS_MEDIA);
    const update = () => setNarrow(query.matches);
    update();
    query.addEventListener("change", update);
    return () => query.removeEventListener("change", update);
  }, []);
  return narrow;
}

export const tabId = (tab: EditorTab) => `editor-tab-${tab}`;
export const panelId = (tab: EditorTab) => `editor-panel-${tab}`;

/** The props a panel takes: a tab panel on a narrow screen (hidden unless chosen), nothing on a wide one. */
export function panelProps(tab: EditorTab, current: EditorTab, narrow: boolean) {
  if (!narrow) return {};
  return { id: panelId(tab), role: "tabpanel", "aria-labelledby": tabId(tab), hidden: tab !== current };
}

const TABS: EditorTab[] = ["edit", "preview"];

/** The ARIA tab pattern: one tab in the Tab order, arrows, Home and End move between them and choose. */
export function EditorTabs({ current, onChange }: { current: EditorTab; onChange: (tab: EditorTab) => void }) {
  const { t } = useTranslation();
  const refs = useRef<Partial<Record<EditorTab, HTMLButtonElement | null>>>({});
  const listRef = useRef<HTMLDivElement>(null);
  // Each tab keeps its own place on the page: back on Edit, the form is where it was left; the preview
  // starts at its top, just under the pinned bar, whether it was above the screen or below the actions
  // and the publish panel (decision 124: a tap on "Preview" shows the preview).
  const scrollOf = useRef<Partial<Record<EditorTab, number>>>({});

  function choose(tab: EditorTab) {
    if (tab === current) return;
    scrollOf.current[current] = window.scrollY;
    onChange(tab);
    // The pinned bar is shorter once it sticks to the top than where it sits in the page: align, then
    // measure again once it has stuck and align once more.
    const align = (again: boolean) => {
      const panel = document.getElementById(panelId(tab));
      const barBottom = listRef.current?.getBoundingClientRect().bottom ?? 0;
      const top = panel?.getBoundingClientRect().top;
      if (top === undefined || Math.abs(top - barBottom - 8) < 1) return;
      window.scrollBy(0, top - barBottom - 8);
      if (again) requestAnimationFrame(() => align(false));
    };
    requestAnimationFrame(() => {
      const saved = scrollOf.current[tab];
      if (saved !== undefined) return window.scrollTo(0, saved);
      align(true);
    });
  }

  function onKeyDown(event: KeyboardEvent) {
    const index = TABS.indexOf(current);
    const next = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: TABS.length - 1 }[event.key];
    if (next === undefined) return;
    event.preventDefault();
    const tab = TABS[(next + TABS.length) % TABS.length]!;
    choose(tab);
    refs.current[tab]?.focus();
  }

  return (
    <div className="editor-tabs" ref={listRef} role="tablist" aria-label={t("editorCards.tabsLabel")} onKeyDown={onKeyDown}>
      {TABS.map((tab) => (
        <button
          key={tab}
          ref={(node) => {
            refs.current[tab] = node;
          }}
          type="button"
          role="tab"
          id={tabId(tab)}
          aria-controls={panelId(tab)}
          aria-selected={tab === current}
          tabIndex={tab === current ? 0 : -1}
          className="editor-tabs__tab"
          onClick={() => choose(tab)}
        >
          {t(tab === "edit" ? "editorCards.tabEdit" : "editorCards.tabPreview")}
        </button>
      ))}
    </div>
  );
}
