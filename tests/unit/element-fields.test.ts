import { createInstance } from "i18next";
import { createElement, Fragment } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import { describe, expect, it } from "vitest";
import { ElementFields } from "~/components/editor/element-fields";
import { ADDABLE_TYPES, newElement, type ContentElement } from "~/content/schema";
import { i18nOptions, resources, type Locale } from "~/i18n/config";

type Editable = Exclude<ContentElement, { type: "metadatas" }>;

function i18n(locale: Locale) {
  const instance = createInstance({ ...i18nOptions, resources, lng: locale, initImmediate: false });
  void instance.init();
  return instance;
}

function render(elements: { element: Editable; idPrefix: string }[], locale: Locale = "fr"): string {
  const fields = elements.map(({ element, idPrefix }) => createElement(ElementFields, { key: idPrefix, element, idPrefix, articleId: 7, onChange: () => {} }));
  return renderToStaticMarkup(createElement(I18nextProvider, { i18n: i18n(locale) }, createElement(Fragment, null, ...fields)));
}

const attr = (tag: string, name: string) => tag.match(new RegExp(`\\s${name}="([^"]*)"`))?.[1];
const controls = (html: string) => [...html.matchAll(/<(input|select|textarea|progress)\b[^>]*>/g)].map((m) => m[0]);
const ids = (html: string) => [...html.matchAll(/\sid="([^"]*)"/g)].map((m) => m[1]!);

/** An accordion holding one detail of each allowed type, so the recursive forms are covered too. */
function fullAccordion(): Editable {
  return { ...newElement("accordion"), details: [newElement("text"), newElement("image"), newElement("space"), newElement("link"), newElement("legendItem")] };
}

const everyType: Editable[] = [...ADDABLE_TYPES.filter((type) => type !== "accordion").map((type) => newElement(type)), fullAccordion()];

