import { describe, expect, it } from "vitest";
import { withCompletedLinks } from "~/components/editor/field-values";
import { isSaveShortcut } from "~/components/editor/use-save-key";

const key = (k: string, mods: Partial<{ ctrlKey: boolean; metaKey: boolean; shiftKey: boolean; altKey: boolean }> = {}) => ({
  key: k,
  ctrlKey: false,
  metaKey: false,
  shiftKey: false,
  altKey: false,
  ...mods,
});

describe("the editor's save shortcut and links completed on save (decision 124)", () => {
  it("takes Ctrl+S and Cmd+S, and nothing else", () => {
    expect([key("s", { ctrlKey: true }), key("S", { ctrlKey: true }), key("s", { metaKey: true })].map(isSaveShortcut)).toEqual([true, true, true]);
    expect(
      [
        key("s"),
        key("s", { ctrlKey: true, shiftKey: true }),
        key("s", { ctrlKey: true, altKey: true }),
        key("d", { ctrlKey: true }),
        key("z", { metaKey: true }),
      ].map(isSaveShortcut),
    ).toEqual([false, false, false, false, false]);
  });

  it("completes every link typed without its scheme, and keeps the draft when none is", () => {
    const draft = {
      name: "x",
      items: [
        { key: "a", element: { type: "link", link: "www.louvre.fr/fr/œuvres/la-joconde", content: "Louvre" } },
        { key: "b", element: { type: "text", content: "www.louvre.fr" } },
        { key: "c", element: { type: "link", link: "example.org", content: "" } },
        { key: "d", element: { type: "link", link: "javascript:alert(1)", content: "" } },
      ],
    };
    const done = withCompletedLinks(draft);
    expect(done.items.map((i) => (i.element as { link?: string }).link ?? (i.element as { content: string }).content)).toEqual([
      "https://www.louvre.fr/fr/œuvres/la-joconde",
      "www.louvre.fr",
      "https://example.org",
      "javascript:alert(1)",
    ]);
    expect(done.items[1]).toBe(draft.items[1]);
    const accordion = {
      items: [
        {
          key: "e",
          element: {
            type: "accordion",
            header: { content: "h" },
            details: [
              { type: "text", content: "t" },
              { type: "link", link: "www.louvre.fr", content: "" },
            ],
          },
        },
      ],
    };
    expect((withCompletedLinks(accordion).items[0]!.element as { details: { link?: string }[] }).details[1]!.link).toBe("https://www.louvre.fr");
    const clean = { items: [{ key: "a", element: { type: "link", link: "https://www.louvre.fr" } }] };
    expect(withCompletedLinks(clean)).toBe(clean);
  });
});
