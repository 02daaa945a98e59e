import { describe, expect, it } from "vitest";
import { mediaReferences } from "~/content/media-refs";

describe("mediaReferences", () => {
  it("finds every /media/ address with the path of its field, in document order", () => {
    const content = [
      { type: "metadatas", url: "a" },
      { type: "image", src: "/media/m/1/image/a.png", alt: "/media/m/1/image/a.png" },
      { type: "video", src: "", subtitles: "/media/m/1/subtitles/b.vtt" },
      {
        type: "accordion",
        header: { content: "x" },
        details: [
          { type: "text", content: "y" },
          { type: "legendItem", src: "/media/m/2/image/c.png" },
        ],
      },
    ];
    expect(mediaReferences(content)).toEqual([
      { field: "1.src", src: "/media/m/1/image/a.png" },
      { field: "2.subtitles", src: "/media/m/1/subtitles/b.vtt" },
      { field: "3.details.1.src", src: "/media/m/2/image/c.png" },
    ]);
  });

  it("ignores texts, the bare prefix, other addresses, non-strings, and nesting past any content's depth", () => {
    let deep: unknown = { src: "/media/m/1/image/deep.png" };
    for (let i = 0; i < 20; i++) deep = [deep];
    const fields = (src: unknown) => [{ src }, { subtitles: src }];
    expect(
      mediaReferences([
        ...fields("/media/"),
        ...fields("https://example.org/media/x"),
        ...fields(42),
        ...fields(null),
        deep,
        { src: "/mediax" },
        { content: "/media/x" },
        "/media/x",
      ]),
    ).toEqual([]);
    expect(mediaReferences({ "article 3 draft": [{}, { src: "/media/é 🏺" }] })).toEqual([{ field: "article 3 draft.1.src", src: "/media/é 🏺" }]);
  });
});
