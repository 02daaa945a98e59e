import { describe, expect, it } from "vitest";
import { chunk, filterArticles, parsePrintIds, printHref, qrImageUrl, shortAddress, tourQrImageUrl } from "~/components/qrcodes/qrcode-helpers";
import { isQrLook, qrFileName } from "~/qrcode/looks";

const articles = [
  { id: 1, unformatted_name: "Céramique grecque" },
  { id: 2, unformatted_name: "Amphore" },
  { id: 3, unformatted_name: "STÈLE funéraire" },
];

describe("the article picker's filter", () => {
  it("matches a case-insensitive substring of the private name, accents ignored", () => {
    expect(filterArticles(articles, "ceram").map((a) => a.id)).toEqual([1]);
    expect(filterArticles(articles, "STELE").map((a) => a.id)).toEqual([3]);
    expect(filterArticles(articles, "FUNÉ").map((a) => a.id)).toEqual([3]);
    expect(filterArticles(articles, "é").map((a) => a.id)).toEqual([1, 2, 3]); // "é" is "e" here
    expect(filterArticles(articles, "Phor").map((a) => a.id)).toEqual([2]);
  });

  it("keeps everything for an empty query and nothing for a stranger", () => {
    expect(filterArticles(articles, "  ")).toHaveLength(3);
    expect(filterArticles(articles, "vase")).toEqual([]);
  });

  it("finds a name stored in NFC from a query typed in NFD", () => {
    expect(filterArticles(articles, "Céramique".normalize("NFD")).map((a) => a.id)).toEqual([1]);
  });
});

describe("the print sheet's ids", () => {
  it("reads ids=1,2,3 and repeated ids, ignoring anything that is not an id", () => {
    expect(parsePrintIds(new URLSearchParams("ids=3,1,x,,-2,0,1.5,3"))).toEqual([3, 1]);
    expect(parsePrintIds(new URLSearchParams("ids=4&ids=5,6"))).toEqual([4, 5, 6]);
    expect(parsePrintIds(new URLSearchParams(""))).toEqual([]);
  });

  it("links to all codes when none is chosen", () => {
    expect(printHref([])).toBe("/qrcodes/print");
    expect(printHref([1, 2, 3])).toBe("/qrcodes/print?ids=1,2,3");
  });

  it("cuts the sheet into pages and the address to what a person types", () => {
    expect(chunk([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
    expect(shortAddress("https://muselingo.example/r/abcd2345")).toBe("muselingo.example/r/abcd2345");
  });
});

describe("image addresses and file names for the two looks (decision 115)", () => {
  it("adds look only for the spec's white on black, and names its downloads apart", () => {
    expect(qrImageUrl(5)).toBe("/api/read/qrcode_image?qrcodeId=5&format=png");
    expect(qrImageUrl(5, "svg", "dark-on-light")).toBe("/api/read/qrcode_image?qrcodeId=5&format=svg");
    expect(qrImageUrl(5, "svg", "light-on-dark")).toBe("/api/read/qrcode_image?qrcodeId=5&format=svg&look=light-on-dark");
    expect(tourQrImageUrl(7, "png", "light-on-dark")).toBe("/api/read/tour_qrcode?id=7&format=png&look=light-on-dark");
    expect(qrFileName("qrcode", "k3j9xq2m", "png", "dark-on-light")).toBe("qrcode-k3j9xq2m.png");
    expect(qrFileName("tour", "k3j9xq2m", "svg", "light-on-dark")).toBe("tour-k3j9xq2m-white-on-black.svg");
    expect(["dark-on-light", "light-on-dark", "inverted", "", null, 1].map(isQrLook)).toEqual([true, true, false, false, false, false]);
  });
});