describe("ElementFields", () => {
  it.each(everyType.map((element) => [element.type, element] as const))("%s: every control has a visible label tied by id", (_, element) => {
    for (const locale of ["fr", "en"] as const) {
      const html = render([{ element, idPrefix: "el-1" }], locale);
      const found = controls(html);
      expect(found.length).toBeGreaterThan(0);
      for (const control of found) {
        const id = attr(control, "id");
        expect(id, control).toBeTruthy();
        expect(html, control).toMatch(new RegExp(`<label for="${id}">[^<]+</label>`));
      }
      for (const button of html.matchAll(/<button\b[^>]*>([^<]*)<\/button>/g)) expect(button[1]!.trim(), button[0]).not.toBe("");
      // Every reference points at something, and every group has a legend.
      for (const ref of html.matchAll(/aria-describedby="([^"]*)"/g)) {
        for (const target of ref[1]!.split(" ")) expect(ids(html), target).toContain(target);
      }
      expect(html.match(/<fieldset/g)?.length ?? 0).toBe(html.match(/<fieldset[^>]*><legend>[^<]+<\/legend>/g)?.length ?? 0);
      expect(html).not.toMatch(/editor\.fields\./);
    }
  });

  it("ids are unique on a page holding the same elements twice under different prefixes", () => {
    const html = render([
      ...everyType.map((element, i) => ({ element, idPrefix: `a${i}` })),
      ...everyType.map((element, i) => ({ element, idPrefix: `b${i}` })),
    ]);
    const all = ids(html);
    expect(all.length).toBeGreaterThan(100);
    expect(new Set(all).size).toBe(all.length);
  });

  it("text: the content is labelled Texte / Text, with the spec's defaults and limits", () => {
    const fr = render([{ element: newElement("text"), idPrefix: "t" }]);
    expect(fr).toContain('<label for="t-content">Texte</label>');
    expect(fr).toMatch(/<input id="t-font-size" type="number"[^>]* min="1" max="100"[^>]* value="16"/);
    expect(fr).toMatch(/<input id="t-size" type="number"[^>]* min="1" max="100"[^>]* value="100"/);
    expect(fr).toContain('value="#ffffff"');
    expect(render([{ element: newElement("text"), idPrefix: "t" }], "en")).toContain('<label for="t-content">Text</label>');
  });

  it("image: alternative text with its hint tied to it", () => {
    const html = render([{ element: newElement("image"), idPrefix: "i" }], "en");
    expect(html).toContain('<label for="i-alt">Alternative text</label>');
    expect(html).toMatch(/<input id="i-alt"[^>]*aria-describedby="i-alt-hint"/);
    expect(html).toContain("translated");
    expect(html).toMatch(/<input id="i-image" type="file" accept="[^"]*image\/jpeg[^"]*"/);
    expect(html).not.toContain("svg");
  });

  it("image: shows the current file and a preview", () => {
    const html = render([{ element: { ...newElement("image"), src: "/media/7/abc.webp" }, idPrefix: "i" }]);
    expect(html).toContain('<img class="ef-upload__preview" src="/media/7/abc.webp" alt=""/>');
  });

  it("video: the technical id is never shown (decision 069); subtitles take .vtt", () => {
    const video = { ...newElement("video"), videoId: "Ab12Cd" };
    const html = render([{ element: video, idPrefix: "v" }]);
    expect(html).not.toContain("Ab12Cd");
    expect(html).not.toContain('id="v-video-id"');
    expect(html).toMatch(/<input id="v-subtitles" type="file" accept="\.vtt,text\/vtt"/);
    expect(html).toMatch(/<input id="v-video" type="file" accept="video\/\*"/);
  });

  it("space: the height, 40 by default", () => {
    expect(render([{ element: newElement("space"), idPrefix: "s" }])).toMatch(/<input id="s-height" type="number"[^>]* value="40"/);
  });

  it("link: an address the schema refuses is marked invalid and explained", () => {
    const bad = { ...newElement("link"), link: "javascript:alert(1)" };
    const html = render([{ element: bad, idPrefix: "l" }], "en");
    expect(html).toMatch(/<input id="l-url"[^>]*aria-describedby="l-url-hint l-url-error" aria-invalid="true"/);
    expect(html).toContain('<p id="l-url-error" class="ef-error" role="alert">This address is not accepted');
    const good = render([{ element: { ...newElement("link"), link: "https://louvre.fr" }, idPrefix: "l" }]);
    expect(good).not.toContain("aria-invalid");
  });

  it("legend item: the position reads as image before / after the text", () => {
    const html = render([{ element: newElement("legendItem"), idPrefix: "g" }], "en");
    expect(html).toContain('<option value="flex-start" selected="">Image before the text</option><option value="flex-end">Image after the text</option>');
    expect(html).toMatch(/<input id="g-width" type="number"[^>]* value="30"/);
  });

  it("accordion: the first detail cannot move up; the add select offers only detail types", () => {
    const html = render([{ element: fullAccordion(), idPrefix: "acc" }], "en");
    const moveButtons = [...html.matchAll(/<button([^>]*)>Move up<span class="visually-hidden"> — Content (\d): \w+<\/span><\/button>/g)];
    expect(moveButtons.map((m) => m[2])).toEqual(["1", "2", "3", "4", "5"]);
    // Named by what they show (WCAG 2.5.3): no aria-label that could say something else.
    expect(html).not.toMatch(/<button[^>]*aria-label/);
    expect(moveButtons[0]![1]).toContain("disabled");
    expect(moveButtons.slice(1).every((m) => !m[1]!.includes("disabled"))).toBe(true);
    const select = html.match(/<select id="acc-add-type"[^>]*>(.*?)<\/select>/)?.[1] ?? "";
    expect([...select.matchAll(/value="(\w+)"/g)].map((m) => m[1])).toEqual(["text", "image", "space", "link", "legendItem"]);
    expect(html).toContain("<legend>Content 4: Link</legend>");
  });
});
